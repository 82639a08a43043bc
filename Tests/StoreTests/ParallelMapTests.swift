import Synchronization
import Testing
@testable import Store

@Suite("parallelMap")
struct ParallelMapTests {
    /// Counts its live instances, to see that nothing the map produced outlives its result.
    final class Tracked: Sendable {
        static let alive = Atomic<Int>(0)
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.alive.add(1, ordering: .relaxed)
        }
        deinit { Self.alive.subtract(1, ordering: .relaxed) }
    }

    @Test("results keep their order, and are all released once the caller drops them")
    func releasesResults() {
        do {
            let results = Array(0..<1_000).parallelMap { Tracked($0) }
            #expect(results.map(\.value) == Array(0..<1_000))
            #expect(Tracked.alive.load(ordering: .relaxed) == 1_000)
        }
        #expect(Tracked.alive.load(ordering: .relaxed) == 0)
    }
}
