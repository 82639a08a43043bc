import Synchronization

/// The listing a directory stream pages through, per directory inode.
///
/// mailfs keeps no per-open state for directories (OPENDIR answers ENOSYS, so the kernel
/// never sends OPENDIR or RELEASEDIR again and caches every listing it reads), hence no
/// handle to hang a snapshot on. A stream always starts at offset 0 (the kernel fills its
/// listing cache from the start), so the snapshot is taken there and serves the later
/// offsets of that stream: a listing that changes in the store does not shift names under
/// a reader, and a 10,000-entry folder is not rebuilt for each of its READDIR pages.
/// A change between two pages of one stream is followed by the tree's invalidation, which
/// makes the kernel drop what it cached and list again.
///
/// A stream also remembers whether its reader looks files up as it goes (`ls -l` does,
/// `ls -f` and `find` do not), which decides what its READDIRPLUS pages carry
/// (`filesGetAttributes`).
final class ListingSnapshots: Sendable {
    /// Streams in progress at once; beyond that all are dropped (they reload on demand).
    static let limit = 64

    private struct Stream {
        var listing: DirectoryListing
        var readerLooksUpFiles = false
    }

    // GUARDED_BY(streams)
    private let streams = Mutex<[Inode: Stream]>([:])

    /// What a READDIR page at `offset` is built from: the snapshot, and whether a
    /// READDIRPLUS page gives the kernel an inode for each file (`filesGetAttributes`).
    struct Page {
        var listing: DirectoryListing
        var filesGetAttributes: Bool
    }

    /// The page at `offset`: a new snapshot from `load` at 0 (or when none is held), else
    /// the one the stream started with. `load` runs outside the lock.
    func page(_ directory: Inode, offset: Int64,
              load: () throws(FSError) -> DirectoryListing) throws(FSError) -> Page {
        if offset > 0, let held = streams.withLock({ $0[directory] }) {
            return Page(listing: held.listing, filesGetAttributes: Self.filesGetAttributes(held))
        }
        let loaded = try load()
        let stream = Stream(listing: loaded)
        streams.withLock { streams in
            if streams.count >= Self.limit { streams.removeAll(keepingCapacity: true) }
            streams[directory] = stream
        }
        return Page(listing: loaded, filesGetAttributes: offset == 0 || Self.filesGetAttributes(stream))
    }

    /// A LOOKUP in `directory` while it is being listed: its reader asks about the names it
    /// is given, so the stream's next pages carry every entry's attributes.
    func noteLookup(in directory: Inode) {
        streams.withLock { $0[directory]?.readerLooksUpFiles = true }
    }

    /// Listings up to this many entries give every file's attributes on every page: an inode
    /// each costs the kernel little next to a LOOKUP for each name of a page.
    static let smallListing = 1_000

    /// Whether a READDIRPLUS page past the first gives the kernel an inode for each file, or
    /// only for subdirectories (the first page always does). A small listing always does; the
    /// later pages of a large one only once its reader has looked up a name: `ls -l` then
    /// pays a LOOKUP for each file of one page, `ls -f` and `find` no inode for each of
    /// thousands of files (docs/DECISIONS.md, "Readdirplus for directories, for files when asked").
    private static func filesGetAttributes(_ stream: Stream) -> Bool {
        stream.readerLooksUpFiles || stream.listing.count <= smallListing
    }

    /// The stream reached its end: nothing more will be asked of this snapshot.
    func finished(_ directory: Inode) {
        _ = streams.withLock { $0.removeValue(forKey: directory) }
    }
}
