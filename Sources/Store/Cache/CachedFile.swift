/// Downloaded content on disk, ready to be opened and served.
public struct CachedFile: Sendable, Equatable {
    public var path: String
    public var size: Int64

    public init(path: String, size: Int64) {
        self.path = path
        self.size = size
    }
}

/// Where a message of the store lives on its server: the places to fetch it from.
public struct ServerLocation: Sendable, Equatable {
    public var folderId: Int64
    public var imapPath: String
    public var uidValidity: Int64?
    public var uid: Int64
}
