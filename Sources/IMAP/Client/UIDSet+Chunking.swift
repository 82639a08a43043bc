extension UIDSet {
    /// Room for the set in a command line of about 1000 octets (RFC 2683 §3.2.1.5), less
    /// the command around it.
    public static let plainCommandBudget = 900
    /// Room for the set when the server supports CONDSTORE (RFC 7162 §4: 8192 octets).
    public static let condStoreCommandBudget = 8000

    /// The set cut into consecutive sets whose IMAP spelling is at most `maxOctets` long
    /// (a single range longer than that still gets a set of its own).
    public func chunked(maxOctets: Int) -> [UIDSet] {
        var chunks: [UIDSet] = []
        var current: [ClosedRange<UInt32>] = []
        var length = 0
        for range in ranges {
            let rangeLength = UIDSet([range]).description.utf8.count
            if !current.isEmpty && length + 1 + rangeLength > maxOctets {
                chunks.append(UIDSet(current))
                current = []
                length = 0
            }
            length += (current.isEmpty ? 0 : 1) + rangeLength
            current.append(range)
        }
        if !current.isEmpty { chunks.append(UIDSet(current)) }
        return chunks
    }
}
