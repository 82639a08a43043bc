import Foundation
@testable import Import
import Synchronization
import TestSupport
import Testing

@Suite("import's advice to the kernel on the next files")
struct FileReadAheadTests {
    /// The paths advised so far, in order.
    final class Advised: Sendable {
        let paths = Mutex<[String]>([])

        var all: [String] { paths.withLock { $0 } }

        /// The paths once there are `count` (up to 10 s), and a little later, to catch any beyond.
        func settled(at count: Int) async throws -> [String] {
            _ = try await Poll.until(seconds: 10, every: .milliseconds(5)) { self.all.count >= count }
            try await Task.sleep(for: .milliseconds(50))
            return all
        }
    }

    @Test("files are advised in order, never more than the window ahead of the reader, and not after stop")
    func window() async throws {
        let advised = Advised()
        let paths = (0..<20).map { "/maildir/cur/\($0)" }
        let readAhead = FileReadAhead(paths: paths, window: 3) { path in advised.paths.withLock { $0.append(path) } }
        #expect(try await advised.settled(at: 3) == Array(paths[0..<3]), "the reader is at the first file")
        readAhead.reader(at: 5)
        #expect(try await advised.settled(at: 8) == Array(paths[0..<8]))
        readAhead.stop()
        readAhead.reader(at: 15)
        try await Task.sleep(for: .milliseconds(100))
        #expect(advised.all.count == 8, "stopped")
    }
}
