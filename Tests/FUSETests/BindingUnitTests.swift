@testable import FUSE
import Foundation
import Testing

@Suite("Binding conversions") struct BindingUnitTests {
    @Test("errno replies: usable codes pass, 0/negative/huge become EIO, ENOSYS becomes ENOTSUP",
          arguments: [(ENOENT, ENOENT), (EROFS, EROFS), (0, EIO), (-2, EIO), (5000, EIO), (ENOSYS, ENOTSUP)]
              as [(Int32, Int32)])
    func replyCodes(thrown: Int32, sent: Int32) {
        #expect(FSError(thrown).replyCode == sent)
    }

    @Test("stat: kind bits, permissions, owner, blocks rounded up, times from modified")
    func statConversion() {
        let owner = FileOwner(uid: 1000, gid: 100)
        let file = FileAttributes(inode: 42, kind: .regular, permissions: 0o600, linkCount: 3,
                                  size: 513, modified: Date(timeIntervalSince1970: 1_700_000_000.25))
        let buffer = file.statBuffer(owner: owner)
        #expect(buffer.st_mode == S_IFREG | 0o600)
        #expect(buffer.st_ino == 42 && buffer.st_nlink == 3 && buffer.st_uid == 1000 && buffer.st_gid == 100)
        #expect(buffer.st_size == 513 && buffer.st_blocks == 2 && buffer.st_blksize == 4096)
        #expect(buffer.st_mtim.tv_sec == 1_700_000_000 && buffer.st_mtim.tv_nsec == 250_000_000)
        #expect(buffer.st_ctim.tv_sec == buffer.st_mtim.tv_sec && buffer.st_atim.tv_sec == buffer.st_mtim.tv_sec)
        let directory = FileAttributes(inode: 1, kind: .directory, permissions: 0o40700, linkCount: 2,
                                       size: UInt64.max, modified: .distantPast)
        let directoryBuffer = directory.statBuffer(owner: owner)
        #expect(directoryBuffer.st_mode == S_IFDIR | 0o700)
        #expect(directoryBuffer.st_size == Int.max)
    }

    @Test("times before 1970 round down; non-finite times are the epoch",
          arguments: [(-1.5, -2, 500_000_000), (0.0, 0, 0), (Double.nan, 0, 0), (Double.infinity, 0, 0)]
              as [(Double, Int, Int)])
    func times(seconds: Double, sec: Int, nsec: Int) {
        let time = timespec(Date(timeIntervalSince1970: seconds))
        #expect(time.tv_sec == sec && time.tv_nsec == nsec)
    }

    @Test("listings start with . and .., and leave out names the kernel would reject")
    func listingNames() {
        let attributes = FileAttributes(inode: 9, kind: .regular, permissions: 0o600, linkCount: 1,
                                        size: 0, modified: Date())
        let names = ["ok.eml", "", ".", "..", "a/b", "nul\0", String(repeating: "x", count: 256),
                     String(repeating: "é", count: 127)]
        var zero = attributes
        zero.inode = 0
        let children = names.map { DirectoryEntry(name: $0, attributes: attributes) }
            + [DirectoryEntry(name: "zero", attributes: zero)]
        let listing = DirectoryListing(directory: 7, children: children)
        let entries = (0..<listing.count).map(listing.entry(at:))
        #expect(entries.map(\.name) == [".", "..", "ok.eml", String(repeating: "é", count: 127)])
        #expect(entries.map(\.inode) == [7, 1, 9, 9])
        #expect(entries.map { $0.attributes == nil } == [true, true, false, false])

        let servable = Array(children[0...0] + children[7...7])
        let shared = DirectoryListing(directory: 7, children: servable)
        #expect((0..<shared.count).map { shared.entry(at: $0).name } == [".", "..", "ok.eml", String(repeating: "é", count: 127)])
    }

    @Test("session arguments carry fsname, subtype, default_permissions; allow_other only when asked")
    func sessionArguments() {
        var options = MountOptions(mountPoint: "/m")
        #expect(options.sessionArguments == ["mailfs", "-o", "fsname=mailfs,subtype=mailfs,default_permissions"])
        options.allowOther = true
        options.debug = true
        options.fsname = "a,b"
        #expect(options.sessionArguments
            == ["mailfs", "-o", "fsname=a\\,b,subtype=mailfs,default_permissions,allow_other", "-d"])
    }
}
