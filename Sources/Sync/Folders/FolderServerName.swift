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
    /// Nil for an empty path. `folders` are the account's (tree path, server name) pairs.
    static func name(forPath path: String, folders: [(path: String, imapPath: String)],
                     namespace: AccountNamespace) -> String? {
        var parents = path.split(separator: "/").map(String.init)
        guard let last = parents.popLast() else { return nil }
        var suffix = [last]
        let delimiter = String(namespace.delimiter ?? "/")
        while !parents.isEmpty {
            let parentPath = parents.joined(separator: "/")
            if let parent = folders.first(where: { $0.path == parentPath }), !parent.imapPath.hasPrefix("mailfs-") {
                return ([parent.imapPath] + suffix.map(ModifiedUTF7.encode)).joined(separator: delimiter)
            }
            suffix.insert(parents.removeLast(), at: 0)
        }
        suffix[0] = FolderNaming.serverComponent(ofTopLevel: suffix[0])
        return namespace.serverName(components: suffix)
    }
}
