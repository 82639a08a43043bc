import Foundation

/// The UID SEARCH criteria mailfs sends, encoded here so no caller writes protocol text.
public enum SearchKey: Sendable, Equatable {
    case all
    case deleted
    /// Internal date on or after the day of the date, in UTC. Servers compare in their own
    /// zone: callers widen a window by a day (docs/IMAP-QUIRKS.md §3.6).
    case since(Date)
    case uids(UIDSet)
    /// The header field contains `value` (sent quoted, or as a literal when it must be).
    case header(field: String, value: String)
    /// Every key holds (IMAP ANDs the keys of a list): `UID 120:* SINCE 1-Feb-2026`.
    indirect case allOf([SearchKey])

    /// A header field name goes into the command as is: it must be an atom.
    func check() throws(IMAPError) {
        switch self {
        case .header(let field, _): try CommandText.requireAtoms([field], what: "header field")
        case .allOf(let keys): for key in keys { try key.check() }
        default: break
        }
    }

    func encode(into command: inout CommandBuilder) {
        switch self {
        case .all:
            command.raw("ALL")
        case .deleted:
            command.raw("DELETED")
        case .since(let date):
            command.raw("SINCE " + IMAPDate.search(date))
        case .uids(let set):
            command.raw("UID \(set)")
        case .header(let field, let value):
            command.raw("HEADER " + field)
            command.string(value)
        case .allOf(let keys):
            for key in keys { key.encode(into: &command) }
        }
    }
}
