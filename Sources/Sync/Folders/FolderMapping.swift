import MailCore
import Store

/// A server folder as LIST reports it, before mapping.
public struct ServerFolder: Sendable, Equatable {
    /// The name on the wire, modified UTF-7.
    public var name: String
    public var delimiter: Character?
    /// Lower-cased attributes: `\noselect`, `\sent`, `\all`…
    public var attributes: Set<String>

    public init(name: String, delimiter: Character?, attributes: Set<String>) {
        self.name = name
        self.delimiter = delimiter
        self.attributes = attributes
    }
}

/// Where a server folder goes in the store, or that it is not synced (FR-SYNC-01).
public struct MappedFolder: Sendable, Equatable {
    public var imapPath: String
    public var path: String
    public var type: FolderType
    public var isSelectable: Bool
}

/// How roles are found beyond special-use attributes (docs/SYNC-RULES.md, "Folders").
public struct RoleRules: Sendable, Equatable {
    /// Well-known names fill the roles no attribute claims; false on Gmail, whose names are
    /// localized and whose attributes are always there.
    public var byName: Bool
    /// `trash_folder`: the folder to use as Trash, by its tree path before it became
    /// trash/ (or its decoded server name); it beats any attribute or name, and when it
    /// names no folder the account has no Trash.
    public var trashFolder: String?

    public init(byName: Bool = true, trashFolder: String? = nil) {
        self.byName = byName
        self.trashFolder = trashFolder
    }
}

/// FR-SYNC-01 folder discovery: folders outside the personal namespace are not synced, nor
/// `\All` and `\Important`; the personal prefix is not shown; `FolderNaming` decides each
/// folder's role and path; a second folder claiming a role or a path becomes an ordinary
/// folder with a numbered name.
public enum FolderMapping {
    public static func map(_ folders: [ServerFolder], namespace: AccountNamespace = AccountNamespace(),
                           rules: RoleRules = RoleRules()) -> [MappedFolder] {
        let candidates = folders.compactMap { Candidate($0, namespace: namespace) }
        let roles = FolderRoles.assign(candidates, rules: rules)
        var taken = Set<String>()
        var mapped: [MappedFolder] = []
        // Special folders first, so a custom folder can never take "sent" from \Sent.
        let ordered = candidates.sorted { roles[$0.folder.name] != nil && roles[$1.folder.name] == nil }
        for candidate in ordered {
            var type = roles[candidate.folder.name] ?? .custom
            // \Archive keeps its own name: archive/ is the virtual view of it.
            var path = type == .custom || type == .archive ? candidate.customPath : type.rawValue
            if taken.contains(path) {
                // A second \Sent (or a second INBOX spelling): keep it as an ordinary folder.
                type = .custom
                path = candidate.customPath
            }
            var unique = path
            var attempt = 1
            while taken.contains(unique) {
                attempt += 1
                unique = "\(path) (\(attempt))"
            }
            taken.insert(unique)
            mapped.append(MappedFolder(imapPath: candidate.folder.name, path: unique, type: type,
                                       isSelectable: candidate.isSelectable))
        }
        return mapped.sorted { $0.path < $1.path }
    }
}

/// A folder discovery may show: in the personal namespace, not `\All`, `\Important` or
/// `\NonExistent`.
struct Candidate {
    let folder: ServerFolder
    /// The decoded components below the personal prefix: `INBOX.Projects.2026` ->
    /// ["Projects", "2026"].
    let components: [String]
    /// The tree path as an ordinary folder: each component sanitized, names the account
    /// directory reserves suffixed (FolderNaming).
    let customPath: String

    init?(_ folder: ServerFolder, namespace: AccountNamespace) {
        guard !folder.attributes.contains("\\all"), !folder.attributes.contains("\\important"),
              !folder.attributes.contains("\\nonexistent"),
              let local = namespace.localName(ofServerName: folder.name) else { return nil }
        let decoded = ModifiedUTF7.decode(local)
        let components: [String]
        if let delimiter = folder.delimiter ?? namespace.delimiter {
            components = decoded.split(separator: delimiter, omittingEmptySubsequences: true).map(String.init)
        } else {
            components = [decoded]
        }
        guard !components.isEmpty else { return nil }
        self.folder = folder
        self.components = components
        let joined = components.map { $0.replacingOccurrences(of: "/", with: "_") }.joined(separator: "/")
        customPath = FolderNaming.treePath(forName: joined, type: .custom)
    }

    var isSelectable: Bool { !folder.attributes.contains("\\noselect") }

    /// The name as the user sees it before any role: components joined by "/".
    var shownName: String { components.joined(separator: "/") }
}
