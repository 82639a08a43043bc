import Foundation

/// A FUSE inode number. 1 is the root (FUSE_ROOT_ID).
public typealias Inode = UInt64

/// An operation failed with this errno (ENOENT, EIO, EROFS...). The binding replies
/// `fuse_reply_err(req, errno)`; it is the single mapping point from our errors to errno.
public struct FSError: Error, Equatable, Sendable {
    public var errno: Int32
    public init(_ errno: Int32) { self.errno = errno }
}

public enum FileKind: Sendable { case directory, regular }

/// What `getattr`/`lookup` answer. Times are the file's mtime (ctime/atime use it too).
public struct FileAttributes: Sendable, Equatable {
    public var inode: Inode
    public var kind: FileKind
    /// Permission bits only (0o700, 0o600, 0o200...); the binding adds S_IFDIR/S_IFREG.
    public var permissions: UInt32
    public var linkCount: UInt32
    public var size: UInt64
    public var modified: Date
    /// Attributes that change with no notice to the kernel (`.status`, `.log`, a file
    /// being written): never cached, so `stat` and `tail` see the current size.
    public var isVolatile: Bool

    public init(inode: Inode, kind: FileKind, permissions: UInt32, linkCount: UInt32,
                size: UInt64, modified: Date, isVolatile: Bool = false) {
        self.inode = inode
        self.kind = kind
        self.permissions = permissions
        self.linkCount = linkCount
        self.size = size
        self.modified = modified
        self.isVolatile = isVolatile
    }
}

/// One entry of a directory listing, with its attributes so READDIRPLUS can answer
/// `ls -l` without a LOOKUP per file.
public struct DirectoryEntry: Sendable, Equatable {
    public var name: String
    public var attributes: FileAttributes
    /// The entry's attributes cost work the listing should not do (a rendered file's size):
    /// `attributes` holds its inode and kind only, READDIRPLUS sends it without attributes
    /// (the kernel makes no inode for it), and LOOKUP answers them.
    public var attributesAtLookup: Bool

    public init(name: String, attributes: FileAttributes, attributesAtLookup: Bool = false) {
        self.name = name
        self.attributes = attributes
        self.attributesAtLookup = attributesAtLookup
    }
}

/// How an opened file should be served.
public struct OpenedFile: Sendable {
    /// Our handle id, passed back to read/write/release.
    public var handle: UInt64
    /// Keep the kernel page cache across opens (content never changes under this inode).
    public var keepCache: Bool
    /// Bypass the page cache (for generated files such as .status whose size is not known up front).
    public var directIO: Bool
    /// close() must reach `flush` (outbox files and `.control` act on it). False for files
    /// whose flush does nothing: the kernel then skips the FLUSH round trip on every close().
    public var flushes: Bool

    public init(handle: UInt64, keepCache: Bool, directIO: Bool, flushes: Bool = true) {
        self.handle = handle
        self.keepCache = keepCache
        self.directIO = directIO
        self.flushes = flushes
    }
}

/// The filesystem served by `FuseSession`. Called from several threads of its
/// `RequestLoop` concurrently: implementations must be thread-safe. Metadata calls must answer
/// from local state and never wait on the network (docs/REQUIREMENTS.md §C2).
public protocol FilesystemOperations: AnyObject, Sendable {
    func lookup(parent: Inode, name: String) throws(FSError) -> FileAttributes
    func getattr(_ inode: Inode) throws(FSError) -> FileAttributes
    /// The whole listing of a directory, without "." and "..". The binding snapshots it
    /// when a listing starts (offset 0) and serves that stream's offsets from the snapshot.
    func readdir(_ inode: Inode) throws(FSError) -> [DirectoryEntry]
    /// The kernel was just sent a page of `inode`'s listing (READDIR or READDIRPLUS), from
    /// the snapshot `readdir` gave: a reader may page through it long after it began.
    func sentListingPage(of inode: Inode)
    func open(_ inode: Inode, flags: Int32) throws(FSError) -> OpenedFile
    func read(_ inode: Inode, handle: UInt64, offset: UInt64, size: Int) throws(FSError) -> [UInt8]
    func release(_ inode: Inode, handle: UInt64)
    func getxattr(_ inode: Inode, name: String) throws(FSError) -> [UInt8]
    func listxattr(_ inode: Inode) throws(FSError) -> [String]
    func setxattr(_ inode: Inode, name: String, value: [UInt8]) throws(FSError)

    // Write side (outbox/, .control, moves): later issues fill these in.
    func create(parent: Inode, name: String, flags: Int32) throws(FSError) -> (FileAttributes, OpenedFile)
    func write(_ inode: Inode, handle: UInt64, offset: UInt64, data: UnsafeRawBufferPointer) throws(FSError) -> Int
    /// Called on close(); an error here makes close() fail (used to refuse outbox files).
    func flush(_ inode: Inode, handle: UInt64) throws(FSError)
    func unlink(parent: Inode, name: String) throws(FSError)
    func rename(parent: Inode, name: String, newParent: Inode, newName: String) throws(FSError)
    func mkdir(parent: Inode, name: String) throws(FSError) -> FileAttributes
    func rmdir(parent: Inode, name: String) throws(FSError)
    /// truncate/utimens (`touch`); nil fields are unchanged.
    func setattr(_ inode: Inode, size: UInt64?, modified: Date?) throws(FSError) -> FileAttributes
    /// The kernel dropped `lookups` of its references to `inode` (FORGET). Each successful
    /// `lookup` is one reference the kernel holds once the answer reaches it; the binding
    /// gives back, through this, the ones it never delivered.
    func forget(_ inode: Inode, lookups: UInt64)
}

/// Read-only defaults: anything that writes is EROFS until a later issue implements it.
extension FilesystemOperations {
    public func setxattr(_ inode: Inode, name: String, value: [UInt8]) throws(FSError) {
        throw FSError(EROFS)
    }
    public func create(parent: Inode, name: String, flags: Int32) throws(FSError) -> (FileAttributes, OpenedFile) {
        throw FSError(EROFS)
    }
    public func write(_ inode: Inode, handle: UInt64, offset: UInt64, data: UnsafeRawBufferPointer) throws(FSError) -> Int {
        throw FSError(EROFS)
    }
    public func flush(_ inode: Inode, handle: UInt64) throws(FSError) {}
    public func unlink(parent: Inode, name: String) throws(FSError) { throw FSError(EROFS) }
    public func rename(parent: Inode, name: String, newParent: Inode, newName: String) throws(FSError) {
        throw FSError(EROFS)
    }
    public func setattr(_ inode: Inode, size: UInt64?, modified: Date?) throws(FSError) -> FileAttributes {
        throw FSError(EROFS)
    }
    public func mkdir(parent: Inode, name: String) throws(FSError) -> FileAttributes { throw FSError(EPERM) }
    /// Inodes computed from stable ids need no reference counts.
    public func forget(_ inode: Inode, lookups: UInt64) {}
    public func sentListingPage(of inode: Inode) {}
    public func rmdir(parent: Inode, name: String) throws(FSError) { throw FSError(EPERM) }
}
