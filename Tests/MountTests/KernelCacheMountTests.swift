import Foundation
import Synchronization
import TestSupport
import Testing

/// The kernel keeps names, attributes, listings and pages of the mount (long timeouts,
/// kept page cache, cached listings); a change made to the store by another process must
/// still be seen at once, while readers keep those caches hot.
@Suite("Mounted store changes under busy readers", .serialized)
struct KernelCacheMountTests {
    static let folder = "live/inbox"

    /// Readers that list, stat, read and ask for flags in a loop until stopped, so every
    /// kernel cache of the folder (and the tree's own: a read makes the kernel ask for the
    /// attributes again) stays filled while the store changes.
    final class BusyReaders: Sendable {
        private let running = Atomic<Bool>(true)
        private let group = DispatchGroup()

        init(_ mount: MountedMailfs, directory relative: String = KernelCacheMountTests.folder, count: Int = 4) {
            let directory = mount.path(relative)
            // Threads of their own: busy loops on GCD's global queues would take the
            // threads that this process's async work (Swift's cooperative pool) also needs.
            for _ in 0..<count {
                group.enter()
                Thread { [self] in
                    while running.load(ordering: .relaxed) { Self.touchEverything(in: directory) }
                    group.leave()
                }.start()
            }
        }

        private static func touchEverything(in directory: String) {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                let path = directory + "/" + name
                _ = try? FileManager.default.attributesOfItem(atPath: path)
                _ = try? FileManager.default.contentsOfDirectory(atPath: path)
                _ = FileManager.default.contents(atPath: path)
                _ = attribute(path, "user.mailfs.seen")
            }
        }

