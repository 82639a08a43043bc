import Testing
@testable import Sync

@Suite struct RethreadScheduleTests {
    let start = ContinuousClock.now

    @Test("nothing changed: no pass, after a folder or at the cycle's end")
    func nothingChanged() {
        let schedule = RethreadSchedule(spacing: 10)
        #expect(!schedule.isDue(at: start))
        #expect(!schedule.isPending)
    }

    @Test("the first folder that changes is rethreaded at once")
    func firstChangeAtOnce() {
        var schedule = RethreadSchedule(spacing: 10)
        schedule.folderChanged()
        #expect(schedule.isDue(at: start))
    }

    @Test("after a pass of 1 s, the next folder's changes wait 10 s, then run; what waits is still pending at the end")
    func spacedByTenPasses() {
        var schedule = RethreadSchedule(spacing: 10)
        schedule.folderChanged()
        schedule.passRan(from: start, to: start + .seconds(1))
        #expect(!schedule.isPending)
        schedule.folderChanged()
        #expect(!schedule.isDue(at: start + .seconds(5)))
        #expect(schedule.isPending, "left for the cycle's end")
        #expect(!schedule.isDue(at: start + .milliseconds(10_999)))
        #expect(schedule.isDue(at: start + .seconds(11)))
    }

    @Test("a folder with no change after a pass asks for none, however long ago it ran")
    func noChangeNoPass() {
        var schedule = RethreadSchedule(spacing: 10)
        schedule.folderChanged()
        schedule.passRan(from: start, to: start + .milliseconds(10))
        #expect(!schedule.isDue(at: start + .seconds(60)))
    }
}

extension RethreadScheduleTests {
    @Test("once a pass has been timed, a new cycle's changes wait from the cycle's start: a periodic sync makes one pass at its end")
    func laterCyclesWaitFromTheirStart() {
        var schedule = RethreadSchedule(spacing: 10)
        schedule.folderChanged()
        schedule.passRan(from: start, to: start + .seconds(1))
        let cycle = start + .seconds(300)
        schedule.cycleBegan(at: cycle)
        schedule.folderChanged()
        #expect(!schedule.isDue(at: cycle + .seconds(2)), "INBOX's new mail waits")
        schedule.folderChanged()
        #expect(!schedule.isDue(at: cycle + .seconds(3)), "so does Sent's")
        #expect(schedule.isPending, "one pass at the cycle's end")
        #expect(schedule.isDue(at: cycle + .seconds(10)), "a cycle that runs long rethreads as it goes")
    }

    @Test("a cycle before any pass was timed rethreads its first change at once")
    func untimedCycle() {
        var schedule = RethreadSchedule(spacing: 10)
        schedule.cycleBegan(at: start)
        schedule.folderChanged()
        #expect(schedule.isDue(at: start + .milliseconds(1)))
    }
}
