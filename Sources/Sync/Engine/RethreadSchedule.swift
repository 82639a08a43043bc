/// When the account's threads are recomputed after a sync cycle's folders. A rethread
/// regroups only what changed, unless the new messages are a large part of the account,
/// as in an initial sync: then it is a pass over the whole account (about half a second
/// at 50,000 messages), and one after every folder that changed made an initial sync of N
/// folders pay up to N passes over a growing account. Now a folder's changes
/// are rethreaded at once only when the time since the last pass ended (or since the cycle
/// began, once a pass has been timed) is at least `spacing` times that pass's length
/// (`SyncTiming.rethreadSpacing`, 10): a long initial sync still fills threads/ as it
/// goes, for at most a `spacing`th of its time, and everything else waits for one pass
/// at the cycle's end (docs/DECISIONS.md, "Rethreading once a cycle"). Free of I/O: the
/// caller says when passes ran.
struct RethreadSchedule {
    typealias Instant = ContinuousClock.Instant

    let spacing: Int

    /// Messages came, moved or went since the last pass.
    private(set) var isPending = false
    /// When the last pass ended (moved to the cycle's start by `cycleBegan`), and how long it took.
    private var last: (end: Instant, length: Duration)?

    init(spacing: Int) {
        self.spacing = spacing
    }

    mutating func cycleBegan(at now: Instant) {
        if let length = last?.length { last = (now, length) }
    }

    mutating func folderChanged() {
        isPending = true
    }

    /// Whether to rethread now, after a folder; until a pass has been timed, at once.
    func isDue(at now: Instant) -> Bool {
        guard isPending else { return false }
        guard let last else { return true }
        return now - last.end >= last.length * spacing
    }

    mutating func passRan(from start: Instant, to end: Instant) {
        isPending = false
        last = (end, end - start)
    }
}
