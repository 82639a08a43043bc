import Foundation
import GRDB

extension SendQueueStore {
    public func outboxItem(id: Int64) throws -> OutboxItem? {
        try store.pool.read { db in try MailStore.outboxItem(id: id, db: db) }
    }

    public func outboxData(id: Int64) throws -> [UInt8]? {
        try store.pool.read { db in
            try Data.fetchOne(db, sql: "SELECT raw FROM sendQueue WHERE id = ?", arguments: [id]).map { [UInt8]($0) }
        }
    }
}
