import FUSE
import Foundation
import Testing

extension MountedTests {
    @Suite("Errors reach the caller as the right errno") struct Errors {
        @Test("a missing name is ENOENT, for stat and for tools")
        func missingNameIsENOENT() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            var buffer = stat()
            #expect(errnoOf { stat(mount.path("nope.txt"), &buffer) } == ENOENT)
            #expect(errnoOf { stat(mount.path("docs/nope/deeper"), &buffer) } == ENOENT)
            let cat = try mount.tool("cat", mount.path("nope.txt"))
            #expect(cat.status != 0 && cat.standardError.contains("No such file or directory"))
        }

        @Test("writing outside outbox/ is EROFS; mkdir and chmod are EPERM")
        func writesAreRefused() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            #expect(errnoOf { open(mount.path("hello.txt"), O_WRONLY) } == EROFS)
            #expect(errnoOf { open(mount.path("new.txt"), O_WRONLY | O_CREAT, 0o600) } == EROFS)
            #expect(errnoOf { unlink(mount.path("hello.txt")) } == EROFS)
            #expect(errnoOf { rename(mount.path("hello.txt"), mount.path("docs/hello.txt")) } == EROFS)
            #expect(errnoOf { truncate(mount.path("hello.txt"), 0) } == EROFS)
            #expect(errnoOf { mkdir(mount.path("folder"), 0o700) } == EPERM)
            #expect(errnoOf { chmod(mount.path("hello.txt"), 0o644) } == EPERM)
            let shell = try mount.tool("sh", "-c", "echo hi > '\(mount.path("hello.txt"))'")
            #expect(shell.standardError.contains("Read-only file system"))
            #expect(try mount.tool("cat", mount.path("hello.txt")).standardOutput == InMemoryFilesystem.helloText)
        }

        @Test("an error without a usable errno becomes EIO")
        func invalidErrnoIsEIO() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let descriptor = open(mount.path("broken.txt"), O_RDONLY)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            var byte: UInt8 = 0
            #expect(errnoOf { Int32(read(descriptor, &byte, 1)) } == EIO)
        }

        @Test("reading a directory is EISDIR; listing a file is ENOTDIR")
        func kindMismatches() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            let descriptor = open(mount.path("docs"), O_RDONLY)
            try #require(descriptor >= 0)
            defer { close(descriptor) }
            var byte: UInt8 = 0
            #expect(errnoOf { Int32(read(descriptor, &byte, 1)) } == EISDIR)
            #expect(opendir(mount.path("hello.txt")) == nil && errno == ENOTDIR)
        }
    }
}
