import Foundation
import Testing
import TestSupport

/// `mailfs show`, run as the built binary ($MAILFS_BIN, else .build/debug/mailfs).
@Suite("mailfs show")
struct ShowCommandTests {
    static let binary = ProcessInfo.processInfo.environment["MAILFS_BIN"]
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug/mailfs")
            .standardized.path

    /// A directory with `inbox/` (two messages) and `threads/Budget 2027/` (the same two).
    final class Tree {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-show-\(UUID().uuidString)")
        var inbox: URL { root.appendingPathComponent("inbox") }
        var thread: URL { root.appendingPathComponent("threads/Budget 2027") }

        init() throws {
            let first = TestMessage(from: "Zoë Laurent <zoe@example.com>", subject: "Budget 2027",
                                    date: "Mon, 2 Nov 2026 14:32:00 +0000",
                                    headers: ["MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
                                              "Content-Transfer-Encoding: quoted-printable"],
                                    body: "Zo=C3=AB Laurent =E2=80=94 Atelier\r\n")
            let reply = TestMessage(from: "Bob <bob@example.com>", subject: "Re: Budget 2027",
                                    date: "Tue, 3 Nov 2026 09:10:00 +0000",
                                    headers: ["MIME-Version: 1.0", "Content-Type: text/html; charset=utf-8"],
                                    body: "<p>Agreed, <a href=\"https://example.com/b\">see</a>.</p>\r\n")
            for directory in [inbox, thread] {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                // Named so that name order is not date order: the thread is sorted by date.
                try first.write(to: directory.appendingPathComponent("b first.eml"))
                try reply.write(to: directory.appendingPathComponent("a reply.eml"))
            }
        }

        deinit { try? FileManager.default.removeItem(at: root) }
    }

    @Test("a message file is printed decoded, with its heading")
    func oneFile() async throws {
        let tree = try Tree()
        let result = try await ChildProcess.run(Self.binary, ["show", tree.inbox.appendingPathComponent("b first.eml").path])
        #expect(result.status == 0)
        #expect(result.output == """
            Subject: Budget 2027
            From: Zoë Laurent <zoe@example.com>
            To: alice@example.test
            Date: 2026-11-02 14:32 UTC
            File: b first.eml

            Zoë Laurent — Atelier

            """)
    }

    @Test("a thread directory is one conversation, oldest first")
    func threadDirectory() async throws {
        let tree = try Tree()
        let result = try await ChildProcess.run(Self.binary, ["show", tree.thread.path])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("Thread: Budget 2027\n"))
        let first = try #require(result.output.range(of: "=== 1/2  2026-11-02 14:32 UTC  Zoë Laurent <zoe@example.com>\n"))
        let second = try #require(result.output.range(of: "=== 2/2  2026-11-03 09:10 UTC  Bob <bob@example.com>\n"))
        #expect(first.upperBound < second.lowerBound)
        #expect(result.output.hasSuffix("Agreed, see [1].\n\nLinks:\n[1] https://example.com/b\n"))
    }

    @Test("a folder's messages are each shown")
    func folder() async throws {
        let tree = try Tree()
        let result = try await ChildProcess.run(Self.binary, ["show", tree.inbox.path])
        #expect(result.status == 0)
        #expect(result.output.components(separatedBy: "\nSubject: ").count == 2)
        #expect(result.output.contains("File: a reply.eml\n") && result.output.contains("File: b first.eml\n"))
    }

    @Test("`-` reads one message from stdin, as a display filter")
    func standardInput() async throws {
        let tree = try Tree()
        let file = tree.inbox.appendingPathComponent("a reply.eml").path
        let result = try await ChildProcess.run("/bin/sh", ["-c", "exec \"$0\" show - < \"$1\"", Self.binary, file])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("Subject: Re: Budget 2027\nFrom: Bob <bob@example.com>\n"))
        #expect(!result.output.contains("File:"))
        #expect(result.output.contains("\nAgreed, see [1].\n"))
    }

    @Test("a path that cannot be read is an error on stderr and exit status 1; the others are still shown")
    func errors() async throws {
        let tree = try Tree()
        let empty = tree.root.appendingPathComponent("empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        let missing = tree.root.appendingPathComponent("missing.eml").path
        let result = try await ChildProcess.run(Self.binary, ["show", missing, empty.path,
                                                              tree.inbox.appendingPathComponent("b first.eml").path])
        #expect(result.status == 1)
        #expect(result.output.contains("mailfs show: \(missing): no such file or directory\n"))
        #expect(result.output.contains("mailfs show: \(empty.path): no .eml files in this directory\n"))
        #expect(result.output.contains("Zoë Laurent — Atelier\n"))
    }

    @Test("`mailfs --help` lists show")
    func help() async throws {
        let result = try await ChildProcess.run(Self.binary, ["--help"])
        #expect(result.output.contains("show"))
        #expect(result.output.contains("readable text"))
    }
}
