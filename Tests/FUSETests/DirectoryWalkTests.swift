@testable import FUSE
import Testing

/// Noticing a walk over sibling directories, and what it offers a read-ahead.
@Suite("Directory walk") struct DirectoryWalkTests {
    @Test("misses within a second of each other make a walk; a pause starts counting again")
    func walkNeedsCloseMisses() {
        var walk = DirectoryWalk(missesForWalk: 4)
        let start = ContinuousClock.now
        let quick = (1...4).map { walk.noticeWalk(missing: Inode($0), at: start + .milliseconds(100 * $0)) }
        #expect(quick == [nil, nil, nil, [1, 2, 3, 4]])
        let goesOn = walk.noticeWalk(missing: 5, at: start + .milliseconds(500))
        #expect(goesOn == [2, 3, 4, 5], "the walk's last misses, oldest first")
        let afterPause = walk.noticeWalk(missing: 6, at: start + .seconds(3))
        #expect(afterPause == nil, "after a pause, one `ls` is not a walk")
    }

    @Test("a walk is offered a read-ahead a few times at most, and again after a pause")
    func offersAreFew() {
        var walk = DirectoryWalk(missesForWalk: 2)
        let start = ContinuousClock.now
        let offers = (1...10).compactMap { walk.noticeWalk(missing: Inode($0), at: start + .milliseconds($0)) }
        #expect(offers.count == DirectoryWalk.offersPerWalk)
        #expect(offers.first == [1, 2])
        #expect(offers.allSatisfy { $0.count <= DirectoryWalk.remembered })
        let later = start + .seconds(5)
        #expect(walk.noticeWalk(missing: 11, at: later) == nil)
        #expect(walk.noticeWalk(missing: 12, at: later) == [11, 12], "a new walk")
    }
}

/// Which directories a read-ahead loads, in which order, and when it waits or ends.
@Suite("Read-ahead plan") struct ReadAheadPlanTests {
    /// Twenty directories whose listing order is not their inode order.
    static let children: [Inode] = (0..<20).map { Inode(100 + ($0 * 7) % 20) }
    static let now = ContinuousClock.now

    static func plan(missed: [Inode], batch: Int = 4) -> ReadAheadPlan? {
        ReadAheadPlan(children: children, missed: missed, batch: batch, at: now)
    }

    @Test("the walk's order is the listing's or the inodes', told from its last misses")
    func order() throws {
        let listed = try #require(Self.plan(missed: [Self.children[3], Self.children[5]]))
        #expect(listed.directories == Self.children)
        let sorted = try #require(Self.plan(missed: [106, 107]), "positions 18 and 1 in the listing")
        #expect(sorted.directories == Self.children.sorted())
        #expect(Self.plan(missed: [Self.children[5], Self.children[3]]) == nil, "neither order")
        #expect(Self.plan(missed: [Self.children[5]]) == nil, "one miss says nothing of an order")
        #expect(Self.plan(missed: [Self.children[3], 999]) == nil, "the last miss is not a child")
    }

    @Test("misses before the walk and below the children are passed over")
    func strayMisses() throws {
        let plan = try #require(Self.plan(missed: [Self.children[9], Self.children[2], 999, Self.children[4]]))
        #expect(plan.directories == Self.children)
        #expect(plan.walked == 4)
    }

    @Test("the request that noticed the walk loads a batch from its directory; the read-ahead goes on after it")
    func firstBatch() throws {
        var plan = try #require(Self.plan(missed: [Self.children[0], Self.children[1]]))
        let children = Self.children
        let steps: [ReadAheadPlan.Claim] = [plan.claim(children[1])]
        #expect(steps == [.load(children[1..<5])])
        let next = plan.step(at: Self.now)
        #expect(next == .load(children[5..<9]))
        let claims = [plan.claim(children[6]), plan.claim(children[2]), plan.claim(children[12])]
        #expect(claims[0] == .wait, "being loaded")
        #expect(claims[1] == .load([children[2]]), "loaded before, its listing dropped since")
        #expect(claims[2] == .load(children[12..<16]), "the walk overtook the read-ahead")
        let last = [plan.step(at: Self.now), plan.step(at: Self.now)]
        #expect(last == [.load(children[16..<20]), .finish], "then everything is loaded")
    }

    @Test("the read-ahead waits when a window ahead of the walk, and ends when the walk pauses")
    func windowAndIdle() throws {
        let many: [Inode] = (0..<Inode(ReadAheadPlan.window * 2)).map { $0 + 1 }
        var plan = try #require(ReadAheadPlan(children: many, missed: [1, 2], batch: 64, at: Self.now))
        _ = plan.claim(2)
        var loaded = 0
        while case .load(let batch) = plan.step(at: Self.now) { loaded += batch.count }
        let waits = plan.step(at: Self.now)
        #expect(waits == .wait)
        #expect(plan.next - plan.walked > ReadAheadPlan.window)
        #expect(loaded <= ReadAheadPlan.window + 64)
        let visited = [plan.visit(many[600], at: Self.now), plan.visit(99_999, at: Self.now)]
        #expect(visited == [true, false], "the second is not one of the walk's")
        let movedOn = plan.step(at: Self.now)
        #expect(movedOn != .wait, "the walk moved on")
        let paused = plan.step(at: Self.now + ReadAheadPlan.idle + .milliseconds(1))
        #expect(paused == .finish, "the walk paused")
    }
}
