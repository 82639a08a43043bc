import MailCore

/// Decides the role and tree path of a folder from its name, for sources that carry no
/// RFC 6154 special-use attributes (imports). IMAP sync uses the server's attributes.
public enum FolderClassifier {
    public static func type(ofImportedName name: String) -> FolderType {
        // Only top-level folders play a role: "Projects/Sent" is an ordinary folder.
        guard !name.contains("/") else { return .custom }
        switch name.lowercased() {
        case "inbox": return .inbox
        case "sent", "sent mail", "sent messages", "sent items": return .sent
        case "drafts", "draft": return .drafts
        case "trash", "deleted", "deleted items", "deleted messages", "bin": return .trash
        case "spam", "junk", "junk e-mail", "junk email": return .spam
        default: return .custom
        }
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

    /// Names at the top of an account directory that the tree itself uses.
    static let reservedTopLevel: Set<String> = [
        "inbox", "sent", "drafts", "trash", "spam", "starred",
        "archive", "outbox", "threads", "attachments", "search",
    ]
}
