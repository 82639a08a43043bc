import MailCore

/// The one place that decides a folder's role and its path in the tree, for both sources
/// of folders: IMAP, where RFC 6154 special-use attributes decide (never names: Gmail
/// localizes them), and imports, which carry no attributes, so well-known names decide.
/// docs/SYNC-RULES.md, "Folders".
public enum FolderNaming {
    /// The role of an IMAP folder from its name (INBOX) and lower-cased LIST attributes;
    /// nil for an ordinary folder.
    public static func role(ofServerFolder name: String, attributes: Set<String>) -> FolderType? {
        if name.uppercased() == "INBOX" || attributes.contains("\\inbox") { return .inbox }
        return specialUse.first { attributes.contains($0.attribute) }?.role
    }

    /// The role of an imported folder from its name; only top-level folders play one
    /// ("Projects/Sent" is an ordinary folder).
    public static func role(ofImportedName name: String) -> FolderType {
        guard !name.contains("/") else { return .custom }
        return wellKnownNames.first { $0.names.contains(name.lowercased()) }?.role ?? .custom
    }

    /// Special-use folders get their canonical lower-case name (docs/REQUIREMENTS.md §C2);
    /// others keep their name, each component sanitized, and names the tree reserves get a
    /// suffix.
    public static func treePath(forName name: String, type: FolderType) -> String {
        if type != .custom && type != .archive && !name.contains("/") { return type.rawValue }
        let components = name.split(separator: "/").map { FileNamer.sanitize(String($0)) }
        guard let first = components.first else { return "folder" }
        var path = components
        if reservedTopLevel.contains(first.lowercased()) { path[0] = first + " (folder)" }
        return path.joined(separator: "/")
    }

    private static let specialUse: [(attribute: String, role: FolderType)] = [
        ("\\sent", .sent), ("\\drafts", .drafts), ("\\trash", .trash),
        ("\\junk", .spam), ("\\flagged", .starred), ("\\archive", .archive),
    ]

    private static let wellKnownNames: [(names: Set<String>, role: FolderType)] = [
        (["inbox"], .inbox),
        (["sent", "sent mail", "sent messages", "sent items"], .sent),
        (["drafts", "draft"], .drafts),
        (["trash", "deleted", "deleted items", "deleted messages", "bin"], .trash),
        (["spam", "junk", "junk e-mail", "junk email"], .spam),
    ]

    /// Names at the top of an account directory that the tree itself uses.
    static let reservedTopLevel: Set<String> = [
        "inbox", "sent", "drafts", "trash", "spam", "starred",
        "archive", "outbox", "threads", "attachments", "search",
    ]
}
