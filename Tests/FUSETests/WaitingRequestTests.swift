import FUSE
import Foundation
import Synchronization
import Testing

extension MountedTests {
    /// `RequestLoop` answers on one thread; a request that waits (an open waiting for a
    /// download) must not hold up the others.
    @Suite("Requests that wait hold up no others") struct WaitingRequests {
        @Test("while an open waits, cat, ls and stat of other files are answered")
        func othersAnsweredDuringWait() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let gate = mount.filesystem.addGatedFile(name: "slow.txt", text: "slow\n")
            defer { gate.open() }  // before finish(), whatever the test did
            let slow = BackgroundTool("cat", mount.path("slow.txt"))
            try #require(gate.entered.wait(timeout: .now() + 20) == .success, "the open never reached the file system")

            #expect(try mount.tool("cat", mount.path("hello.txt")).standardOutput == InMemoryFilesystem.helloText)
            #expect(try mount.tool("ls", mount.path("big")).lines.count == 500)
            #expect(try mount.tool("stat", "-c", "%s", mount.path("docs/numbers.txt")).standardOutput == "10000\n")
            #expect(!slow.isFinished, "the waiting open returned before the gate opened")

            gate.open()
            let result = try #require(slow.wait(seconds: 20), "cat of the gated file did not end")
            #expect(result.status == 0 && result.standardOutput == "slow\n")
        }

        @Test("several opens waiting at once: each gets its own thread, and others are still answered")
        func severalWaitingOpens() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let gate = mount.filesystem.addGatedFile(name: "slow.txt", text: "slow\n")
            defer { gate.open() }
            let waiting = (0..<3).map { _ in BackgroundTool("cat", mount.path("slow.txt")) }
            for _ in waiting {
                try #require(gate.entered.wait(timeout: .now() + 20) == .success, "an open never reached the file system")
            }

            #expect(try mount.tool("cat", mount.path("docs/numbers.txt")).standardOutput == InMemoryFilesystem.numbersText)

            gate.open()
            for tool in waiting {
                let result = try #require(tool.wait(seconds: 20), "a cat of the gated file did not end")
                #expect(result.standardOutput == "slow\n")
            }
        }
    }
}

/// A tool run on a thread of its own, so the test can act while it waits in the mount.
private final class BackgroundTool: Sendable {
    private let result = Mutex<ToolResult?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(_ name: String, _ arguments: String...) {
        let thread = Thread { [self] in
            let outcome = try? runTool(name, arguments)
            result.withLock { $0 = outcome ?? ToolResult(status: -1, standardOutput: "", standardError: "did not start") }
            done.signal()
        }
        thread.start()
    }

    var isFinished: Bool { result.withLock { $0 != nil } }

    /// The tool's result once it ended, nil if it did not within `seconds`.
    func wait(seconds: Double) -> ToolResult? {
        guard done.wait(timeout: .now() + seconds) == .success else { return nil }
        done.signal()
        return result.withLock { $0 }
    }
}
