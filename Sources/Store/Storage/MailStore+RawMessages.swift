import Foundation
import GRDB

/// The raw RFC 5322 bytes of messages stored whole (`PackedContent`, `MessagePack`).
extension MailStore {
    /// The raw bytes of a message, when the store holds them.
    public func rawMessage(emailId: Int64) throws -> [UInt8]? {
        try treeRead { db in try PackedContent.raw(emailId: emailId, pack: pack, db: db) }
    }

    /// Whether the store holds the message's raw bytes (small messages, imports), without
    /// reading them.
    public func hasRawMessage(emailId: Int64) throws -> Bool {
        try treeRead { db in try PackedContent.holdsRaw(emailId: emailId, db: db) }
    }

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
