import Foundation
import GRDB
@testable import Store
import Testing

/// The store's one-statement subfolder counts (a folder's GETATTR, a LOOKUP of a subfolder)
/// must give what counting the account's folder rows in Swift gives: the kernel keeps the
/// link count a listing entry gave, and a GETATTR that brings another drops its cache.
@Suite("Subfolder counts in SQL")
struct SubfolderCountTests {
    static let paths = ["A", "A/b", "A/c", "A/c/d", "A/e", "A/ü", "A/ü/x", "AB", "A0", "A.z", "Z", "Z/A", "Z/A/b"]

    @Test("every folder's count and every subfolder lookup agree with the rows counted in Swift; a folder being deleted is not shown")
    func agreesWithRows() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        var ids: [String: Int64] = [:]
        for path in Self.paths { ids[path] = try temp.folder(account, path) }
        try temp.store.pool.write { db in
            try db.execute(sql: "UPDATE folder SET localState = 'deleting' WHERE path = 'A/e'")
        }
        let folders = try temp.store.folders(accountId: account)
        func parent(_ path: String) -> String? { path.lastIndex(of: "/").map { String(path[..<$0]) } }
        for folder in folders {
            let children = folders.filter { $0.isShown && parent($0.path) == folder.path }
            let (found, count) = try #require(try temp.store.tree.folderWithSubfolderCount(id: folder.id ?? -1))
            #expect(found == folder)
            #expect(count == children.count, "\(folder.path)")
            for child in folders where parent(child.path) == folder.path {
                let name = String(child.path.dropFirst(folder.path.count + 1))
                let looked = try temp.store.tree.shownSubfolder(named: name, of: folder.id ?? -1)
                #expect(looked?.folder == (child.isShown ? child : nil), "\(child.path)")
                #expect(looked.map(\.subfolders) == (child.isShown ? folders.filter { $0.isShown && parent($0.path) == child.path }.count : nil))
            }
        }
        #expect(try temp.store.tree.folderWithSubfolderCount(id: ids["A"] ?? -1)?.subfolders == 3)
        #expect(try temp.store.tree.shownSubfolder(named: "d", of: ids["A"] ?? -1) == nil, "not a direct child")
        #expect(try temp.store.tree.folderWithSubfolderCount(id: 999_999) == nil)
    }
}
