import Foundation
import TestSupport
import Testing

/// The mount while the store changes under it, hostile input, and how it ends.
@Suite("Mount lifecycle and live changes", .serialized)
struct LiveMountTests {
    static func writeMaildir(_ url: URL, _ messages: [String: [UInt8]]) throws {
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(at: url.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for (name, raw) in messages {
            try Data(raw).write(to: url.appendingPathComponent("cur/\(name)"))
        }
    }

    /// A message of the imported account's: from Tester to you, on 21 November 2026.
    static func message(_ id: String, subject: String, date: String = TestMessage.defaultDate, inReplyTo: String? = nil,
                        headers: [String] = [], body: String = "hello\n") -> [UInt8] {
        TestMessage(from: "Tester <t@example.org>", to: "you@demo.example", subject: subject, date: date,
                    messageID: id, inReplyTo: inReplyTo, headers: headers, body: body).bytes
    }

    @Test("mail imported while mounted appears at once, despite the kernel caches")
    func liveImport() async throws {
        let mount = try MountedMailfs()
        let first = mount.root.appendingPathComponent("first")
        try Self.writeMaildir(first, ["1:2,S": Self.message("one@t", subject: "First")])
        try await mount.importMail("live", from: first)
        try await mount.start()
        #expect(try await mount.sh("ls live/inbox").lines.count == 1)
        #expect(try await mount.sh("ls live/threads").lines.count == 1)

        let second = mount.root.appendingPathComponent("second")
        try Self.writeMaildir(second, ["2:2,": Self.message("two@t", subject: "Second arrival")])
        try await mount.importMail("live", from: second)
        try await mount.importMail("other", from: second)
        // Both imports must show without a remount: the new message in a listed folder, and
        // the new account at the root.
        try await expect(Poll.until(seconds: 10) {
            let inbox = try await mount.sh("ls live/inbox").lines
            let root = try await mount.sh("ls").lines
            return inbox.count == 2 && root.contains("other")
        }, orExplain: { "root: \((try? await mount.sh("ls -la").output) ?? "?"), inbox: \((try? await mount.sh("ls live/inbox").output) ?? "?")" })
        let inbox = try await mount.sh("ls live/inbox")
        #expect(inbox.lines.count == 2)
        #expect(inbox.lines.contains("2026-11-21 1000 Tester - Second arrival.eml"))
        #expect(try await mount.sh("cat 'live/inbox/2026-11-21 1000 Tester - Second arrival.eml'").output.hasSuffix("hello\n"))
        #expect(try await mount.sh("ls").lines.contains("other"))
        #expect(try await mount.sh("ls live/threads").lines.count == 2)
        #expect(try await mount.sh("grep -c '^live: ' .status").lines == ["1"])
    }

    @Test("a mailbox of broken and hostile messages mounts with safe names and readable files")
    func hostile() async throws {
        let mount = try MountedMailfs()
        var messages: [String: [UInt8]] = [:]
        let subjects = ["../../etc/passwd", "/", "..", "\u{1}\u{1B}[31mred", String(repeating: "ü", count: 1000),
                        ".hidden", "trailing dots...", "=?utf-8?B?Li4vLi4v?="]
        for (n, subject) in subjects.enumerated() { messages["h\(n):2,"] = Self.message("h\(n)@t", subject: subject) }
        messages["nul:2,"] = Array("Subject: a\u{0}b\r\n\r\nx\u{0}y".utf8)
        messages["long:2,"] = Array("X-Long: ".utf8) + [UInt8](repeating: 66, count: 2 << 20) + Array("\r\nSubject: long\r\n\r\nb".utf8)
        messages["badutf8:2,"] = Array("Subject: ".utf8) + [0xC3, 0x28, 0xFF] + Array("\r\n\r\n".utf8) + [0xFE]
        messages["truncated:2,"] = Array("Subject: cut\r\nContent-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\nContent-Type: text/pl".utf8)
        let dir = mount.root.appendingPathComponent("hostile")
        try Self.writeMaildir(dir, messages)
        try await mount.importMail("hostile", from: dir)
        try await mount.start()
        let names = try await mount.sh("find hostile -mindepth 1 -printf '%f\\n'")
        #expect(names.status == 0)
        #expect(names.lines.count >= messages.count)
        for name in names.lines {
            #expect(name != "." && name != ".." && !name.contains("/") && name.utf8.count <= 255, "\(name)")
            #expect(!name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(name.debugDescription)")
        }
        #expect(try await mount.sh("ls hostile/inbox | wc -l").lines == ["\(messages.count)"])
        #expect(try await mount.sh("cat hostile/inbox/* hostile/threads/*/* > /dev/null").status == 0)
        #expect(!FileManager.default.fileExists(atPath: "/etc/passwd.eml"))
    }

    @Test("SIGTERM and SIGINT unmount cleanly")
    func signals() async throws {
        for signal in [SIGTERM, SIGINT] {
            let mount = try MountedMailfs()
            try await mount.importMail("demo", from: DemoMountTests.demoMail)
            try await mount.start()
            try #require(mount.process).signal(signal)
            await mount.waitForExit(seconds: 10)
            #expect(mount.process?.isRunning == false, "\(mount.log)")
            #expect(!mount.isMounted)
        }
    }

    @Test("a stale mount left by a crashed run is detached at the next start, with a word in its log")
    func staleMount() async throws {
        let mount = try MountedMailfs()
        try await mount.importMail("demo", from: DemoMountTests.demoMail)
        try await mount.start()
        try #require(mount.process).signal(SIGKILL)
        await mount.waitForExit(seconds: 10)
        var info = statvfs()
        #expect(statvfs(mount.mountPoint.path, &info) != 0 && errno == ENOTCONN, "the killed mount should be stale")
        try await mount.start()
        #expect(try await mount.listing("demo").contains("inbox"))
        let log = (try? String(contentsOf: mount.root.appendingPathComponent("mount.log"), encoding: .utf8)) ?? ""
        #expect(log.contains("was still mounted by a mailfs that stopped without unmounting"), "\(log)")
    }
}
