/// A saved search of `[searches]` (listed in every `search/` directory) or of
/// `[accounts.NAME.searches]` (listed in that account's): `name = "query"`. Its name is a
/// directory, so it must be one (see `problem(withName:)`); its query must parse.
public struct SavedSearch: Sendable, Equatable {
    public var name: String
    public var query: String

    public init(name: String, query: String) {
        self.name = name
        self.query = query
    }

    /// More would make `ls search/` a listing of its own; nobody saves that many.
    public static let maximumCount = 1000

    /// Why `name` cannot name a directory of `search/`, or nil when it can. A name starting
    /// with '.' would be hidden and is never read as a query either.
    public static func problem(withName name: String) -> String? {
        if name.isEmpty { return "a saved search needs a name" }
        if name.hasPrefix(".") { return "a saved search's name cannot start with '.'" }
        if name.utf8.count > 255 { return "a saved search's name is at most 255 bytes" }
        if name.contains("/") || name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            return "a saved search's name cannot contain '/' or control characters"
        }
        return nil
    }
}
