import Foundation
import GRDB

extension StoreReader {
    /// What `.status` and `.log` say when the store itself failed: the disk under it refused
    /// a write (SQLite's "database or disk is full", a cache file's ENOSPC), or its file
    /// turned out damaged in pages the start-up checks never read. nil for any other error.
    /// SQLite rolls a failed transaction back, so a full disk leaves the store as it was.
    public func describeStoreFailure(_ error: any Error) -> String? {
        if let damage = damage(in: error) { return damage.description }
        let full = switch error {
        case let error as DatabaseError: error.resultCode == .SQLITE_FULL
        case CacheError.writeFailed(_, let code): code == ENOSPC || code == EDQUOT
        case let error as PackError: error.code == ENOSPC || error.code == EDQUOT
        default: false
        }
        guard full else { return nil }
        return "disk full: no space left in \(store.databaseURL.deletingLastPathComponent().path), where mailfs keeps its store; "
            + "free some space"
    }

    /// The damaged-file error behind a failed read or write of the store; nil for others.
    /// The first one found is kept: `knownDamage`.
    @discardableResult
    public func damage(in error: any Error) -> StoreFileError? {
        if let error = error as? PackError, error.isDamage {
            let failure = StoreFileError(path: store.databaseURL.path, kind: .damaged("its pack \(error.path): \(error.reason)"))
            store.damageFound.withLock { $0 = $0 ?? failure }
            return failure
        }
        guard let error = error as? DatabaseError,
              let failure = StoreFileError(error, path: store.databaseURL.path) else { return nil }
        switch failure.kind {
        case .damaged, .notADatabase:
            store.damageFound.withLock { $0 = $0 ?? failure }
            return failure
        default:
            return nil
        }
    }

    /// Damage found since the store was opened: every `.status` shows it from then on,
    /// since the same pages fail every read that reaches them.
    public var knownDamage: StoreFileError? { store.damageFound.withLock { $0 } }
}
