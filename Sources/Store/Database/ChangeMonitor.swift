import Foundation
import GRDB
import Synchronization

/// Notices commits made by any other connection or process (`mailfs import` beside a
/// mount, the sync engine's writer) through SQLite's `data_version`, which only a
/// dedicated connection can read meaningfully: it is per connection.
public final class ChangeMonitor: Sendable {
    private let queue: DatabaseQueue
    private let lastVersion: Mutex<Int>

    init(databasePath: String) throws {
        var configuration = Configuration()
        configuration.readonly = true
        queue = try DatabaseQueue(path: databasePath, configuration: configuration)
        let version = try queue.read { db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 }
        lastVersion = Mutex(version)
    }

    /// True once for every batch of commits since the previous call.
    public func hasChanged() -> Bool {
        guard let version = try? queue.read({ db in try Int.fetchOne(db, sql: "PRAGMA data_version") ?? 0 })
        else { return false }
        return lastVersion.withLock { last in
            defer { last = version }
            return version != last
        }
    }
}

extension MailStore {
    public func makeChangeMonitor() throws -> ChangeMonitor {
        try ChangeMonitor(databasePath: databaseURL.path)
    }
}
