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
        #expect(cache.drain(servedSince: nil).directories.isEmpty)
        #expect(!cache.store(listing(["live"]), for: 1, builtIn: before))
        #expect(cache.listing(1) == nil)
        #expect(cache.store(listing(["live", "other"]), for: 1, builtIn: cache.generation))
        #expect(cache.listing(1)?.entries.map(\.name) == ["live", "other"])
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
        let drained = Dictionary(uniqueKeysWithValues: cache.drain(servedSince: nil).directories.map { ($0.inode, $0.listing?.entries.map(\.name)) })
        #expect(drained.keys.sorted() == [1, 2])
        #expect(drained[1] == ["a"] && drained[2] == .some(nil), "a forgotten listing is still reported, without its names")
        #expect(cache.drain(servedSince: nil).directories.isEmpty && cache.listing(1) == nil)
    }

    @Test("a drain returns the listings the kernel was sent since the given instant, and which nodes it was sent")
    func drainKeepsRecentlyServed() {
        let cache = ListingCache()
        let start = ContinuousClock.now
        for inode: Inode in [1, 2, 3] { #expect(cache.store(listing(["\(inode)"]), for: inode, builtIn: cache.generation)) }
        cache.noteServed(1, at: start)
        cache.noteServed(2, at: start + .seconds(10))
        cache.noteServed(7, at: start + .seconds(10))  // a file's attributes (GETATTR)
        cache.noteServed(8, at: start + .milliseconds(5_000))  // at the instant itself: recent
        let drained = cache.drain(servedSince: start + .seconds(5))
        let listings = Dictionary(uniqueKeysWithValues: drained.directories.map { ($0.inode, $0.listing?.entries.map(\.name)) })
        let expected: [Inode: [String]?] = [1: nil, 2: ["2"], 3: nil]
        #expect(listings == expected, "served too long ago, or never: not returned")
        #expect(Set(drained.served) == [2, 7, 8])
        // Stamps older than the instant are gone; the rest hold for the next drain.
        #expect(cache.store(listing(["1"]), for: 1, builtIn: cache.generation))
        #expect(cache.store(listing(["2"]), for: 2, builtIn: cache.generation))
        let again = cache.drain(servedSince: start + .seconds(5))
        #expect(again.directories.filter { $0.listing != nil }.map(\.inode) == [2])
    }

    @Test("what was served before a given instant is forgotten (the mount gone quiet), the rest kept")
    func forgetServedBefore() {
        let cache = ListingCache()
        let start = ContinuousClock.now
        cache.noteServed(1, at: start)
        cache.noteServed(2, at: start + .seconds(10))
        cache.forgetServed(before: start + .seconds(5))
        #expect(cache.drain(servedSince: start).served == [2])
    }

    @Test("when too many nodes were served to remember them all, every held listing counts as served")
    func servedOverflow() {
        let cache = ListingCache()
        let start = ContinuousClock.now
        #expect(cache.store(listing(["a"]), for: 1, builtIn: cache.generation))
        for inode in 1_000...(1_000 + Inode(ListingCache.maxEntries)) { cache.noteServed(inode, at: start) }
        let drained = cache.drain(servedSince: start)
        #expect(drained.directories.map(\.inode) == [1] && drained.directories.first?.listing != nil)
        // Stamps older than the next drain's instant are dropped: the count is back under the bound.
        #expect(cache.store(listing(["a"]), for: 1, builtIn: cache.generation))
        #expect(cache.drain(servedSince: start + .seconds(1)).directories.first?.listing == nil)
    }

    func attributes(_ node: Node, size: UInt64 = 1, isVolatile: Bool = false) -> FileAttributes {
        FileAttributes(inode: node.inode, kind: .regular, permissions: 0o600, linkCount: 1, size: size,
                       modified: Date(timeIntervalSince1970: 0), isVolatile: isVolatile)
    }

    @Test("a stored listing keeps its messages', threads' and attachments' attributes, nothing else")
    func listingKeepsAttributes() {
        let cache = ListingCache()
        let kept = [attributes(.content(.message(1))), attributes(.directory(.thread(2))), attributes(.content(.attachment(3)))]
        let notKept = [attributes(.outboxItem(4)), attributes(.content(.message(5)), isVolatile: true)]
        let entries = (kept + notKept).enumerated().map { DirectoryEntry(name: "\($0.offset)", attributes: $0.element) }
        #expect(cache.store(Listing(entries), for: 1, builtIn: cache.generation))
        for known in kept { #expect(cache.attributes(known.inode) == known) }
        for other in notKept { #expect(cache.attributes(other.inode) == nil) }
    }

    @Test("attributes are dropped by a drain, by any forget, and one file's by forgetAttributes")
    func attributesDropped() {
        let cache = ListingCache()
        let message = attributes(.content(.message(1))), other = attributes(.content(.message(2)))
        cache.remember(message, builtIn: cache.generation)
        cache.remember(other, builtIn: cache.generation)
        cache.forgetAttributes(of: message.inode)
        #expect(cache.attributes(message.inode) == nil && cache.attributes(other.inode) == other)
        cache.forget(7)
        #expect(cache.attributes(other.inode) == nil, "a change through the mount may change any link count")
        cache.remember(other, builtIn: cache.generation)
        _ = cache.drain(servedSince: nil)
        #expect(cache.attributes(other.inode) == nil)
    }

    @Test("attributes read before a change are not kept after it")
    func attributesAcrossChange() {
        let cache = ListingCache()
        let before = cache.generation
        _ = cache.drain(servedSince: nil)
        cache.remember(attributes(.content(.message(1)), size: 10), builtIn: before)
        #expect(cache.attributes(Node.ContentFile.message(1).inode) == nil)
        let forgotten = cache.generation
        cache.forgetAttributes(of: Node.ContentFile.attachment(3).inode)
        cache.remember(attributes(.content(.attachment(3)), size: 10), builtIn: forgotten)
        #expect(cache.attributes(Node.ContentFile.attachment(3).inode) == nil, "a download's exact size came in between")
    }

    @Test("names are looked up by their bytes: a duplicate keeps the first entry, another spelling of a name is not it")
    func namesByBytes() {
        let listing = Listing([
            DirectoryEntry(name: "caf\u{E9}.eml", attributes: attributes(.content(.message(1)), size: 1)),
            DirectoryEntry(name: "b.eml", attributes: attributes(.content(.message(2)), size: 2)),
            DirectoryEntry(name: "b.eml", attributes: attributes(.content(.message(3)), size: 3)),
        ])
        #expect(listing.entries.map(\.attributes.size) == [1, 2])
        #expect(listing.entry(named: "b.eml")?.attributes.size == 2)
        #expect(listing.entry(named: "caf\u{E9}.eml")?.attributes.size == 1)
        #expect(listing.entry(named: "cafe\u{301}.eml") == nil, "canonically equal to a name, but other bytes")
        #expect(listing.changes(to: Listing([listing.entries[1]])).vanished == ["caf\u{E9}.eml"])
        #expect(listing.changes(to: nil).vanished == ["caf\u{E9}.eml", "b.eml"])
    }

    @Test("a listing's changes: the names gone and the entries whose attributes changed, by inode")
    func changesBetweenListings() {
        let old = Listing([
            DirectoryEntry(name: "a.eml", attributes: attributes(.content(.message(1)), size: 1)),
            DirectoryEntry(name: "b.eml", attributes: attributes(.content(.message(2)), size: 2)),
            DirectoryEntry(name: "c.eml", attributes: attributes(.content(.message(3)), size: 3)),
        ])
        var linked = attributes(.content(.message(2)), size: 2)
        linked.linkCount += 1
        let fresh = Listing([
            DirectoryEntry(name: "a.eml", attributes: attributes(.content(.message(1)), size: 1)),
            DirectoryEntry(name: "b.eml", attributes: linked),
            DirectoryEntry(name: "d.eml", attributes: attributes(.content(.message(4)), size: 4)),
        ])
        let changes = old.changes(to: fresh)
        #expect(changes.vanished == ["c.eml"])
        #expect(changes.changed == [Node.ContentFile.message(2).inode], "a link more; a new name is no change of an old one")
        #expect(old.changes(to: old).changed.isEmpty)
        let reordered = Listing(old.entries.reversed())
        #expect(old.changes(to: reordered).vanished.isEmpty && old.changes(to: reordered).changed.isEmpty,
                "the same entries in another order: nothing vanished or changed")
        #expect(old.changes(to: nil).vanished == ["a.eml", "b.eml", "c.eml"])
    }

    @Test("a folder's listing: subfolders first, a message named like one left out, names looked up by their bytes once asked")
    func folderListing() {
        let subfolder = DirectoryEntry(name: "x.eml", attributes: FileAttributes(
            inode: Node.Directory.folder(4).inode, kind: .directory, permissions: 0o700, linkCount: 2, size: 4096,
            modified: Date(timeIntervalSince1970: 0)))
        let messages = [
            DirectoryEntry(name: "caf\u{E9}.eml", attributes: attributes(.content(.message(1)), size: 1)),
            DirectoryEntry(name: "x.eml", attributes: attributes(.content(.message(2)), size: 2)),
        ]
        let plain = Listing.folder(subfolders: [], messages: messages)
        #expect(plain.entries.map(\.attributes.size) == [1, 2])
        #expect(plain.entry(named: "x.eml")?.attributes.size == 2)
        #expect(plain.entry(named: "cafe\u{301}.eml") == nil, "canonically equal to a name, but other bytes")
        let nested = Listing.folder(subfolders: [subfolder], messages: messages)
        #expect(nested.entries.map(\.attributes.size) == [4096, 1])
        #expect(nested.entry(named: "x.eml")?.attributes.kind == .directory)
        #expect(nested.subdirectoryCount == 1)
    }
}
