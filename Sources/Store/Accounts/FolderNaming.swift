import MailCore

/// The one place that decides a folder's role and its path in the tree, for both sources
/// of folders: IMAP, where RFC 6154 special-use attributes decide and well-known names only
/// fill the roles no attribute claims (never on Gmail, which localizes its names), and
/// imports, which carry no attributes, so well-known names decide. docs/SYNC-RULES.md,
/// "Folders".
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
        if name.lowercased() == "inbox" { return .inbox }
        return wellKnownRole(ofName: name)?.role ?? .custom
    }

    /// The role a folder's name suggests, and its rank among the names of that role (0 is
    /// the most usual: "Trash" before "Deleted Items"), to choose between two candidates.
    /// `name` is the tree path with the namespace prefix gone; only top-level names count,
    /// and never INBOX, which only the server's own `INBOX` is.
    public static func wellKnownRole(ofName name: String) -> (role: FolderType, rank: Int)? {
        guard !name.contains("/") else { return nil }
        let lowered = name.lowercased()
        for (role, names) in wellKnownNames {
            if let rank = names.firstIndex(of: lowered) { return (role, rank) }
        }
        return nil
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

    /// The name a top-level tree component stands for: `treePath`'s suffix taken off again
    /// (`Sent (folder)` is a folder named `Sent`), so no display suffix reaches the server.
    public static func serverComponent(ofTopLevel component: String) -> String {
        let suffix = " (folder)"
        guard component.hasSuffix(suffix) else { return component }
        let name = String(component.dropLast(suffix.count))
        return reservedTopLevel.contains(name.lowercased()) ? name : component
    }

    private static let specialUse: [(attribute: String, role: FolderType)] = [
        ("\\sent", .sent), ("\\drafts", .drafts), ("\\trash", .trash),
        ("\\junk", .spam), ("\\flagged", .starred), ("\\archive", .archive),
    ]

    /// Common names of each role, most usual first, lower-cased: the English ones, those
    /// Outlook, Exchange, Apple Mail and Thunderbird use, and their usual translations.
    private static let wellKnownNames: [(role: FolderType, names: [String])] = [
        (.trash, ["trash", "deleted items", "deleted messages", "deleted", "bin", "papierkorb",
                  "gelöschte elemente", "gelöschte objekte", "corbeille", "éléments supprimés", "papelera",
                  "elementos eliminados", "cestino", "posta eliminata", "prullenbak", "verwijderde items",
                  "lixeira", "lixo", "itens excluídos", "kosz", "papperskorgen", "borttagna objekt",
                  "papirkurv", "slettede elementer", "roskakori", "корзина", "удаленные"]),
        (.sent, ["sent", "sent items", "sent messages", "sent mail", "gesendet", "gesendete elemente",
                 "gesendete objekte", "envoyés", "éléments envoyés", "messages envoyés", "enviados",
                 "elementos enviados", "posta inviata", "inviati", "elementi inviati", "verzonden",
                 "verzonden items", "itens enviados", "wysłane", "skickat", "skickade objekt", "sendt",
                 "sendte elementer", "lähetetyt", "отправленные"]),
        (.drafts, ["drafts", "draft", "entwürfe", "brouillons", "borradores", "bozze", "concepten",
                   "rascunhos", "kopie robocze", "utkast", "kladder", "luonnokset", "черновики"]),
        (.spam, ["junk", "spam", "junk e-mail", "junk email", "junk mail", "bulk mail", "spamverdacht",
                 "courrier indésirable", "indésirables", "correo no deseado", "posta indesiderata",
                 "ongewenste e-mail", "lixo eletrônico", "skräppost", "uønsket e-post", "roskaposti", "спам"]),
        (.archive, ["archive", "archives", "archiv", "archivio", "archivo", "archief", "arquivo", "archiwum",
                    "arkiv", "архив"]),
    ]

    /// Names at the top of an account directory that the tree itself uses.
    static let reservedTopLevel: Set<String> = [
        "inbox", "sent", "drafts", "trash", "spam", "starred",
        "archive", "outbox", "threads", "attachments", "search",
    ]
}
