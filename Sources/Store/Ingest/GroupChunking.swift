/// How `rethread` cuts the account's groups into chunks whose summary columns are read
/// and written together: enough groups for few queries, few enough messages that a
/// chunk's rows stay small whatever the size of the account. A group larger than the
/// message bound is a chunk of its own (its metadata needs all its messages at once).
struct GroupChunking {
    var maxGroups: Int
    var maxMessages: Int

    static let standard = GroupChunking(maxGroups: 500, maxMessages: 5_000)

    /// Consecutive runs of `groups`, in order, each within both bounds (or one group).
    func chunks(of groups: [[Int64]]) -> [ArraySlice<[Int64]>] {
        var chunks: [ArraySlice<[Int64]>] = []
        var start = 0
        var messages = 0
        for (index, group) in groups.enumerated() {
            let full = index - start == maxGroups || messages + group.count > maxMessages
            if index > start, full {
                chunks.append(groups[start..<index])
                start = index
                messages = 0
            }
            messages += group.count
        }
        if start < groups.count { chunks.append(groups[start...]) }
        return chunks
    }
}
