import Foundation
import GRDB
import Testing
@testable import Store

/// How a failure of the store itself reads in `.status` and `.log`.
@Suite("Failures of the store itself")
struct StoreFailureTests {
    @Test("SQLite's disk-full error and a cache file's ENOSPC are said as a full disk, naming the store's directory")
    func diskFull() throws {
        let temp = try TemporaryStore()
        let directory = temp.directory.path
        for error: any Error in [DatabaseError(resultCode: .SQLITE_FULL), CacheError.writeFailed(path: "x", errno: ENOSPC)] {
            let text = try #require(temp.store.describeStoreFailure(error))
            #expect(text.hasPrefix("disk full: ") && text.contains(directory), "\(text)")
        }
        #expect(temp.store.describeStoreFailure(DatabaseError(resultCode: .SQLITE_BUSY)) == nil)
        #expect(temp.store.describeStoreFailure(CacheError.writeFailed(path: "x", errno: EACCES)) == nil)
        #expect(temp.store.knownDamage == nil)
    }

    @Test("damage met after start is said with the file and what to do, and remembered")
    func damage() throws {
        let temp = try TemporaryStore()
        let file = temp.directory.appendingPathComponent("mailfs.sqlite").path
        #expect(temp.store.knownDamage == nil)
        let text = try #require(temp.store.describeStoreFailure(DatabaseError(resultCode: .SQLITE_CORRUPT, message: "malformed")))
        #expect(text.contains("the store \(file) is damaged (malformed)") && text.contains("mv \(file) \(file).broken"), "\(text)")
        #expect(temp.store.knownDamage?.kind == .damaged("malformed"))
        temp.store.damage(in: DatabaseError(resultCode: .SQLITE_NOTADB))
        #expect(temp.store.knownDamage?.kind == .damaged("malformed"), "the first one is kept")
    }
}
