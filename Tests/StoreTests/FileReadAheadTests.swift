import Foundation
@testable import Import
import Synchronization
import Testing

@Suite("import's advice to the kernel on the next files")
struct FileReadAheadTests {
    /// The paths advised so far, in order.
    final class Advised: Sendable {
        let paths = Mutex<[String]>([])

        var count: Int { paths.withLock { $0.count } }

        /// Waits (up to 10 s) for `count` paths, then a little more to catch any beyond.
        func settle(at count: Int) -> [String] {
            let deadline = Date(timeIntervalSinceNow: 10)
            while self.count < count, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
            Thread.sleep(forTimeInterval: 0.05)
            return paths.withLock { $0 }
        }
    }

    @Test("files are advised in order, never more than the window ahead of the reader, and not after stop")
    func window() {
        let advised = Advised()
        let paths = (0..<20).map { "/maildir/cur/\($0)" }
        let readAhead = FileReadAhead(paths: paths, window: 3) { path in advised.paths.withLock { $0.append(path) } }
        #expect(advised.settle(at: 3) == Array(paths[0..<3]), "the reader is at the first file")
        readAhead.reader(at: 5)
        #expect(advised.settle(at: 8) == Array(paths[0..<8]))
        readAhead.stop()
        readAhead.reader(at: 15)
        Thread.sleep(forTimeInterval: 0.1)
        #expect(advised.count == 8, "stopped")
    }
}
