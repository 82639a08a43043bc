@testable import FUSE
import Testing

@Suite("The guard's .log line: at the trip, then every 500th held deletion")
struct HeldDeletionReportsTests {
    @Test("a trip is reported, then every 500th held deletion of that account; a new trip starts over")
    func cadence() {
        let reports = HeldDeletionReports()
        #expect(reports.noteHeld(accountId: 1, trippedGuard: true))
        let first = (2...1_000).filter { _ in reports.noteHeld(accountId: 1, trippedGuard: false) }
        #expect(first.count == 2, "the 500th and the 1,000th")
        #expect(!reports.noteHeld(accountId: 2, trippedGuard: false), "another account counts on its own")
        #expect(reports.noteHeld(accountId: 1, trippedGuard: true))
        #expect((2...499).allSatisfy { _ in !reports.noteHeld(accountId: 1, trippedGuard: false) })
        #expect(reports.noteHeld(accountId: 1, trippedGuard: false))
    }

    @Test("a mount that starts with deletions held reports its 500th held one")
    func startedWhileHeld() {
        let reports = HeldDeletionReports()
        #expect((1...499).allSatisfy { _ in !reports.noteHeld(accountId: 7, trippedGuard: false) })
        #expect(reports.noteHeld(accountId: 7, trippedGuard: false))
    }
}
