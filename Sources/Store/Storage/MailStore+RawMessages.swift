import Foundation
import GRDB

/// The raw RFC 5322 bytes of messages stored whole (`PackedContent`, `MessagePack`).
extension MailStore {
    /// A write transaction that may store raw messages: the pack is synced before the
    /// commit, and what a transaction that failed appended is given back.
    func writeStoringRaw<T>(_ body: (Database) throws -> T) throws -> T {
        do {
            let result = try pool.write { db in
                let result = try body(db)
                try pack.syncAppended()
                return result
            }
            pack.endTransaction(committed: true)
            return result
        } catch {
            pack.endTransaction(committed: false)
            throw error
        }
    }
}
