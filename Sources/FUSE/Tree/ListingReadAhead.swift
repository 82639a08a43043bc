import Foundation

/// Loads the listings a walk will ask for next on a thread of its own, while the walk's
/// requests are answered (`ReadAheadPlan` says which and when). A walk and the requests
/// it sends keep one core busy between them; building the listings from the store
/// between those requests made the first `find` over an account wait for each of them,
/// where a second core can build them ahead (docs/DECISIONS.md, "A walk's listings are
/// read ahead").
///
/// One walk is read ahead at a time: a walk noticed under another parent replaces it.
final class ListingReadAhead: @unchecked Sendable {
    /// Builds and caches the listings of `directories` not cached yet. A store failure
    /// ends the read-ahead (the walk's own misses then report it); a change of the store
    /// meanwhile only leaves them uncached.
    typealias Loader = @Sendable (_ directories: ArraySlice<Inode>) throws(FSError) -> Void

    private struct Running {
        var plan: ReadAheadPlan
        let serial: UInt64
    }

    private let condition = NSCondition()
    // GUARDED_BY(condition): both.
    private var running: Running?
    private var serials: UInt64 = 0

    private let queue = DispatchQueue(label: "mailfs.listing-read-ahead", qos: .utility)
    /// A request waits at most this long for a listing the read-ahead is loading, then
    /// builds it itself.
    private static let longestWait = 1.0

    /// Starts reading ahead along `plan` with `loader`, in place of any read-ahead running.
    func begin(_ plan: ReadAheadPlan, loader: @escaping Loader) {
        let serial = locked { () -> UInt64 in
            serials &+= 1
            running = Running(plan: plan, serial: serials)
            // A replaced read-ahead may be waiting: woken, it ends, and the queue runs this one.
            condition.broadcast()
            return serials
        }
        queue.async { self.run(serial, loader) }
    }

    /// The walk lists `directory` (cached or not): the read-ahead may go on from there.
    func visit(_ directory: Inode) {
        locked {
            guard running?.plan.visit(directory, at: .now) == true else { return }
            condition.broadcast()
        }
    }

    /// The walk missed `directory`: what its request loads itself (`ReadAheadPlan.claim`)
    /// once the read-ahead is no longer loading it; nil when no read-ahead covers it.
    func claim(_ directory: Inode) -> ArraySlice<Inode>? {
        let deadline = Date(timeIntervalSinceNow: Self.longestWait)
        return locked { () -> ArraySlice<Inode>? in
            while running?.plan.contains(directory) == true {
                switch running?.plan.claim(directory) {
                case .load(let directories)?: return directories
                case .wait?: if !condition.wait(until: deadline) { return [directory] }
                case nil: return nil
                }
            }
            return nil
        }
    }

    private func run(_ serial: UInt64, _ loader: Loader) {
        while let directories = nextLoad(serial) {
            do {
                try loader(directories)
            } catch {
                end(serial)
                return
            }
        }
    }

    /// The next directories to load, after waiting for the walk when far enough ahead of
    /// it; nil when this read-ahead is over (finished, replaced or idle).
    private func nextLoad(_ serial: UInt64) -> ArraySlice<Inode>? {
        locked { () -> ArraySlice<Inode>? in
            while running?.serial == serial {
                let step = running?.plan.step(at: .now)
                // The batch before this one is loaded: its waiting requests go on.
                condition.broadcast()
                switch step {
                case .load(let directories)?: return directories
                case .wait?: _ = condition.wait(until: Date(timeIntervalSinceNow: 0.1))
                case .finish?, nil: running = nil
                }
            }
            return nil
        }
    }

    private func end(_ serial: UInt64) {
        locked {
            guard running?.serial == serial else { return }
            running = nil
            condition.broadcast()
        }
    }

    private func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }
}
