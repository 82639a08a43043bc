@testable import FUSE
import Foundation
import Testing

/// The tree's cache of directory listings and the store watcher's drains.
@Suite("Listing cache") struct ListingCacheTests {
    func listing(_ names: [String]) -> Listing {
        let attributes = FileAttributes(inode: 9, kind: .regular, permissions: 0o600, linkCount: 1,
                                        size: 1, modified: Date(timeIntervalSince1970: 0))
        return Listing(names.map { DirectoryEntry(name: $0, attributes: attributes) })
    }

    @Test("a listing built before a drain is not cached after it; one built after is")
    func buildAcrossDrain() {
        let cache = ListingCache()
        let before = cache.generation
        // The store changed and the watcher drained while this listing was being built.
        #expect(cache.drain().isEmpty)
        #expect(!cache.store(listing(["live"]), for: 1, builtIn: before))
        #expect(cache.listing(1) == nil)
        #expect(cache.store(listing(["live", "other"]), for: 1, builtIn: cache.generation))
        #expect(cache.listing(1)?.names == ["live", "other"])
    }

    @Test("a listing built before a change made through the mount (forget) is not cached after it")
    func buildAcrossForget() {
        let cache = ListingCache()
        let before = cache.generation
        cache.forget(1)
        #expect(!cache.store(listing(["a.eml"]), for: 1, builtIn: before))
        #expect(cache.listing(1) == nil)
    }

    @Test("a drain returns every directory listed since the last one, with what was cached")
    func drainReportsListed() {
        let cache = ListingCache()
        #expect(cache.store(listing(["a"]), for: 1, builtIn: cache.generation))
        #expect(cache.store(listing(["b"]), for: 2, builtIn: cache.generation))
        cache.forget(2)
        let drained = Dictionary(uniqueKeysWithValues: cache.drain().map { ($0.inode, $0.listing?.names) })
        #expect(drained.keys.sorted() == [1, 2])
        #expect(drained[1] == ["a"] && drained[2] == .some(nil), "a forgotten listing is still reported, without its names")
        #expect(cache.drain().isEmpty && cache.listing(1) == nil)
    }
}
