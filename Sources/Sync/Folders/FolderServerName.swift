import MailCore
import Store

/// The server name for a folder the user names by its tree path (mkdir, mv of a folder):
/// under the nearest parent the server has, that parent's name, then each remaining
/// component in modified UTF-7; with no such parent, the personal prefix first
/// (`mkdir Projects` on Courier: `INBOX.Projects`) and the tree's display suffix gone.
///
///     "Projects/2026", parent "Projects" is INBOX.Projects  ->  INBOX.Projects.2026
///     "Notes", prefix "INBOX.", delimiter "."                ->  INBOX.Notes
///     "INBOX (folder)/X" with no such folder                 ->  INBOX.INBOX.X
enum FolderServerName {
    /// Why a tree path cannot become a server name; no server would make it right later.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case empty
        /// The server would read the delimiter as a level of hierarchy: `mkdir v9.9` on a
        /// server whose delimiter is `.` would make `v9` and a child `9`.
        case holdsDelimiter(component: String, delimiter: String)

        var description: String {
            switch self {
            case .empty: "empty folder name"
            case .holdsDelimiter(let component, let delimiter):
                "\"\(component)\" holds \"\(delimiter)\", which this server uses to separate folder levels"
            }
        }
    }

    /// `folders` are the account's (tree path, server name) pairs.
    static func name(forPath path: String, folders: [(path: String, imapPath: String)],
                     namespace: AccountNamespace) throws(Refusal) -> String {
        var parents = path.split(separator: "/").map(String.init)
        guard let last = parents.popLast() else { throw .empty }
        var suffix = [last]
        let delimiter = String(namespace.delimiter ?? "/")
        while !parents.isEmpty {
            let parentPath = parents.joined(separator: "/")
            if let parent = folders.first(where: { $0.path == parentPath }), !parent.imapPath.hasPrefix("mailfs-") {
                try requireNoDelimiter(in: suffix, delimiter: delimiter)
                return ([parent.imapPath] + suffix.map(ModifiedUTF7.encode)).joined(separator: delimiter)
            }
            suffix.insert(parents.removeLast(), at: 0)
        }
        try requireNoDelimiter(in: suffix, delimiter: delimiter)
        suffix[0] = FolderNaming.serverComponent(ofTopLevel: suffix[0])
        return namespace.serverName(components: suffix)
    }

    private static func requireNoDelimiter(in components: [String], delimiter: String) throws(Refusal) {
        if let component = components.first(where: { $0.contains(delimiter) }) {
            throw .holdsDelimiter(component: component, delimiter: delimiter)
        }
    }
}