        func stop() async {
            running.store(false, ordering: .relaxed)
            _ = try? await ChildProcess.offPool { [group] in group.wait() }
        }
    }

    /// Applies SQL to the mount's store from another process, as a sync running elsewhere
    /// would (python's sqlite3: a connection the mount knows nothing about).
    static func changeStore(_ mount: MountedMailfs, _ sql: String) async throws {
        let script = """
            import sqlite3, sys
            db = sqlite3.connect(sys.argv[1], timeout=30)
            db.execute('PRAGMA foreign_keys = ON')
            db.executescript(sys.argv[2])
            db.commit()
            """
        let store = mount.dataDir.appendingPathComponent("mailfs.sqlite").path
        let result = try await Shell.run("/usr/bin/python3", ["-c", script, store, sql])
        #expect(result.status == 0, "\(result.output)")
    }

    static func seenFlag(_ path: String) -> String? {
        try? attribute(path, "user.mailfs.seen").get()
    }

    func mountedWithOneMessage() async throws -> MountedMailfs {
        let mount = try MountedMailfs()
        let first = mount.root.appendingPathComponent("first")
        try LiveMountTests.writeMaildir(first, ["1:2,": LiveMountTests.message("one@t", subject: "First")])
        try await mount.importMail("live", from: first)
        try await mount.start()
        return mount
    }

    @Test("a message imported, flagged and removed elsewhere is seen at once by ls, cat and getxattr")
    func changesReachBusyReaders() async throws {
        let mount = try await mountedWithOneMessage()
        let readers = BusyReaders(mount)
        try await runThenCleanUp({
            let firstName = "2026-11-21 1000 Tester - First.eml"
            let first = mount.path("\(Self.folder)/\(firstName)")
            #expect(Self.seenFlag(first) == "0")

            let second = mount.root.appendingPathComponent("second")
            try LiveMountTests.writeMaildir(second, ["2:2,": LiveMountTests.message("two@t", subject: "Second", body: "new body\n")])
            try await mount.importMail("live", from: second)
            let secondPath = mount.path("\(Self.folder)/2026-11-21 1000 Tester - Second.eml")
            #expect(try await Poll.until(seconds: 5) {
                FileManager.default.contents(atPath: secondPath).map { $0.suffix(9) == Data("new body\n".utf8) } ?? false
            })
            // A LOOKUP of the new name asks the store itself, so the file can be read before
            // the store watcher (4 Hz for another process's commits) refreshed the listing.
            #expect(try await Poll.until(seconds: 5) { try await mount.sh("ls \(Self.folder)").lines.count == 2 })

            try await Self.changeStore(mount, "UPDATE email SET isRead = 1 WHERE messageId = 'one@t'")
            #expect(try await Poll.until(seconds: 5) { Self.seenFlag(first) == "1" })

            try await Self.changeStore(mount, "DELETE FROM email WHERE messageId = 'one@t'")
            #expect(try await Poll.until(seconds: 5) {
                let listed = (try? FileManager.default.contentsOfDirectory(atPath: mount.path(Self.folder))) ?? []
                let descriptor = open(first, O_RDONLY)
                if descriptor >= 0 { close(descriptor) }
                return !listed.contains(firstName) && descriptor < 0 && errno == ENOENT
            })
            #expect(try await mount.sh("ls \(Self.folder)").lines == ["2026-11-21 1000 Tester - Second.eml"])
        }, cleanUp: { await readers.stop() })
    }

    /// `stat -c FORMAT` of a path in the mount, trimmed.
    static func stat(_ mount: MountedMailfs, _ format: String, _ path: String) async throws -> String {
        try await mount.sh("stat -c '\(format)' '\(path)'").output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a message's link count and a thread's date changed elsewhere are seen at once by stat while readers keep them cached")
    func attributesReachBusyReaders() async throws {
        let mount = try await mountedWithOneMessage()
        let threadsReader = BusyReaders(mount, directory: "live/threads", count: 2)
        let readers = BusyReaders(mount, count: 2)
        try await runThenCleanUp({
            let first = "\(Self.folder)/2026-11-21 1000 Tester - First.eml"
            let thread = try #require(try await mount.sh("ls live/threads").lines.first)
            #expect(try await Self.stat(mount, "%h", first) == "1")
            let threadDate = try await Self.stat(mount, "%Y", "live/threads/\(thread)")

            try await Self.changeStore(mount, """
                INSERT INTO folder (accountId, path, imapPath, type) SELECT accountId, 'other', 'other', 'custom' FROM folder;
                INSERT INTO emailFolder (emailId, folderId, imapUID) SELECT e.id, d.id, 1 FROM email e, folder d WHERE d.path = 'other';
                UPDATE thread SET latestDate = '2030-01-01 00:00:00.000';
                """)
            #expect(try await Poll.until(seconds: 5) { try await Self.stat(mount, "%h", first) == "2" })
            #expect(try await Poll.until(seconds: 5) {
                try await Self.stat(mount, "%Y", "live/threads/\(thread)") == "1893456000"
            }, "the thread's mtime was \(threadDate) before")
        }, cleanUp: {
            await readers.stop()
            await threadsReader.stop()
        })
    }

    /// attachments/<message>/ directories keep their attributes in the daemon and their
    /// listings in the kernel (docs/DECISIONS.md, "A directory's GETATTR gives the mtime its
    /// listing entry gave"): a message added or removed elsewhere must still show at once.
    @Test("a message with an attachment imported and removed elsewhere shows and leaves attachments/ at once while readers keep it cached")
    func attachmentDirectoriesReachBusyReaders() async throws {
        let mount = try await mountedWithOneMessage()
        let readers = BusyReaders(mount, directory: "live/attachments", count: 2)
        try await runThenCleanUp({
            let raw = LiveMountTests.message(
                "two@t", subject: "Files", headers: ["MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=b"],
                body: "--b\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n"
                    + "--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"report.pdf\"\r\n"
                    + "Content-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n--b--\r\n")
            let second = mount.root.appendingPathComponent("second")
            try LiveMountTests.writeMaildir(second, ["2:2,": raw])
            try await mount.importMail("live", from: second)
            let directory = "live/attachments/2026-11-21 1000 Tester - Files"
            let file = mount.path("\(directory)/report.pdf")
            #expect(try await Poll.until(seconds: 5) {
                FileManager.default.contents(atPath: file) == Data("%PDF-1.4\n".utf8)
            })
            #expect(try await Self.stat(mount, "%Y", directory) == "1795255200", "the message's date, as listed")
            // As for a new message: the lookup can come before the listing is refreshed.
            #expect(try await Poll.until(seconds: 5) {
                try await mount.sh("ls -l --time-style=+%s live/attachments").output.contains(" 1795255200 2026-11-21 1000 Tester - Files")
            })

            try await Self.changeStore(mount, "DELETE FROM email WHERE messageId = 'two@t'")
            #expect(try await Poll.until(seconds: 5) {
                let listed = (try? FileManager.default.contentsOfDirectory(atPath: mount.path("live/attachments"))) ?? ["?"]
                return listed.isEmpty && !FileManager.default.fileExists(atPath: mount.path(directory))
            })
        }, cleanUp: { await readers.stop() })
    }

    /// A store change rebuilds only the listings the kernel was sent within the time it
    /// trusts them (docs/DECISIONS.md, "A store change rebuilds only the listings the kernel
    /// may still trust"); the others are dropped and their cached pages with them. With a
    /// one-second cache the kernel trusts nothing listed four seconds before.
    @Test("a change elsewhere to listings read longer ago than the kernel trusts them is seen at once by ls, stat and cat")
    func changesAfterTheKernelsTrust() async throws {
        let mount = try MountedMailfs()
        let reply = LiveMountTests.message("two@t", subject: "Re: First", date: "Sat, 21 Nov 2026 11:00:00 +0000",
                                           inReplyTo: "one@t", body: "indeed\n")
        let maildir = mount.root.appendingPathComponent("both")
        try LiveMountTests.writeMaildir(maildir, ["1:2,": LiveMountTests.message("one@t", subject: "First"),
                                                  "2:2,": reply])
        try await mount.importMail("live", from: maildir)
        try await mount.start(extraArguments: ["--cache-seconds", "1"])
        let first = "\(Self.folder)/2026-11-21 1000 Tester - First.eml"
        let second = mount.path("\(Self.folder)/2026-11-21 1100 Tester - Re: First.eml")
        let thread = try #require(try await mount.sh("ls live/threads").lines.first)
        // The folder's two messages; the thread's two and its conversation.txt.
        #expect(try await mount.sh("ls '\(Self.folder)' 'live/threads/\(thread)'").lines.count == 7)
        #expect(try await Self.stat(mount, "%h", first) == "1")
        #expect(FileManager.default.contents(atPath: second) != nil)
        try await Task.sleep(for: .seconds(4))

        try await Self.changeStore(mount, """
            DELETE FROM email WHERE messageId = 'two@t';
            INSERT INTO folder (accountId, path, imapPath, type) SELECT accountId, 'other', 'other', 'custom' FROM folder;
            INSERT INTO emailFolder (emailId, folderId, imapUID) SELECT e.id, d.id, 1 FROM email e, folder d WHERE d.path = 'other';
            """)
        #expect(try await Poll.until(seconds: 5) {
            try await mount.sh("ls '\(Self.folder)' 'live/threads/\(thread)'").lines.count == 5
        })
        #expect(try await Self.stat(mount, "%h", first) == "2")
        #expect(FileManager.default.contents(atPath: second) == nil)
    }

    @Test("security and ACL attributes are EOPNOTSUPP without reaching the tree; user.mailfs ones still answer")
    func foreignAttributes() async throws {
        let mount = try await mountedWithOneMessage()
        let path = mount.path("\(Self.folder)/2026-11-21 1000 Tester - First.eml")
        for name in ["security.selinux", "system.posix_acl_access", "trusted.x"] {
            #expect(attribute(path, name) == .failure(Errno(EOPNOTSUPP)), "\(name)")
        }
        #expect(Self.seenFlag(path) == "0")
        #expect(attribute(path, "user.other") == .failure(Errno(ENODATA)))
        #expect(try await mount.sh("ls -l \(Self.folder)").status == 0)
    }
}

struct Errno: Error, Equatable {
    var code: Int32
    init(_ code: Int32) { self.code = code }
}

/// getxattr(2) (not exported to Swift by Glibc; found with dlsym) as text, or its errno.
func attribute(_ path: String, _ name: String) -> Result<String, Errno> {
    typealias Getxattr = @convention(c) (UnsafePointer<CChar>, UnsafePointer<CChar>,
                                         UnsafeMutableRawPointer?, Int) -> Int
    guard let symbol = dlsym(nil, "getxattr") else { return .failure(Errno(ENOSYS)) }
    let call = unsafeBitCast(symbol, to: Getxattr.self)
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = call(path, name, &buffer, buffer.count)
    guard count >= 0 else { return .failure(Errno(errno)) }
    return .success(String(decoding: buffer[..<count], as: UTF8.self))
}
