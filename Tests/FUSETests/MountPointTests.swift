import FUSE
import Foundation
import Testing

extension MountedTests {
    @Suite("Mount point checks") struct MountPoints {
        @Test("an empty directory passes; a missing path, a file, a non-empty directory do not")
        func plainCases() throws {
            let base = try makeTemporaryDirectory()
            defer { try? FileManager.default.removeItem(atPath: base) }
            try MountPoint.check(base)
            #expect(throws: MountPointError.missing(path: base + "/nope")) { try MountPoint.check(base + "/nope") }
            let file = base + "/file"
            #expect(FileManager.default.createFile(atPath: file, contents: Data()))
            #expect(throws: MountPointError.notDirectory(path: file)) { try MountPoint.check(file) }
            #expect(throws: MountPointError.notEmpty(path: base)) { try MountPoint.check(base) }
            try MountPoint.check(base, allowNonEmpty: true)
            #expect(throws: MountPointError.alreadyMounted(path: "/")) { try MountPoint.check("/") }
        }

        @Test("a live mount is already a mount point")
        func liveMount() throws {
            let mount = try TestMount()
            defer { try? mount.finish() }
            #expect(throws: MountPointError.alreadyMounted(path: mount.mountPoint)) {
                try MountPoint.check(mount.mountPoint)
            }
        }

        @Test("a mount whose daemon died is reported stale, with the command that clears it")
        func staleMount() throws {
            let base = try makeTemporaryDirectory()
            defer { rmdir(base) }
            try makeStaleMount(at: base)
            #expect(throws: MountPointError.stale(path: base)) { try MountPoint.check(base) }
            let message = MountPointError.stale(path: base).description
            #expect(message == "\(base) is a stale mailfs mount from a crashed run (transport endpoint is not "
                + "connected): run `fusermount3 -u \(base)`")
            let cleared = try runTool("fusermount3", ["-u", base])
            #expect(cleared.status == 0, "\(cleared.standardError)")
            try MountPoint.check(base)
        }
    }
}

/// What a crashed daemon leaves: a FUSE mount whose /dev/fuse descriptor was closed
/// without unmounting. Made with mount(2) directly (we run as root).
func makeStaleMount(at path: String) throws {
    let device = open("/dev/fuse", O_RDWR)
    guard device >= 0 else { throw FSError(errno) }
    let data = "fd=\(device),rootmode=40000,user_id=\(getuid()),group_id=\(getgid())"
    let mounted = mount("mailfs", path, "fuse.mailfs", UInt(MS_NOSUID | MS_NODEV), data)
    let mountErrno = errno
    close(device)
    guard mounted == 0 else { throw FSError(mountErrno) }
}
