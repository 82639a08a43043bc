/// Groups the messages of ONE account into conversations (FR-SYNC-06). Callers run it per
/// account: threads never span accounts, and neither does the subject fallback.
///
/// Rules, in order:
/// 1. Reference graph (steps 1–3): every Message-ID named by a message — its own, its
///    In-Reply-To and its References (capped, see `ThreadingInput.maxReferences`) — is a
///    node, and a message joins all of its ids, so a thread is a connected component.
///    Ids of messages we do not have still connect the messages that name them; two
///    messages with the same Message-ID are the same node, hence the same thread; loops
///    and self-references are harmless (union-find has no direction).
/// 2. Subject fallback (step 4): see `SubjectFallback`.
///
/// The result is deterministic: each thread's store ids sorted ascending, threads sorted
/// by their smallest id. Every input message appears in exactly one thread.
///
///     ThreadGrouper.group([a, replyToA, unrelated])   // [[a.id, replyToA.id], [unrelated.id]]
public enum ThreadGrouper {
    public static func group(_ messages: [ThreadingInput]) -> [[Int64]] {
        var sets = DisjointSets(count: messages.count)
        linkReferences(of: messages, in: &sets)
        SubjectFallback.link(messages, in: &sets)
        return components(of: messages, in: sets)
    }

    /// Elements `0..<messages.count` are the messages; each distinct Message-ID gets a
    /// further element, created the first time it is seen.
    private static func linkReferences(of messages: [ThreadingInput], in sets: inout DisjointSets) {
        var nodeOfID: [String: Int] = [:]
        nodeOfID.reserveCapacity(messages.count * 2)
        func node(for id: String) -> Int {
            if let existing = nodeOfID[id] { return existing }
            let created = sets.makeSet()
            nodeOfID[id] = created
            return created
        }
        for (index, message) in messages.enumerated() {
            if let own = message.ownID { sets.union(index, node(for: own)) }
            for parent in message.parentIDs { sets.union(index, node(for: parent)) }
        }
    }

    private static func components(of messages: [ThreadingInput], in sets: DisjointSets) -> [[Int64]] {
        var sets = sets
        var membersOfRoot: [Int: [Int64]] = [:]
        for (index, message) in messages.enumerated() {
            membersOfRoot[sets.find(index), default: []].append(message.id)
        }
        return membersOfRoot.values
            .map { $0.sorted() }
            .sorted { $0.lexicographicallyPrecedes($1) }
    }
}
