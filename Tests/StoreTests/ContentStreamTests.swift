import Foundation
@testable import Store
import Synchronization
import TestSupport
import Testing

/// A download read while it grows: a read waits only for its range, EOF comes exactly at
/// the end, the finished file is the cache entry, and a failed one leaves nothing behind.
@Suite("Content stream")
struct ContentStreamTests {
    func started(_ temp: TemporaryStore) throws -> (ContentStream, ContentKey) {
        let account = try temp.account()
        let folder = try temp.folder(account, "inbox", type: .inbox)
        let header = Fixture.message(id: "stream@example.org", subject: "Stream", body: "")
        let partial = PartialContent(header: header, bodyPlain: "", bodyHTML: nil, attachments: [], size: 5000)
        _ = try temp.store.sync.ingest([IncomingMessage(content: .partial(partial), folderId: folder, uid: 3,
                                                   flags: MessageFlags(), arrival: Date())], accountId: account)
        let key = ContentKey.message(try #require(try temp.store.tree.messages(inFolder: folder).first?.id))
        return (try temp.store.sync.startContent(key), key)
    }

    /// A read on a thread of its own (it blocks), its result collected for the test to poll.
    final class BlockedRead: Sendable {
        let result = Mutex<Result<[UInt8], ContentUnavailable>?>(nil)

        init(_ stream: ContentStream, offset: Int64, size: Int) {
            Thread { [self] in
                let outcome = Result { () throws(ContentUnavailable) in try stream.read(offset: offset, size: size) }
                result.withLock { $0 = outcome }
            }.start()
        }

        var value: Result<[UInt8], ContentUnavailable>? { result.withLock { $0 } }
    }

    @Test("a read of bytes that arrived returns them; one beyond waits until they arrive")
    func readsWhileGrowing() async throws {
        let temp = try TemporaryStore()
        let (stream, _) = try started(temp)
        try stream.append(Array(0..<100))
        #expect(try stream.read(offset: 10, size: 5) == [10, 11, 12, 13, 14])
        let waiting = BlockedRead(stream, offset: 90, size: 20)
        try await Task.sleep(for: .milliseconds(100))
        #expect(waiting.value == nil, "bytes 100..<110 have not arrived")
        try stream.append(Array(100..<200))
        #expect(try await Poll.until(seconds: 10, every: .milliseconds(20)) { waiting.value != nil })
        #expect(try waiting.value?.get() == Array(90..<110))
    }

    @Test("at the end a read is short and then empty: EOF exactly at the content's size")
    func endOfFile() async throws {
        let temp = try TemporaryStore()
        let (stream, key) = try started(temp)
        try stream.append(Array(repeating: 1, count: 50))
        let waiting = BlockedRead(stream, offset: 40, size: 100)
        try stream.append(Array(repeating: 2, count: 30))
        let file = try temp.store.sync.finishContent(stream, limitBytes: 1 << 20)
        #expect(try await Poll.until(seconds: 10, every: .milliseconds(20)) { waiting.value != nil })
        #expect(try waiting.value?.get() == Array(repeating: 1, count: 10) + Array(repeating: 2, count: 30))
        #expect(try stream.read(offset: 80, size: 10) == [])
        #expect(file.size == 80 && stream.completedFile == file)
        #expect(try await stream.finished() == file)
        #expect(try temp.store.cachedContent(key) == file, "the finished file is the cache entry")
        #expect(try Data(contentsOf: URL(fileURLWithPath: file.path)).count == 80)
    }

    @Test("an abandoned download fails its waiting readers and leaves no file that looks cached")
    func abandoned() async throws {
        let temp = try TemporaryStore()
        let (stream, key) = try started(temp)
        try stream.append(Array(repeating: 9, count: 64))
        let waiting = BlockedRead(stream, offset: 0, size: 1000)
        temp.store.sync.abandonContent(stream, because: .failed("connection cut"))
        #expect(try await Poll.until(seconds: 10, every: .milliseconds(20)) { waiting.value != nil })
        #expect(waiting.value == .failure(.failed("connection cut")))
        #expect(try stream.read(offset: 0, size: 64).count == 64, "bytes that arrived stay readable")
        await #expect(throws: ContentUnavailable.failed("connection cut")) { try await stream.finished() }
        #expect(try temp.store.cachedContent(key) == nil)
        let directory = temp.directory.appendingPathComponent("cache")
        let files = FileManager.default.enumerator(atPath: directory.path)?.allObjects as? [String] ?? []
        #expect(files.allSatisfy { !$0.hasSuffix(".eml") && !$0.contains(".partial-") }, "\(files)")
    }
}
