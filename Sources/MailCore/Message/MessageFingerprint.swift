/// What tells one message from another without its body: its size and a SHA-256 of its
/// header section, as an IMAP server reports them (`RFC822.SIZE`, `BODY[HEADER]`).
///
/// The same message copied to several folders (a COPY, Gmail labels) has one fingerprint;
/// messages that merely share a Message-ID almost never do: a fragment of a message is
/// shorter, a second delivery has its own `Received:` lines, an edited resend its own
/// Date or length. A Message-ID alone is never an identity (docs/SYNC-RULES.md, "The same
/// message").
public struct MessageFingerprint: Hashable, Sendable {
    public let size: Int
    /// Lower-case hex SHA-256 of the header section, its blank line included.
    public let headerDigest: String

    /// From what a server said: RFC822.SIZE and the bytes of BODY[HEADER].
    public init(size: Int, header: some Sequence<UInt8>) {
        self.size = size
        headerDigest = SHA256.hex(of: header)
    }

    /// Of a message held locally (an import, a file copied into a folder): the fingerprint
    /// a server would give it. Servers hand out messages with CRLF line ends (RFC 3501
    /// §2.3.1.1 and Dovecot does so for messages appended with bare LFs), so a bare LF counts
    /// as CRLF, and the header section runs to its first empty line (RFC 3501 §6.4.5).
    public init(message raw: [UInt8]) {
        let (header, bareLineFeeds) = Self.headerSection(of: raw, countingBareLineFeeds: true)
        self.init(size: raw.count + bareLineFeeds, header: header)
    }

    /// Of a message a server sent whole without its header first: the size it reported
    /// (`RFC822.SIZE`, its word even where it differs from the bytes it sent) and the
    /// header section of those bytes, which is what it sends for `BODY[HEADER]`.
    public init(reportedSize: Int, message raw: [UInt8]) {
        self.init(size: reportedSize, header: Self.headerSection(of: raw, countingBareLineFeeds: false).header)
    }

    /// The header section as a server sends it (every line ending in CRLF, up to and with
    /// the first empty line), and how many bare LFs the whole message has when counted
    /// (the walk stops at the header's end otherwise).
    private static func headerSection(of raw: [UInt8], countingBareLineFeeds: Bool) -> (header: [UInt8], bareLineFeeds: Int) {
        let bytes = raw[...]
        var header: [UInt8] = []
        var bareLineFeeds = 0
        var start = bytes.startIndex
        var inHeader = true
        while start < bytes.endIndex && (inHeader || countingBareLineFeeds) {
            let line = ByteSearch.line(startingAt: start, in: bytes)
            let terminated = line.next > line.contentEnd && bytes[line.next - 1] == ASCII.lf
            if terminated && bytes[line.contentEnd] == ASCII.lf { bareLineFeeds += 1 }
            if inHeader {
                header += bytes[start..<line.contentEnd]
                if terminated { header += [ASCII.cr, ASCII.lf] }
                inHeader = line.contentEnd > start
            }
            start = line.next
        }
        return (header, bareLineFeeds)
    }

    /// As kept in the store: `size:digest`.
    public var stored: String { "\(size):\(headerDigest)" }

    public init?(stored: String) {
        let parts = stored.split(separator: ":", maxSplits: 1)
        guard parts.count == 2, let size = Int(parts[0]) else { return nil }
        self.size = size
        headerDigest = String(parts[1])
    }
}
