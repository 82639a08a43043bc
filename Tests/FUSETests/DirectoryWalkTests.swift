@testable import FUSE
import Testing

/// Noticing a walk over sibling directories, and the blocks of ids loaded then.
@Suite("Directory walk") struct DirectoryWalkTests {
    @Test("four listings within a second each make a walk; a pause starts counting again")
    func walkNeedsCloseMisses() {
        var walk = DirectoryWalk(blockSize: 256)
        let start = ContinuousClock.now
        let quick = (0..<4).map { walk.blockToLoad(missing: 300, at: start + .milliseconds(100 * $0)) }
        #expect(quick == [nil, nil, nil, 256...511])
        let goesOn = walk.blockToLoad(missing: 7_000, at: start + .milliseconds(400))
        #expect(goesOn == 6_912...7_167, "the walk goes on")
        let afterPause = walk.blockToLoad(missing: 300, at: start + .seconds(3))
        #expect(afterPause == nil, "after a pause, one `ls` is not a walk")
    }

    @Test("a block is the ids around one, aligned to the block size")
    func blocks() {
        let walk = DirectoryWalk(blockSize: 256)
        #expect(walk.block(containing: 0) == 0...255)
        #expect(walk.block(containing: 255) == 0...255)
        #expect(walk.block(containing: 256) == 256...511)
        #expect(walk.block(containing: 7_000) == 6_912...7_167)
        #expect(DirectoryWalk(blockSize: 2_048).block(containing: 5_000) == 4_096...6_143)
    }
}
