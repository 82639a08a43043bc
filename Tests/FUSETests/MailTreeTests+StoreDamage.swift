@testable import FUSE
import Foundation
import GRDB
@testable import Store
import Testing

extension MailTreeTests {
    /// A change the tree journals (rm, mv, mkdir) that meets a damaged page of the
    /// store fails with EIO, and the damage is recorded then: `.status` says so from the
    /// first failed change on, not only once a read meets the same pages.
    @Test("store damage met by rm, mv or mkdir is EIO and is recorded for .status at once",
          arguments: ["rm", "mv", "mkdir"])
    func damageMetByJournalWrite(_ operation: String) throws {
        let inbox = try path("work", "inbox")
        let name = "2026-11-20 1432 Alice Smith - Lunch plans.eml"
        let account = try path("work")
        let lists = try tree.mkdir(parent: account.inode, name: "Lists")
        try damageJournalTable()

        #expect(throws: FSError(EIO)) {
            switch operation {
            case "rm": try tree.unlink(parent: inbox.inode, name: name)
            case "mv": try tree.rename(parent: inbox.inode, name: name, newParent: lists.inode, newName: name)
            default: _ = try tree.mkdir(parent: account.inode, name: "Projects")
            }
        }
        #expect(store.knownDamage?.path == store.databaseURL.path, "recorded by the failed change itself")
        let status = try path("work", ".status").inode
        let opened = try tree.open(status, flags: O_RDONLY)
        defer { tree.release(status, handle: opened.handle) }
        let text = String(decoding: try tree.read(status, handle: opened.handle, offset: 0, size: 1 << 16), as: UTF8.self)
        #expect(text.contains("last_error: the store \(store.databaseURL.path) is damaged"), "\(text)")
    }

    /// Overwrites the root page of the journal's table (`change`) in the store file, which
    /// reads of messages and folders never visit, and makes the store's connections read it
    /// again from the file.
    private func damageJournalTable() throws {
        let (rootPage, pageSize) = try store.pool.read { db in
            (try Int.fetchOne(db, sql: "SELECT rootpage FROM sqlite_master WHERE type = 'table' AND name = 'change'") ?? 0,
             try Int.fetchOne(db, sql: "PRAGMA page_size") ?? 0)
        }
        #expect(rootPage > 1 && pageSize > 0)
        try store.pool.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        let file = try FileHandle(forWritingTo: store.databaseURL)
        try file.seek(toOffset: UInt64((rootPage - 1) * pageSize))
        try file.write(contentsOf: Data(repeating: 0xA5, count: pageSize))
        try file.close()
        store.pool.releaseMemory()
    }
}
