import Foundation
import GRDB

extension TreeStore {
    /// The raw bytes of a message, when the store holds them.
    public func rawMessage(emailId: Int64) throws -> [UInt8]? {
        try store.treeRead { db in try PackedContent.raw(emailId: emailId, pack: store.pack, db: db) }
    }

    /// Whether the store holds the message's raw bytes (small messages, imports), without
    /// reading them.
    public func hasRawMessage(emailId: Int64) throws -> Bool {
        try rawLocation(emailId: emailId) != nil
    }

    /// Where the message's raw bytes are, for a file that reads them while it is open; nil
    /// when the store has none (a message synced without them).
    public func rawLocation(emailId: Int64) throws -> RawLocation? {
        // The pass is taken before the row is read: PackReaders says why.
        let pass = store.pack.readers.pass
        return try store.treeRead { db in try PackedContent.location(emailId: emailId, pass: pass, db: db) }
    }

    /// Keeps a packed message's bytes from being punched while a file reads them; false when
    /// a punching pass began since its location was read: read the location again.
    public func openPacked(_ message: PackedMessage) -> Bool {
        store.pack.readers.open(message)
    }

    /// The file that read `message` is closed: a pass that left its bytes can punch them now.
    public func closePacked(_ message: PackedMessage) {
        if store.pack.readers.close(message) { store.packHoles.schedule() }
    }

    /// Up to `size` bytes of an open packed message from `offset`, short only at its end:
    /// one `pread` of the range asked, never the whole message.
    public func readPacked(_ message: PackedMessage, at offset: Int64, size: Int) throws -> [UInt8] {
        guard offset >= 0, offset < Int64(message.count), size > 0 else { return [] }
        let end = offset + Int64(size)
        if end < Int64(message.count) {
            // Readahead of our own: the next two READs' worth is asked for now.
            store.pack.prefetch(offset: message.offset + end, length: min(2 * size, message.count - Int(end)))
        }
        return try store.pack.read(offset: message.offset + offset, length: min(size, message.count - Int(offset)))
    }
}
