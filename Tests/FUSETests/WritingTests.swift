import FUSE
import Foundation
import Testing

extension MountedTests {
    @Suite("Writing where the tree allows it") struct Writing {
        @Test("cp, mv, truncate, touch -d and rm work in a writable directory")
        func writeSide() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let copy = mount.path("outbox/copy.txt")
            let moved = mount.path("outbox/moved.txt")
            #expect(try mount.tool("cp", mount.path("docs/numbers.txt"), copy).status == 0)
            #expect(try mount.tool("cat", copy).standardOutput == InMemoryFilesystem.numbersText)
            let mv = try mount.tool("mv", copy, moved)
            #expect(mv.status == 0, "\(mv.standardError)")
            #expect(try mount.tool("ls", mount.path("outbox")).lines == ["moved.txt"])
            #expect(try mount.tool("truncate", "-s", "5", moved).status == 0)
            #expect(try mount.tool("touch", "-d", "@1700000000", moved).status == 0)
            #expect(try mount.tool("stat", "-c", "%s %Y", moved).standardOutput == "5 1700000000\n")
            #expect(try mount.tool("cat", moved).standardOutput == "01234")
            #expect(try mount.tool("rm", moved).status == 0)
            #expect(try mount.tool("ls", "-A", mount.path("outbox")).lines.isEmpty)
        }

        @Test("mv onto an existing name with renameat2(NOREPLACE) is EEXIST")
        func renameNoReplace() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            #expect(try mount.tool("touch", mount.path("outbox/a"), mount.path("outbox/b")).status == 0)
            let noClobber = try mount.tool("mv", "--no-clobber", mount.path("outbox/a"), mount.path("outbox/b"))
            #expect(noClobber.status == 0 || noClobber.standardError.contains("exists"))
            #expect(try mount.tool("ls", mount.path("outbox")).lines == ["a", "b"])
            #expect(try LibcExtras.renameNoReplace(mount.path("outbox/a"), mount.path("outbox/b")) == EEXIST)
            #expect(try LibcExtras.renameNoReplace(mount.path("outbox/a"), mount.path("outbox/c")) == 0)
        }

        @Test("an error from flush makes close() fail, so cp reports it")
        func flushErrorFailsClose() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let result = try mount.tool("cp", mount.path("hello.txt"), mount.path("outbox/refused.txt"))
            #expect(result.status != 0)
            #expect(result.standardError.contains("Permission denied"), "\(result.standardError)")
        }
    }
}
