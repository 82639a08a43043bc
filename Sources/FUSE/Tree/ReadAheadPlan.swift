/// Which sibling directories a walk (`find`, `grep -r`) will list next, and which of them
/// to load ahead of it (`ListingReadAhead`). Pure: the order it follows, and when the
/// read-ahead loads, waits or ends, are tested without threads or a store.
///
/// A walk lists the directories of one parent (threads/, attachments/) in the order the
/// parent's listing gave them, or sorted by inode number (gnulib's fts sorts a large
/// directory's entries so). The plan follows whichever order explains the directories the
/// walk missed before it was noticed; none does for other readers, which get no plan.
struct ReadAheadPlan: Sendable {
    /// How far the read-ahead may run ahead of the walk, in directories: what it holds that
    /// the walk has not reached yet stays small at any size of account.
    static let window = 1_024
    /// Directories loaded together: with one query for threads and attachments/<message>/
    /// directories, one at a time for an account's large ones.
    let batch: Int
    /// A walk that lists none of these directories for this long is over.
    static let idle: Duration = .seconds(1)

    /// The parent's child directories, in the order the walk lists them.
    let directories: [Inode]
    private let positions: [Inode: Int]
    /// The furthest position the walk has listed.
    private(set) var walked: Int
    /// The first position neither loaded nor handed out to load.
    private(set) var next: Int
    private var lastVisit: ContinuousClock.Instant
    /// The positions the read-ahead is loading now.
    private var loading: Range<Int>?

    /// A plan for the walk over `children` (the parent's child directories in its listing
    /// order) that has just missed the last of `missed`; nil when neither order has the
    /// last two or more of them, the walk's own, in it in order. Earlier misses may belong
    /// to a reader before the walk, or to the walk's visits of the children's own children.
    init?(children: [Inode], missed: [Inode], batch: Int, at now: ContinuousClock.Instant) {
        guard let (order, positions) = Self.order(of: children, explaining: missed),
              let last = missed.last.flatMap({ positions[$0] }) else { return nil }
        directories = order
        self.positions = positions
        self.batch = batch
        walked = last
        // The request that noticed the walk claims the first batch, from its own directory.
        next = last
        lastVisit = now
    }

    /// The listing order or else the inode order, if it explains `missed`; with each
    /// directory's position in it.
    private static func order(of children: [Inode], explaining missed: [Inode]) -> ([Inode], [Inode: Int])? {
        explained(missed, by: children) ?? explained(missed, by: children.sorted())
    }

    /// `order`, if the walk's last miss and at least the one of a child before it are
    /// children in that order. Misses of directories that are not children (a walk going
    /// down into a child's own) are passed over.
    private static func explained(_ missed: [Inode], by order: [Inode]) -> ([Inode], [Inode: Int])? {
        let positions = positions(in: order)
        guard let last = missed.last, var after = positions[last] else { return nil }
        var inOrder = 1
        for directory in missed.dropLast().reversed() {
            guard let position = positions[directory] else { continue }
            guard position < after else { break }
            inOrder += 1
            after = position
        }
        return inOrder >= 2 ? (order, positions) : nil
    }

    private static func positions(in order: [Inode]) -> [Inode: Int] {
        Dictionary(order.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
    }

    func contains(_ directory: Inode) -> Bool {
        positions[directory] != nil
    }

    /// The walk lists `directory`; false when it is not one of the plan's.
    mutating func visit(_ directory: Inode, at now: ContinuousClock.Instant) -> Bool {
        guard let position = positions[directory] else { return false }
        walked = max(walked, position)
        lastVisit = now
        return true
    }

    /// What the request of a walk that found a directory not loaded does.
    enum Claim: Equatable {
        /// Loads these itself: the directory alone (its listing was dropped since it was
        /// loaded), or, when the walk has overtaken the read-ahead, the next batch from it
        /// (the read-ahead goes on after them).
        case load(ArraySlice<Inode>)
        /// Waits for the read-ahead, which is loading it.
        case wait
    }

    mutating func claim(_ directory: Inode) -> Claim {
        guard let position = positions[directory] else { return .load([directory]) }
        if loading?.contains(position) == true { return .wait }
        guard position >= next else { return .load([directory]) }
        let end = min(directories.count, position + batch)
        next = end
        return .load(directories[position..<end])
    }

    enum Step: Equatable {
        case load(ArraySlice<Inode>)
        /// Far enough ahead of the walk: wait for it to list more.
        case wait
        /// Everything is loaded, or the walk is over.
        case finish
    }

    /// What the read-ahead does next, its last `load` being done.
    mutating func step(at now: ContinuousClock.Instant) -> Step {
        loading = nil
        if next >= directories.count || now - lastVisit > Self.idle { return .finish }
        if next - walked > Self.window { return .wait }
        let end = min(directories.count, next + batch)
        defer { next = end }
        loading = next..<end
        return .load(directories[next..<end])
    }
}
