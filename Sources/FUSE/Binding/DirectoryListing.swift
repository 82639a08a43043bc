import Glibc

/// The snapshot of one open directory that READDIR/READDIRPLUS page through. Offsets are
/// indexes into `entries` (the offset handed with an entry is the index of the next one),
/// so a listing that changes in the store does not shift names under a reader.
struct DirectoryListing: Sendable {
    struct Entry: Sendable {
        var name: String
        var inode: Inode
        var kind: FileKind
        /// nil for "." and "..": READDIRPLUS sends no lookup for them (the kernel ignores one).
        var attributes: FileAttributes?
    }

    let entries: [Entry]

    /// "." and ".." first, then the servable children. ".." names the root: the protocol has
    /// no parent lookup, and the kernel resolves ".." from its own dentries, not from here.
    init(directory: Inode, children: [DirectoryEntry]) {
        var entries = [
            Entry(name: ".", inode: directory, kind: .directory, attributes: nil),
            Entry(name: "..", inode: rootInode, kind: .directory, attributes: nil),
        ]
        entries.reserveCapacity(children.count + 2)
        for child in children where Self.isServable(child.name) && child.attributes.inode != 0 {
            entries.append(Entry(name: child.name, inode: child.attributes.inode,
                                 kind: child.attributes.kind, attributes: child.attributes))
        }
        self.entries = entries
    }

    /// The kernel fails a whole listing with EIO on a name containing "/", and a NUL would
    /// cut it short; "." and ".." are ours; NAME_MAX is 255 bytes. Such names are left out.
    static func isServable(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            guard let start = bytes.baseAddress, !bytes.isEmpty, bytes.count <= 255 else { return false }
            if bytes.count <= 2, bytes.allSatisfy({ $0 == UInt8(ascii: ".") }) { return false }
            // memchr: run on every name of every listing built, where a byte loop cost a
            // twentieth of a first listing.
            return memchr(start, Int32(UInt8(ascii: "/")), bytes.count) == nil && memchr(start, 0, bytes.count) == nil
        }
    }
}

/// The root directory's inode (libfuse's FUSE_ROOT_ID).
let rootInode: Inode = 1
