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
/// `ls -f` and `find` do not), and the mount whether readers look files up lately:
/// together they decide what its READDIRPLUS pages carry (`filesGetAttributes`).
final class ListingSnapshots: Sendable {
    /// Streams in progress at once; beyond that all are dropped (they reload on demand).
    static let limit = 64

    private struct Stream {
        var listing: DirectoryListing
        var readerLooksUpFiles = false
    }

    // GUARDED_BY(streams)
    private let streams = Mutex<[Inode: Stream]>([:])
    /// Whether readers look files up, from any reader (`filesGetAttributes`).
    private let fileLookups = Mutex(FileLookups())

    private struct FileLookups {
        var seen = false
        /// Tiny listings served since the last LOOKUP that found a file.
        var listingsSince = 0
    }

    /// Tiny listings served with no LOOKUP of a file between them that say readers stopped
    /// looking files up. A reader given its files' attributes looks up none, so a walk
    /// like `grep -r` looks up the files of one directory in this many.
    static let listingsWithoutLookups = 64

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
            return Page(listing: held.listing, filesGetAttributes: filesGetAttributes(held, firstPage: false))
        }
        let loaded = try load()
        let stream = Stream(listing: loaded)
        streams.withLock { streams in
            if streams.count >= Self.limit { streams.removeAll(keepingCapacity: true) }
            streams[directory] = stream
        }
        return Page(listing: loaded, filesGetAttributes: filesGetAttributes(stream, firstPage: offset == 0))
    }

    /// A LOOKUP in `directory`: its reader asks about the names it is given, so the stream's
    /// next pages carry every entry's attributes.
    func noteLookup(in directory: Inode) {
        streams.withLock { $0[directory]?.readerLooksUpFiles = true }
    }

    /// A LOOKUP found a file: readers ask about files, so tiny listings carry them for a
    /// while. (A directory's says nothing: every walk looks up where it starts.)
    func noteFileLookup() {
        fileLookups.withLock { $0 = FileLookups(seen: true, listingsSince: 0) }
    }

    /// Listings up to this many entries give every file's attributes on every page: an inode
    /// each costs the kernel little next to a LOOKUP for each name of a page.
    static let smallListing = 1_000

    /// Listings up to this many entries, one READDIRPLUS page or about: a thread, a
    /// message's attachments. A walk lists thousands of them.
    static let tinyListing = 32

    /// Whether a READDIRPLUS page gives the kernel an inode for each file, or only for
    /// subdirectories. Once its reader has looked up a name, always (`ls -l` then pays a
    /// LOOKUP for each file of one page). A tiny listing gives them only while readers look
    /// files up (`grep -r`, `du`): `find` and `ls -f` look up nothing, and making an inode
    /// for each file of threads/ took the kernel more time than anything else of a walk.
    /// A larger listing on its first page, or on every page while small (docs/DECISIONS.md,
    /// "Readdirplus for directories, for files when asked").
    private func filesGetAttributes(_ stream: Stream, firstPage: Bool) -> Bool {
        if stream.readerLooksUpFiles { return true }
        if stream.listing.count <= Self.tinyListing {
            return fileLookups.withLock { lookups in
                guard lookups.seen, firstPage else { return lookups.seen }
                lookups.listingsSince += 1
                if lookups.listingsSince > Self.listingsWithoutLookups { lookups.seen = false }
                return lookups.seen
            }
        }
        return firstPage || stream.listing.count <= Self.smallListing
    }

    /// The stream reached its end: nothing more will be asked of this snapshot.
    func finished(_ directory: Inode) {
        _ = streams.withLock { $0.removeValue(forKey: directory) }
    }
}
