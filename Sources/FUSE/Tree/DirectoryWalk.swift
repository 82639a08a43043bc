/// Notices a walk over sibling directories (`find`, `grep -r`, `ls -R` over an account,
/// its threads/ or attachments/): several of them listed from the store within a short
/// time. The tree then reads the walk's next directories ahead of it (`ListingReadAhead`);
/// a single `ls` of one directory still reads only that directory.
struct DirectoryWalk: Sendable {
    /// Listings built from the store, within `window` of each other, that make a walk.
    let missesForWalk: Int
    static let window: Duration = .seconds(1)

    init(missesForWalk: Int) {
        self.missesForWalk = missesForWalk
    }

    /// The walk in progress's last misses, oldest first.
    private var missed: [Inode] = []
    private var lastMiss: ContinuousClock.Instant?
    private var offers = 0
    /// Misses remembered: enough to tell the walk's order from a stray one before it.
    static let remembered = 4
    /// Misses of one walk offered a read-ahead, at most: each offer that finds no order
    /// costs a look at the whole parent's listing.
    static let offersPerWalk = 4

    /// Records that the listing of `directory` was not cached at `now`. Once this makes a
    /// walk, returns its last misses, oldest first, to offer it a read-ahead; a few times
    /// per walk at most.
    mutating func noticeWalk(missing directory: Inode, at now: ContinuousClock.Instant) -> [Inode]? {
        if lastMiss.map({ now - $0 > Self.window }) ?? true {
            missed = []
            offers = 0
        }
        lastMiss = now
        missed.append(directory)
        if missed.count > Self.remembered { missed.removeFirst() }
        guard missed.count >= missesForWalk, offers < Self.offersPerWalk else { return nil }
        offers += 1
        return missed
    }
}
