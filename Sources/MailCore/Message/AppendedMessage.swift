/// A message file a user copies into a server folder: it must look like RFC 5322 (a
/// header block of `Name: value` fields, then a body), and it gets a Message-ID when it
/// has none, so replaying its APPEND after a crash can find it instead of adding it twice.
public enum AppendedMessage {
    public static func check(_ bytes: [UInt8], uniqueToken: String) -> Result<[UInt8], Reason> {
        guard !bytes.isEmpty else { return .failure(Reason("the file is empty")) }
        guard !bytes.contains(0) else { return .failure(Reason("the file contains NUL bytes: not a message")) }
        let header = HeaderBlock.parse(bytes[...], isMessage: true)
        guard !header.fields.isEmpty, startsWithField(bytes) else {
            return .failure(Reason("no RFC 5322 header at the start of the file"))
        }
        guard ["from", "date", "subject"].contains(where: { header.value($0) != nil }) else {
            return .failure(Reason("the header has none of From, Date, Subject"))
        }
        if header.value("message-id") != nil { return .success(bytes) }
        let lineEnd: [UInt8] = bytes.contains(13) ? [13, 10] : [10]
        return .success(Array("Message-ID: <\(uniqueToken)@mailfs.invalid>".utf8) + lineEnd + bytes)
    }

    /// The first line is a header field: printable name characters up to a colon.
    private static func startsWithField(_ bytes: [UInt8]) -> Bool {
        guard let colon = bytes.prefix(1000).firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return false }
        return bytes[..<colon].allSatisfy { $0 > 32 && $0 < 127 }
    }

    public struct Reason: Error, Equatable, CustomStringConvertible, Sendable {
        public var description: String
        init(_ text: String) { description = text }
    }
}
