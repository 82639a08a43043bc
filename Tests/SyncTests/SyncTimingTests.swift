import Config
import Store
@testable import Sync
import Testing

@Suite("Sync timing")
struct SyncTimingTests {
    @Test("the journal's and the send queue's state machines take their delays from the account's settings")
    func machinesFromSettings() {
        var settings = AccountSettings()
        settings.retryDelaySeconds = 2
        settings.sendRetryDelaySeconds = 10
        let timing = SyncTiming(settings)
        #expect(timing.changeStateMachine.retryDelays == [2, 6, 18])
        #expect(timing.changeStateMachine.offlineBackoff == (2, 30))
        #expect(timing.sendStateMachine.retryDelays == [10, 40, 160])
        #expect(timing.sendStateMachine.maxQueueAge == 24 * 3600)
    }

    @Test("the built-in settings give FR-SYNC-05's and FR-SYNC-07's delays")
    func builtIn() {
        #expect(SyncTiming().changeStateMachine.retryDelays == [5, 15, 45])
        #expect(SyncTiming().sendStateMachine.retryDelays == [30, 120, 480])
    }
}
