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

/// FR-SYNC-01 folder discovery: `FolderNaming` decides each folder's role and path;
/// `\All` and `\Important` are not synced; a second folder claiming a role or a path
/// becomes an ordinary folder with a numbered name.
public enum FolderMapping {
    public static func map(_ folders: [ServerFolder]) -> [MappedFolder] {
        var taken = Set<String>()
        var mapped: [MappedFolder] = []
        // Special folders first, so a custom folder can never take "sent" from \Sent.
        let ordered = folders.sorted { role(of: $0) != nil && role(of: $1) == nil }
        for folder in ordered {
            guard !folder.attributes.contains("\\all"), !folder.attributes.contains("\\important"),
                  !folder.attributes.contains("\\nonexistent") else { continue }
            let selectable = !folder.attributes.contains("\\noselect")
            var type = role(of: folder) ?? .custom
            // \Archive keeps its own name: archive/ is the virtual view of it.
            var path = type == .custom || type == .archive ? customPath(folder) : type.rawValue
            if taken.contains(path) {
                // A second \Sent (or a second INBOX spelling): keep it as an ordinary folder.
                type = .custom
                path = customPath(folder)
            }
            var unique = path
            var attempt = 1
            while taken.contains(unique) {
                attempt += 1
                unique = "\(path) (\(attempt))"
            }
            taken.insert(unique)
            mapped.append(MappedFolder(imapPath: folder.name, path: unique, type: type, isSelectable: selectable))
        }
        return mapped.sorted { $0.path < $1.path }
    }

    static func role(of folder: ServerFolder) -> FolderType? {
        FolderNaming.role(ofServerFolder: folder.name, attributes: folder.attributes)
    }

    /// The decoded name with the hierarchy delimiter as "/", each component sanitized,
    /// and names the account directory reserves suffixed (FolderNaming).
    static func customPath(_ folder: ServerFolder) -> String {
        let decoded = ModifiedUTF7.decode(folder.name)
        let components: [String]
        if let delimiter = folder.delimiter {
            components = decoded.split(separator: delimiter, omittingEmptySubsequences: true).map(String.init)
        } else {
            components = [decoded]
        }
        let joined = components.map { $0.replacingOccurrences(of: "/", with: "_") }.joined(separator: "/")
        return FolderNaming.treePath(forName: joined, type: .custom)
    }
}
