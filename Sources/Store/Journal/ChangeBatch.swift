/// Which due changes the applier sends in one IMAP command: the oldest one and the rows
/// right after it that share its batch key, so `rm *.eml` becomes one UID MOVE of a UID
/// set instead of one command per file, and the account's order is kept.
public enum ChangeBatch {
    /// At most this many rows per command (the IMAP layer cuts long UID sets further).
    public static let maximum = 1000

    public static func next(_ due: [JournalChange]) -> [JournalChange] {
        guard let head = due.first else { return [] }
        guard let key = head.batchKey else { return [head] }
        var batch = [head]
        for change in due.dropFirst() {
            guard batch.count < maximum, change.batchKey == key else { break }
            batch.append(change)
        }
        return batch
    }
}
