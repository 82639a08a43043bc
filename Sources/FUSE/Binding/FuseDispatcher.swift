import CFuse3
import Foundation
import Synchronization

/// The Swift side of every libfuse callback: turns a request into a call on the
/// `FilesystemOperations` and the answer (or the thrown `FSError`) into exactly one reply.
///
/// Called from the threads of `RequestLoop` concurrently; everything here is immutable or
/// locked. The C callbacks capture nothing and find this object through
/// `fuse_req_userdata(req)`, an unretained pointer that `FuseSession` keeps alive until the
/// session is destroyed.
final class FuseDispatcher: Sendable {
    let filesystem: any FilesystemOperations
    let options: MountOptions
    let owner: FileOwner
    let snapshots = ListingSnapshots()
    /// Requests served so far (FORGETs aside): how the mount tells it has gone quiet.
    let requestCount = Atomic<UInt64>(0)

    init(filesystem: any FilesystemOperations, options: MountOptions, owner: FileOwner) {
        self.filesystem = filesystem
        self.options = options
        self.owner = owner
    }

    /// Runs `body` with the dispatcher that owns `req`. A request without one cannot happen
    /// (we always pass userdata) and is answered EIO rather than trusted.
    static func serve(_ req: fuse_req_t?, _ body: (FuseDispatcher, fuse_req_t) -> Void) {
        guard let req else { return }
        guard let userdata = fuse_req_userdata(req) else {
            fuse_reply_err(req, EIO)
            return
        }
        let dispatcher = Unmanaged<FuseDispatcher>.fromOpaque(userdata).takeUnretainedValue()
        dispatcher.requestCount.add(1, ordering: .relaxed)
        body(dispatcher, req)
    }

    /// FORGET and BATCH_FORGET: no reply but "none", whatever happens.
    static func forget(_ req: fuse_req_t?, _ forgotten: [(inode: fuse_ino_t, lookups: UInt64)]) {
        guard let req else { return }
        if let userdata = fuse_req_userdata(req) {
            let dispatcher = Unmanaged<FuseDispatcher>.fromOpaque(userdata).takeUnretainedValue()
            for (inode, lookups) in forgotten { dispatcher.filesystem.forget(Inode(inode), lookups: lookups) }
        }
        fuse_reply_none(req)
    }

    /// Runs `body`, which replies on success; a thrown error becomes the errno reply.
    func answer(_ req: fuse_req_t, _ body: () throws(FSError) -> Void) {
        do {
            try body()
        } catch {
            fuse_reply_err(req, error.replyCode)
        }
    }

    /// A name from the kernel. Every name we serve is valid UTF-8, so bytes that are not
    /// cannot name anything of ours; `String(cString:)` would repair them and could make two
    /// different names equal.
    func name(_ cName: UnsafePointer<CChar>?, invalid: Int32 = ENOENT) throws(FSError) -> String {
        guard let cName, let name = String(validatingCString: cName) else { throw FSError(invalid) }
        return name
    }

    /// A name we are asked to create: it must also be one we could list back.
    func newName(_ cName: UnsafePointer<CChar>?) throws(FSError) -> String {
        let name = try name(cName, invalid: EINVAL)
        guard DirectoryListing.isServable(name) else { throw FSError(EINVAL) }
        return name
    }

    /// The answer to LOOKUP/CREATE (and a READDIRPLUS entry) for `attributes`.
    func entry(_ attributes: FileAttributes) -> fuse_entry_param {
        var entry = fuse_entry_param()
        entry.ino = fuse_ino_t(attributes.inode)
        entry.attr = attributes.statBuffer(owner: owner)
        entry.attr_timeout = attributeTimeout(attributes)
        entry.entry_timeout = options.entryTimeout
        return entry
    }

    func attributeTimeout(_ attributes: FileAttributes) -> Double {
        attributes.isVolatile ? 0 : options.attributeTimeout
    }

    /// Inode 0 means "no such entry" to the kernel; an attribute set claiming it is a bug in
    /// the tree and must not be cached as a negative entry.
    func checked(_ attributes: FileAttributes) throws(FSError) -> FileAttributes {
        guard attributes.inode != 0 else { throw FSError(EIO) }
        return attributes
    }
}
