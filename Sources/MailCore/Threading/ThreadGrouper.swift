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
/// by their smallest id. Every input message appears in exactly one thread. The work is
/// done by `ThreadGrouping`, which can also take the messages one at a time.
///
///     ThreadGrouper.group([a, replyToA, unrelated])   // [[a.id, replyToA.id], [unrelated.id]]
public enum ThreadGrouper {
    public static func group(_ messages: [ThreadingInput]) -> [[Int64]] {
        var grouping = ThreadGrouping()
        for message in messages { grouping.add(message) }
        return grouping.groups()
    }
}
