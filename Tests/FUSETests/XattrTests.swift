import FUSE
import Foundation
import Testing

extension MountedTests {
    @Suite("Extended attributes") struct Xattrs {
        @Test("getfattr -d and -n show user.mailfs attributes")
        func getfattrShowsAttributes() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let dump = try mount.tool("getfattr", "-d", mount.path("hello.txt"))
            #expect(dump.status == 0, "\(dump.standardError)")
            #expect(dump.lines.contains("user.mailfs.from=\"alice@example.com\""))
            let one = try mount.tool("getfattr", "-n", "user.mailfs.from", "--only-values", mount.path("hello.txt"))
            #expect(one.standardOutput == "alice@example.com")
            let missing = try mount.tool("getfattr", "-n", "user.nope", mount.path("hello.txt"))
            #expect(missing.status != 0 && missing.standardError.contains("No such attribute"))
        }

        @Test("a size-0 call returns the length; a short buffer is ERANGE")
        func sizeProbeProtocol() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let path = mount.path("hello.txt")
            let probe = try LibcExtras.getxattr(path, "user.mailfs.from", size: 0)
            #expect(probe.0 == 17)
            #expect(try LibcExtras.getxattr(path, "user.mailfs.from", size: 4).1 == ERANGE)
            let value = try LibcExtras.getxattr(path, "user.mailfs.from", size: 64)
            #expect(value.0 == 17 && value.2 == Array("alice@example.com".utf8))
            #expect(try LibcExtras.getxattr(path, "user.nope", size: 0).1 == ENODATA)
            #expect(try LibcExtras.listxattr(path, size: 0).0 == 17)
            #expect(try LibcExtras.listxattr(path, size: 3).1 == ERANGE)
            #expect(try LibcExtras.listxattr(path, size: 17).0 == 17)
            #expect(try LibcExtras.listxattr(mount.path("docs"), size: 0).0 == 0)
        }

        @Test("setxattr follows the tree (EROFS outside outbox/); removexattr is ENOTSUP")
        func settingAndRemoving() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            #expect(try LibcExtras.setxattr(mount.path("hello.txt"), "user.note", "hi") == EROFS)
            #expect(try LibcExtras.removexattr(mount.path("hello.txt"), "user.mailfs.from") == ENOTSUP)
            #expect(try mount.tool("touch", mount.path("outbox/draft.eml")).status == 0)
            let set = try mount.tool("setfattr", "-n", "user.note", "-v", "hi", mount.path("outbox/draft.eml"))
            #expect(set.status == 0, "\(set.standardError)")
            let read = try mount.tool("getfattr", "-n", "user.note", "--only-values", mount.path("outbox/draft.eml"))
            #expect(read.standardOutput == "hi")
        }
    }
}
