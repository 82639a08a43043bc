import Foundation
import GRDB

/// Disk space per account for `.status` (docs/REQUIREMENTS.md, product spec §8.3).
public struct StorageUse: Sendable, Equatable {
    /// Stored message bytes: raw messages and their text and HTML bodies.
    public var messages: Int64
    /// Downloaded content in the cache directory.
    public var content: Int64
    /// The account's share of the full-text index (by indexed text).
    public var index: Int64

    public init(messages: Int64, content: Int64, index: Int64) {
        self.messages = messages
        self.content = content
        self.index = index
    }
}

extension TreeStore {
    /// Recomputed at most once a minute per account: `.status` is read often, and the
    /// index's share reads the full-text index's rows. Message bytes are kept by triggers
    /// (`AccountStorage`).
    public func storageUse(accountId: Int64, now: Date = Date()) throws -> StorageUse {
        if let memo = store.storageMemo.withLock({ $0[accountId] }), now.timeIntervalSince(memo.at) < 60 { return memo.use }
        let content = try cacheUsage(accountId: accountId)
        let use = try store.pool.read { db in
            let messages = try Int64.fetchOne(db, sql: "SELECT messageBytes FROM accountStorage WHERE accountId = ?",
                                              arguments: [accountId]) ?? 0
            return StorageUse(messages: messages, content: content, index: try Self.indexShare(accountId: accountId, db: db))
        }
        store.storageMemo.withLock { $0[accountId] = (now, use) }
        return use
    }

    /// The last figures `storageUse` computed for the account, however old; nil before the
    /// first. For what must not wait for the sums (the size a listing gives `.status`).
    public func lastStorageUse(accountId: Int64) -> StorageUse? {
        store.storageMemo.withLock { $0[accountId]?.use }
    }

    /// The index's blocks (blob lengths: read from record headers, not the blocks), shared
    /// out by each account's number of messages.
    private static func indexShare(accountId: Int64, db: Database) throws -> Int64 {
        let total = try Int64.fetchOne(db, sql: "SELECT COALESCE(SUM(LENGTH(block)), 0) FROM search.emailSearch_data") ?? 0
        let all = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM email") ?? 0
        let mine = try Int64.fetchOne(db, sql: "SELECT COUNT(*) FROM email WHERE accountId = ?", arguments: [accountId]) ?? 0
        return all > 0 ? total * mine / all : 0
    }

    /// Why the space deleted mail left in the pack is not being given back, if it is not
    /// (`PackHoles`): the root `.status` warns with it.
    public var packSpaceProblem: String? { store.packHoles.problem }

    /// Everything mailfs keeps on disk: the database (with its WAL), the pack and every
    /// cache file, as blocks in use: the pack's size counts the holes deleted mail left.
    public func totalDiskUse() -> Int64 {
        let directory = store.databaseURL.deletingLastPathComponent()
        guard let files = FileManager.default.enumerator(atPath: directory.path) else { return 0 }
        var total: Int64 = 0
        for case let name as String in files {
            var status = stat()
            guard lstat(directory.appendingPathComponent(name).path, &status) == 0,
                  status.st_mode & S_IFMT == S_IFREG else { continue }
            total += Int64(status.st_blocks) * 512
        }
        return total
    }
}
