import Foundation
import Testing

@Suite struct RunToolTests {
    @Test("a tool that writes more than a pipe holds to stderr before its stdout ends is read whole, not killed")
    func largeStandardErrorFirst() throws {
        let started = Date()
        let result = try runTool("sh", ["-c", "head -c 200000 /dev/zero >&2; echo done"])
        #expect(result.status == 0)
        #expect(result.standardOutput == "done\n")
        #expect(result.standardError.utf8.count == 200_000)
        // `timeout` kills a tool after 20 s: well under that, nobody waited for it.
        #expect(Date().timeIntervalSince(started) < 10)
    }
}
