import FUSE
import Foundation
import Testing

@Suite("Quiet period: when the mount gives memory back")
struct QuietPeriodTests {
    let start = Date(timeIntervalSince1970: 1_000_000)

    /// The answers to a series of (request count, seconds after start) observations.
    func answers(initialCount: UInt64, _ observations: [(UInt64, TimeInterval)]) -> [Bool] {
        var period = QuietPeriod(length: 2, requestCount: initialCount, now: start)
        return observations.map { period.burstEnded(requestCount: $0.0, now: start + $0.1) }
    }

    @Test("a burst of requests ends once, after the quiet length without a request")
    func burstEndsOnce() {
        #expect(answers(initialCount: 0, [(5, 1), (5, 2.9), (5, 3), (5, 10)]) == [false, false, true, false])
    }

    @Test("a request during the quiet length starts the wait again")
    func requestRestartsWait() {
        #expect(answers(initialCount: 0, [(1, 0), (2, 1.5), (2, 3), (2, 3.5)]) == [false, false, false, true])
    }

    @Test("a mount never asked anything has no burst to end")
    func noRequestsNoRelease() {
        #expect(answers(initialCount: 7, [(7, 1), (7, 60)]) == [false, false])
    }
}
