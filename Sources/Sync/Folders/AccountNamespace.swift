import IMAP
import MailCore

/// Where an account's own folders live on its server (RFC 2342): the personal namespace's
/// prefix (`INBOX.` on Courier and Debian's Cyrus, "" on most others) and the hierarchy
/// delimiter, and the prefixes of the namespaces that are not the user's (other users',
/// shared). Folder discovery strips the prefix for the tree; the applier adds it on CREATE
/// and RENAME; both read it from the server through `NamespaceReader`, the only code
/// that asks.
///
///     INBOX.Projects.2026  <->  Projects/2026     (prefix "INBOX.", delimiter ".")
public struct AccountNamespace: Sendable, Equatable {
    /// Raw (modified UTF-7) prefix of the user's own folders; "" for none.
    public var prefix: String
    /// Nil for a flat namespace (the server sent NIL and no folder has one).
    public var delimiter: Character?
    /// Raw prefixes of other users' and shared namespaces: their folders are not synced.
    public var foreignPrefixes: [String]

    public init(prefix: String = "", delimiter: Character? = "/", foreignPrefixes: [String] = []) {
        self.prefix = prefix
        self.delimiter = delimiter
        self.foreignPrefixes = foreignPrefixes
    }

    /// The namespace from what the server said: the first personal namespace of NAMESPACE
    /// (RFC 2342 §5: the default one), its delimiter, else the plain `LIST "" ""` one, else
    /// the one most LIST entries carry.
    public static func resolve(namespace: NamespaceResponse?, rootDelimiter: Character?,
                               listed: [MailboxListEntry]) -> AccountNamespace {
        let personal = namespace?.personal.first
        let foreign = (namespace?.otherUsers ?? []) + (namespace?.shared ?? []) + (namespace?.personal.dropFirst() ?? [])
        let delimiter = personal?.delimiter ?? rootDelimiter ?? mostCommonDelimiter(listed)
        return AccountNamespace(prefix: personal?.prefix ?? "", delimiter: delimiter,
                                foreignPrefixes: foreign.map(\.prefix).filter { $0 != personal?.prefix })
    }

    /// The name below the personal prefix, still raw; nil for a folder of another user's or
    /// a shared namespace, or the namespace's root itself. INBOX is always the user's.
    /// Prefixes are compared exactly, except an `INBOX` in them, which RFC 3501 makes
    /// case-insensitive.
    public func localName(ofServerName name: String) -> String? {
        if name.uppercased() == "INBOX" { return name }
        let personal = Self.matches(prefix, name) ? prefix.count : nil
        let longestForeign = foreignPrefixes.filter { Self.matches($0, name) }.map(\.count).max()
        switch (personal, longestForeign) {
        case (let own?, let other?) where other > own: return nil
        case (nil, _?): return nil
        case (let own?, _):
            let local = String(name.dropFirst(own))
            return local.isEmpty ? nil : local
        case (nil, nil): return name
        }
    }

    /// The server name of a folder the user names by tree components (decoded), e.g.
    /// ["Projects", "2026"] -> `INBOX.Projects.2026`.
    public func serverName(components: [String]) -> String {
        prefix + components.map(ModifiedUTF7.encode).joined(separator: String(delimiter ?? "/"))
    }

    private static func matches(_ prefix: String, _ name: String) -> Bool {
        guard name.count >= prefix.count else { return false }
        let head = name.prefix(prefix.count)
        if head == prefix { return true }
        // "Inbox." names what "INBOX." does.
        guard prefix.uppercased().hasPrefix("INBOX") else { return false }
        return head.prefix(5).uppercased() == "INBOX" && head.dropFirst(5) == prefix.dropFirst(5)
    }

    private static func mostCommonDelimiter(_ listed: [MailboxListEntry]) -> Character? {
        var counts: [Character: Int] = [:]
        for entry in listed { if let delimiter = entry.delimiter { counts[delimiter, default: 0] += 1 } }
        return counts.max { ($0.value, $1.key) < ($1.value, $0.key) }?.key
    }
}

/// Reads an account's namespace over a connection: NAMESPACE when offered, then a plain
/// `LIST "" ""` only when NAMESPACE gave no delimiter, then the LIST entries already read.
public enum NamespaceReader {
    public static func read(over connection: IMAPConnection,
                            listed: [MailboxListEntry]) async throws(IMAPError) -> AccountNamespace {
        let namespace = try await connection.namespace()
        var rootDelimiter: Character?
        if namespace?.personal.first?.delimiter == nil { rootDelimiter = try await connection.hierarchyDelimiter() }
        return AccountNamespace.resolve(namespace: namespace, rootDelimiter: rootDelimiter, listed: listed)
    }
}
