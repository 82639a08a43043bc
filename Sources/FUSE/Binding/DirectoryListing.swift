import Glibc

/// The snapshot of one open directory that READDIR/READDIRPLUS page through. Offsets are
/// indexes into the entries ("." and ".." first, then the children; the offset handed with
/// an entry is the index of the next one), so a listing that changes in the store does not
/// shift names under a reader.
struct DirectoryListing: Sendable {
    struct Entry: Sendable {
        var name: String
        var inode: Inode
        var kind: FileKind
        /// nil for "." and ".." (READDIRPLUS sends no lookup for them: the kernel ignores
        /// one) and for entries whose attributes are given at LOOKUP only.
        var attributes: FileAttributes?
    }

    let directory: Inode
    /// The servable children: the tree's own array when every name is servable (a
    /// 10,000-entry listing is not copied once more for each stream that reads it).
    private let children: [DirectoryEntry]

    init(directory: Inode, children: [DirectoryEntry]) {
        self.directory = directory
        let servable = { (child: DirectoryEntry) in Self.isServable(child.name) && child.attributes.inode != 0 }
        self.children = children.allSatisfy(servable) ? children : children.filter(servable)
    }

    var count: Int { children.count + 2 }

    /// ".." names the root: the protocol has no parent lookup, and the kernel resolves ".."
    /// from its own dentries, not from here.
    func entry(at index: Int) -> Entry {
        switch index {
        case 0: return Entry(name: ".", inode: directory, kind: .directory, attributes: nil)
        case 1: return Entry(name: "..", inode: rootInode, kind: .directory, attributes: nil)
        default:
            let child = children[index - 2]
            return Entry(name: child.name, inode: child.attributes.inode, kind: child.attributes.kind,
                         attributes: child.attributesAtLookup ? nil : child.attributes)
        }
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
