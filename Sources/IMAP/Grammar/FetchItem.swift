/// A data item a UID FETCH asks for (RFC 3501 §6.4.5 `fetch-att`; `MODSEQ` from RFC 7162),
/// the ones the sync uses. The body is always fetched with `BODY.PEEK`, so reading a message
/// never sets `\Seen` behind the user's back:
///
///     C: A7 UID FETCH 4:9 (UID FLAGS RFC822.SIZE BODY.PEEK[HEADER] BODY.PEEK[1.2]<0.65536>)
public enum FetchItem: Sendable, Hashable {
    case uid
    case flags
    case internalDate
    case rfc822Size
    case bodyStructure
    /// CONDSTORE's mod-sequence.
    case modSeq
    /// `BODY.PEEK[section]`, or its first bytes with `partial` (`<origin.count>`).
    case bodyPeek(BodySection, partial: Range<UInt32>? = nil)

    /// The item as it is written in the command.
    public var text: String {
        switch self {
        case .uid: "UID"
        case .flags: "FLAGS"
        case .internalDate: "INTERNALDATE"
        case .rfc822Size: "RFC822.SIZE"
        case .bodyStructure: "BODYSTRUCTURE"
        case .modSeq: "MODSEQ"
        case .bodyPeek(let section, let partial):
            "BODY.PEEK[\(section.spec)]" + (partial.map { "<\($0.lowerBound).\($0.count)>" } ?? "")
        }
    }

    /// The parenthesised list of `items`, with `UID` first when it is not among them:
    /// without it a response could not be told apart from an unsolicited FETCH.
    static func list(_ items: [FetchItem]) -> String {
        let withUID = items.contains(.uid) ? items : [.uid] + items
        return "(" + withUID.map(\.text).joined(separator: " ") + ")"
    }
}
