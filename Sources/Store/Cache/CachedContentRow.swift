import Foundation
import GRDB

/// One file of the content cache (table `cachedContent`).
struct CachedContentRow: Codable, Sendable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "cachedContent"
    var accountId: Int64
    var emailId: Int64
    var partId: String
    var fileName: String
    var sizeBytes: Int64
    var lastAccess: Date

    static func find(_ key: ContentKey, db: Database) throws -> CachedContentRow? {
        try filter(Column("emailId") == key.emailId && Column("partId") == key.storedPartId).fetchOne(db)
    }
}
