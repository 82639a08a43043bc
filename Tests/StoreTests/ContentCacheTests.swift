import Foundation
import MailCore
@testable import Store
import Testing

/// The content cache on its own: files, modes, the attachment mirror, LRU eviction.
@Suite("Content cache")
struct ContentCacheTests {
    /// A store with one partial message (as sync leaves a large one) of two attachments.
    func partialMessage(_ temp: TemporaryStore) throws -> (account: Int64, email: Int64) {
        let account = try temp.account()
        let folder = try temp.folder(account, "inbox", type: .inbox)
        let header = Fixture.message(id: "big@example.org", subject: "Big", body: "")
        let attachments = ["2", "3"].map { part in
            AttachmentInfo(partID: part, filename: "file\(part).bin", mimeType: "application/octet-stream",
                           encoding: "base64", size: 1000, isInline: false, contentID: nil)
        }
        let partial = PartialContent(header: header, bodyPlain: "text", bodyHTML: nil, attachments: attachments, size: 5000)
        _ = try temp.store.sync.ingest([IncomingMessage(content: .partial(partial), folderId: folder, uid: 7,
                                                   flags: MessageFlags(), arrival: Date())], accountId: account)
        let email = try #require(try temp.store.tree.messages(inFolder: folder).first?.id)
        return (account, email)
    }

    @Test("a partial message's attachments start with estimated sizes, not downloaded")
    func estimatesFirst() throws {
        let temp = try TemporaryStore()
        let (_, email) = try partialMessage(temp)
        let records = try temp.store.sync.attachments(ofEmail: email)
        #expect(records.count == 2)
        #expect(records.allSatisfy { !$0.isDownloaded && !$0.sizeIsExact && $0.cachePath == nil })
        #expect(try temp.store.tree.hasRawMessage(emailId: email) == false)
        #expect(try temp.store.sync.serverLocations(emailId: email).map(\.uid) == [7])
    }

    @Test("stored content is a private file, and the attachment gets its exact size")
    func storesPrivately() throws {
        let temp = try TemporaryStore()
        let (account, email) = try partialMessage(temp)
        let key = ContentKey(emailId: email, partId: "2")
        let file = try temp.store.sync.keepContent(Array(repeating: 7, count: 1234), for: key, limitBytes: 1 << 20)
        #expect(file.size == 1234)
        #expect(file.path.hasPrefix(temp.directory.appendingPathComponent("cache").path))
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)).count == 1234)
        let mode = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        let record = try #require(try temp.store.sync.attachments(ofEmail: email).first { $0.partId == "2" })
        #expect(record.isDownloaded && record.sizeIsExact && record.sizeBytes == 1234 && record.cachePath == file.path)
        #expect(try temp.store.cachedContent(key) == file)
        #expect(try temp.store.tree.cacheUsage(accountId: account) == 1234)
    }

    @Test("a whole message's download sets its size to the bytes the server sent")
    func messageSize() throws {
        let temp = try TemporaryStore()
        let (_, email) = try partialMessage(temp)
        _ = try temp.store.sync.keepContent(Array(repeating: 1, count: 4321), for: .message(email), limitBytes: 1 << 20)
        #expect(try temp.store.tree.message(id: email)?.sizeBytes == 4321)
    }

    @Test("above the limit the least recently read content goes, never the content just stored")
    func evictsLeastRecent() throws {
        let temp = try TemporaryStore()
        let (account, email) = try partialMessage(temp)
        let first = ContentKey(emailId: email, partId: "2")
        let second = ContentKey(emailId: email, partId: "3")
        let old = try temp.store.sync.keepContent(Array(repeating: 1, count: 600), for: first, limitBytes: 1000)
        _ = try temp.store.sync.keepContent(Array(repeating: 2, count: 600), for: second, limitBytes: 1000)
        #expect(try temp.store.cachedContent(first) == nil)
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(try temp.store.cachedContent(second) != nil)
        let evicted = try #require(try temp.store.sync.attachments(ofEmail: email).first { $0.partId == "2" })
        #expect(!evicted.isDownloaded && evicted.cachePath == nil && evicted.sizeIsExact && evicted.sizeBytes == 600)
        // Content bigger than the whole limit is still served (it alone stays).
        _ = try temp.store.sync.keepContent(Array(repeating: 3, count: 5000), for: first, limitBytes: 1000)
        #expect(try temp.store.cachedContent(first)?.size == 5000)
        #expect(try temp.store.tree.cacheUsage(accountId: account) == 5000)
    }

    @Test("a cache file removed behind the store's back reads as not cached")
    func vanishedFile() throws {
        let temp = try TemporaryStore()
        let (_, email) = try partialMessage(temp)
        let key = ContentKey(emailId: email, partId: "3")
        let file = try temp.store.sync.keepContent([1, 2, 3], for: key, limitBytes: 1000)
        try FileManager.default.removeItem(atPath: file.path)
        #expect(try temp.store.cachedContent(key) == nil)
        #expect(try temp.store.sync.attachments(ofEmail: email).first { $0.partId == "3" }?.isDownloaded == false)
    }

    @Test("clear empties an account's cache and its directory")
    func clear() throws {
        let temp = try TemporaryStore()
        let (account, email) = try partialMessage(temp)
        let file = try temp.store.sync.keepContent([1, 2, 3], for: .message(email), limitBytes: 1000)
        #expect(try temp.store.clearCache(accountId: account) == 3)
        #expect(!FileManager.default.fileExists(atPath: file.path))
        #expect(try temp.store.tree.cacheUsage(accountId: account) == 0)
    }

    @Test("file names come from numbers only: a hostile part id is refused", arguments: [
        "../x", "2/../../etc", "", "1..2", ".1", "1.", "2 ", "a", "1" + String(repeating: ".1", count: 40),
    ])
    func hostilePart(_ part: String) throws {
        let temp = try TemporaryStore()
        let (_, email) = try partialMessage(temp)
        #expect(throws: CacheError.self) {
            try temp.store.sync.keepContent([1], for: ContentKey(emailId: email, partId: part), limitBytes: 1000)
        }
    }

    @Test("valid part ids name files inside the account's directory", arguments: ["1", "2.1", "10.3.2"])
    func validPart(_ part: String) throws {
        #expect(ContentKey(emailId: 5, partId: part).fileName == "5-\(part).part")
        #expect(ContentKey.message(5).fileName == "5.eml")
    }
}

extension SyncStore {
    /// Content kept the way a download keeps it: started, appended, finished.
    @discardableResult
    func keepContent(_ bytes: [UInt8], for key: ContentKey, limitBytes: Int64) throws -> CachedFile {
        let stream = try startContent(key)
        try stream.append(bytes)
        return try finishContent(stream, limitBytes: limitBytes)
    }
}
