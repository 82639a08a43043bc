import Config
@testable import FUSE
import MailCore
import Store
import Testing

@Suite("Search directories in the tree") struct SearchDirectoriesTests {
    static func directory(_ name: String, scope: SearchScope = .account(1)) -> SearchDirectory {
        SearchDirectory(scope: scope, name: name, query: .everything)
    }

    @Test("a query directory keeps its id while the kernel holds a reference, and goes with the last")
    func references() {
        let directories = SearchDirectories()
        let id = directories.open(Self.directory("a"))
        #expect(directories.open(Self.directory("a")) == id)
        #expect(directories.open(Self.directory("a", scope: .everyAccount)) != id)
        #expect(directories.open(Self.directory("b")) != id)
        #expect(!directories.release(id, references: 1))
        #expect(directories.directory(id)?.name == "a")
        #expect(directories.release(id, references: 1))
        #expect(directories.directory(id) == nil)
        #expect(!directories.release(id, references: 1), "a second FORGET of a dropped id is harmless")
        #expect(directories.open(Self.directory("a")) != id, "ids are never reused")
    }

    @Test("an account's search/ lists its own saved searches over the shared ones of the same name")
    func savedSearchLists() {
        let searches = SavedSearches(
            shared: [SavedSearch(name: "unread", query: "tag:unread"), SavedSearch(name: "b", query: "b")],
            byAccount: ["work": [SavedSearch(name: "unread", query: "tag:unread folder:inbox"), SavedSearch(name: "a", query: "a")]])
        #expect(searches.list(forAccount: nil).map(\.name) == ["b", "unread"])
        #expect(searches.list(forAccount: "work").map(\.query) == ["a", "b", "tag:unread folder:inbox"])
        #expect(searches.list(forAccount: "home").map(\.query) == ["b", "tag:unread"])
    }

    @Test("search nodes have inodes of their own kinds and round-trip")
    func inodes() {
        let directories: [Node.Directory] = [
            .searches(7), .unifiedSearches, .savedSearch(SavedSearchID.make(accountId: 7, index: 3)), .search(9),
        ]
        #expect(Set(directories.map(\.inode)).count == directories.count)
        for directory in directories {
            #expect(Node(inode: directory.inode) == .directory(directory))
        }
        #expect(SavedSearchID.split(SavedSearchID.make(accountId: 7, index: 3)) == (7, 3))
        #expect(SavedSearchID.split(SavedSearchID.make(accountId: nil, index: 65535)) == (nil, 65535))
    }
}
