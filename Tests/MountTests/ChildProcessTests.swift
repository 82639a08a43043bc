import Foundation
import Testing
import TestSupport

@Suite struct ChildProcessTests {
    @Test("a child gets stdin, stdout and stderr only: a file the test process holds open without O_CLOEXEC does not reach it")
    func noInheritedDescriptors() throws {
        let held = open("/etc/hostname", O_RDONLY)
        try #require(held >= 3)
        defer { close(held) }
        let child = try ChildProcess("/bin/sh", ["-c", "if [ -e /proc/$$/fd/\(held) ]; then echo open; else echo closed; fi"])
        let output = child.readAll()
        #expect(child.wait() == 0)
        #expect(output == "closed\n")
    }
}
