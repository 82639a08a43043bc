/// `ThreadGrouper`'s algorithm fed one message at a time, so a caller can stream an
/// account's messages from the store without holding them all: each message leaves only
/// what grouping needs later — its store id, its union-find element and its subject
/// bucket entry — while its header strings are dropped once linked. The graph's
/// Message-ID nodes are the only strings kept (one per distinct id).
///
///     var grouping = ThreadGrouping()
///     for message in messages { grouping.add(message) }
///     let threads = grouping.groups()   // == ThreadGrouper.group(messages)
public struct ThreadGrouping {
    private var sets = DisjointSets(count: 0)
    /// The union-find element of each Message-ID seen so far.
    private var nodeOfID: [String: Int] = [:]
    /// The messages added: store id and union-find element, by position.
    private var messageIDs: [Int64] = []
    private var messageElements: [Int] = []
    private var subjects = SubjectFallback.Buckets()

    public init() {}

    /// Links the message to the ids it names (rule 1) and files it for the subject
    /// fallback (rule 2, applied by `groups()`).
    public mutating func add(_ message: ThreadingInput) {
        let element = sets.makeSet()
        messageIDs.append(message.id)
        messageElements.append(element)
        if let own = message.ownID { sets.union(element, node(for: own)) }
        for parent in message.parentIDs { sets.union(element, node(for: parent)) }
        subjects.add(element: element, key: message.threadingKey, date: message.date,
                     isHeaderless: message.hasNoParentHeaders)
    }

    /// The threads: each thread's store ids sorted ascending, threads sorted by their
    /// smallest id.
    public mutating func groups() -> [[Int64]] {
        subjects.link(in: &sets)
        var membersOfRoot: [Int: [Int64]] = [:]
        for (id, element) in zip(messageIDs, messageElements) {
            membersOfRoot[sets.find(element), default: []].append(id)
        }
        return membersOfRoot.values
            .map { $0.sorted() }
            .sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// The element of a Message-ID, created the first time the id is seen.
    private mutating func node(for id: String) -> Int {
        if let existing = nodeOfID[id] { return existing }
        let created = sets.makeSet()
        nodeOfID[id] = created
        return created
    }
}
