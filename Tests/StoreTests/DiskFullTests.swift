import Foundation
import GRDB
import Testing
@testable import Store

@Suite("A full disk under the store")
struct DiskFullTests {
    @Test("SQLite's disk-full error and a cache file's ENOSPC are said as a full disk, naming the store's directory")
    func diskFull() throws {
        let temp = try TemporaryStore()
        let directory = temp.directory.path
        for error: any Error in [DatabaseError(resultCode: .SQLITE_FULL), CacheError.writeFailed(path: "x", errno: ENOSPC)] {
            let text = try #require(temp.store.diskFullText(error))
            #expect(text.hasPrefix("disk full: ") && text.contains(directory), "\(text)")
        }
        #expect(temp.store.diskFullText(DatabaseError(resultCode: .SQLITE_BUSY)) == nil)
        #expect(temp.store.diskFullText(CacheError.writeFailed(path: "x", errno: EACCES)) == nil)
    }
}
