/// Notices a walk over many sibling directories (`find`, `grep -r`, `ls -R` over threads/
/// or attachments/): several of them listed from the store within a short time. The tree
/// then loads whole blocks of them (by id) with one query instead of one query each; a
/// single `ls` of one directory still reads only that directory.
struct DirectoryWalk: Sendable {
    /// Listings built from the store, within `window` of each other, that make a walk.
    static let missesForWalk = 4
    static let window: Duration = .seconds(1)

    /// Ids loaded together once a walk is noticed.
    let blockSize: Int64
    private var misses = 0
    private var lastMiss: ContinuousClock.Instant?

    init(blockSize: Int64) {
        self.blockSize = blockSize
    }

    /// Records that the listing of directory `id` was not cached at `now`; when this is
    /// part of a walk, returns the block of ids to load with it.
    mutating func blockToLoad(missing id: Int64, at now: ContinuousClock.Instant) -> ClosedRange<Int64>? {
        if let lastMiss, now - lastMiss <= Self.window {
            misses += 1
        } else {
            misses = 1
        }
        lastMiss = now
        return misses >= Self.missesForWalk ? block(containing: id) : nil
    }

    /// The block of ids loaded together with `id`: aligned, so a walk loads each once.
    func block(containing id: Int64) -> ClosedRange<Int64> {
        let start = id - id % blockSize
        return start...(start + blockSize - 1)
    }
}
