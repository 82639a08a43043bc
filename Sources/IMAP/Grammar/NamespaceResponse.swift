/// The server's namespaces (RFC 2342): where the user's own folders, other users' and
/// shared ones live, each as a name prefix and its hierarchy delimiter.
///
///     C: A1 NAMESPACE
///     S: * NAMESPACE (("INBOX." ".")) (("user." ".")) (("" "."))
///     S: A1 OK NAMESPACE completed
///
/// Prefixes stay raw (modified UTF-7), like LIST names, since they are compared with and
/// prepended to raw names.
public struct NamespaceResponse: Sendable, Equatable {
    public var personal: [NamespaceDescriptor]
    public var otherUsers: [NamespaceDescriptor]
    public var shared: [NamespaceDescriptor]

    public init(personal: [NamespaceDescriptor], otherUsers: [NamespaceDescriptor] = [],
                shared: [NamespaceDescriptor] = []) {
        self.personal = personal
        self.otherUsers = otherUsers
        self.shared = shared
    }
}

/// One namespace: `("INBOX." ".")`. Extension data (RFC 2342 `Namespace_Response_Extension`)
/// is not kept.
public struct NamespaceDescriptor: Sendable, Equatable {
    /// The raw prefix every name of the namespace starts with (`INBOX.`, `#shared/`, or "").
    public var prefix: String
    /// The hierarchy delimiter; nil when the server sent NIL (a flat namespace).
    public var delimiter: Character?

    public init(prefix: String, delimiter: Character?) {
        self.prefix = prefix
        self.delimiter = delimiter
    }
}
