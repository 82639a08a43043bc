/// What is wrong with a store's write-ahead log before SQLite opens it, where SQLite itself
/// would say nothing: it opens a store whose log is missing, emptied, cut short or damaged
/// as its file last held it, and applies a log of another store with the same page size to
/// this one (https://www.sqlite.org/walformat.html). Pure: `StoreWAL` reads the files.
enum WALVerdict {
    /// The log file as found beside the store.
    enum Log: Sendable {
        case missing
        case empty
        case unreadableHeader(WALHeader.Problem)
        case scanned(WALFrameScan)
    }

    /// The problem with `log`, or nil when opening the store loses nothing. `index` is the
    /// WAL index header left by the last process (nil if there is none, or it is torn).
    static func problem(mark: StoreOpenMark, storePageSize: Int, log: Log, index: WALIndexHeader?) -> WALProblem? {
        switch log {
        case .missing: return missing("is missing", mark: mark, index: index)
        case .empty: return missing("is empty", mark: mark, index: index)
        case .unreadableHeader(let problem):
            // SQLite ignores the whole log: harmless only if everything in it was copied in.
            if let index, index.pendingFrames == 0 { return nil }
            return .damaged(problem.description)
        case .scanned(let scan):
            return problem(mark: mark, storePageSize: storePageSize, scan: scan, index: index)
        }
    }

    private static func missing(_ state: String, mark: StoreOpenMark, index: WALIndexHeader?) -> WALProblem? {
        if let index {
            guard index.pendingFrames > 0 else { return nil }
            return .lost("\(state), and its last \(index.pendingFrames) page writes were not yet in the store file")
        }
        guard mark == .open else { return nil }
        return .lost("\(state), and the store file was left marked open (mailfs stopped without closing it, "
                     + "or the file was copied while in use): what only the log held is gone")
    }

    private static func problem(mark: StoreOpenMark, storePageSize: Int, scan: WALFrameScan,
                                index: WALIndexHeader?) -> WALProblem? {
        if scan.commits > 0, scan.header.pageSize != storePageSize {
            return .foreign("its pages are \(scan.header.pageSize) bytes, the store's \(storePageSize)")
        }
        if let index, index.pendingFrames > 0 {
            if index.salts != scan.header.salts {
                let what = "it is not the log the store was last writing (another generation's salts)"
                return scan.commits > 0 ? .foreign(what) : .lost("was replaced: \(what)")
            }
            let needed = index.lastCommittedFrame
            if scan.committedFrames < needed {
                return .damaged(scan.frames < needed
                    ? "it is cut short: it ends after frame \(scan.frames) of the \(needed) the store had committed"
                    : "frame \(scan.validFrames + 1) of the \(needed) the store had committed is damaged")
            }
            if scan.watchedChecksum != index.lastCommitChecksum {
                return .damaged("its first \(needed) frames are not the ones the store had committed")
            }
        }
        if let damaged = scan.damagedFrame {
            return .damaged("frame \(damaged) is damaged: the \(scan.commitsAfterBreak) transactions after it would be lost")
        }
        // A clean close leaves the log empty, and the next process marks the file open, and
        // checkpoints, before it writes anything but its migrations: a log holding more
        // belongs elsewhere (a crashed store's log beside a restored file, another store's).
        // Also judged so: a crash in the middle of a migration, whose log is safe to set aside.
        if mark == .closed, scan.commits > 1 {
            return .foreign("the store file was closed cleanly, with an empty log, and this log holds \(scan.commits) transactions")
        }
        return nil
    }
}

/// Why a store's write-ahead log must not be opened as it is.
public enum WALProblem: Equatable, Sendable {
    /// The log that held the store's latest changes is gone or emptied.
    case lost(String)
    /// The store's log is damaged or cut short: SQLite would drop what follows the damage.
    case damaged(String)
    /// The log is not this store's: SQLite would copy its pages into the store.
    case foreign(String)
}
