import Foundation
import TestSupport
import Testing

/// What a server refuses must not make mail vanish, and must not hold back the account's
/// other changes: a `cp` whose APPEND is refused for good is kept in `lost+found/`, a file
/// with LF line ends reaches the server with CR LF, the mailbox open on the connection is
/// closed before an APPEND to it, and a change waiting for its retry lets a later `mkdir`
/// through. On every server of the matrix, except what only the no-MOVE Dovecot's raw log
/// can show.
@Suite("Write-back: refusals and line ends", .serialized)
struct WriteBackRefusalTests {
    typealias Server = WriteBack

    /// A letter as a user writes it: LF line ends only.
    static func unixFile(_ letter: Letter) -> String {
        letter.raw.replacingOccurrences(of: "\r\n", with: "\n")
    }

    @Test("cp into a folder deleted on the server meanwhile: refused for good (no retries), kept in lost+found/, said in .log and .status",
          arguments: IMAPServerKind.allCases)
    func refusedAppendIsKept(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let folder = try kind.unique("Gone")
            try await Server.createMailbox("alice", folder, on: kind)
            // Retries 20 s apart: a refusal retried before it is given up would take a minute.
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind, retryDelaySeconds: 20)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await mount.waitForDirectory("alice/\(folder)"))
            let seeded = try await Server.seed(["delete-mailbox", "--user", "alice", folder], on: kind)
            #expect(seeded.status == 0, "\(seeded.output)")

            let letter = Letter("Refused")
            let cp = try await mount.sh("cp '\(try mount.draft("refused.eml", Self.unixFile(letter)))' 'alice/\(folder)/'")
            #expect(cp.status == 0, "\(cp.output)")
            try await expect(mount.waitForFiles([letter.fileName], in: "alice/lost+found", seconds: 15), orExplain: {
                "lost+found: \((try? await mount.listing("alice/lost+found")) ?? []); \(mount.text("alice/.log"))"
            })
            #expect(try await !mount.listing("alice/\(folder)").contains(letter.fileName))
            #expect(try await mount.sh("cat 'alice/lost+found/\(letter.fileName)'").output.contains("write-back test"))
            #expect(mount.text("alice/.log").contains("kept in lost+found/"), "\(mount.text("alice/.log"))")
            #expect(mount.status("change_error", of: "alice")?.contains("lost+found") == true,
                    "\(mount.text("alice/.status"))")
            #expect(mount.pendingChanges("alice") == 0)
            #expect(try await Server.locate(letter, user: "alice", on: kind).isEmpty, "nothing appended anywhere")

            let rm = try await mount.sh("rm 'alice/lost+found/\(letter.fileName)'")
            #expect(rm.status == 0, "rm in lost+found/ deletes the local copy: \(rm.output)")
            #expect(try await mount.listing("alice/lost+found").isEmpty)
            #expect(mount.pendingChanges("alice") == 0)
        }
    }

    @Test("cp of a file with LF line ends: the APPEND carries CR LF, sent after the examined folder is closed (UNSELECT)")
    func appendSendsCRLF() async throws {
        try await SharedServers.shared {
            let folder = Server.unique("Crlf")
            try await Server.createMailbox("alice", folder)
            let mount = try MountedMailfs.configured([WriteBackAccount(imapPort: try Server.noMovePort)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await mount.waitForDirectory("alice/\(folder)"))
            let letter = Letter("Unix lines")
            let cp = try await mount.sh("cp '\(try mount.draft("unix.eml", Self.unixFile(letter)))' 'alice/\(folder)/'")
            #expect(cp.status == 0, "\(cp.output)")
            try await expect(Server.waitUntil(letter, user: "alice", isIn: [folder]), orExplain: { "\(mount.text("alice/.log"))" })
            // Dovecot writes a session's rawlog out when the session ends.
            await mount.stop()
            let subjectLine = Array("Subject: \(letter.subject)".utf8)
            var sent: [UInt8] = []
            #expect(try await Poll.until(seconds: 10) {
                sent = try Self.rawSessions("alice").first { $0.firstRange(of: subjectLine) != nil } ?? []
                return !sent.isEmpty
            }, "a session appended the letter")
            guard let range = sent.firstRange(of: subjectLine) else { return }
            #expect(Array(sent[range.upperBound...].prefix(2)) == [0x0D, 0x0A], "the Subject line ends in CR LF")
            let commands = String(decoding: sent[..<range.lowerBound], as: UTF8.self).uppercased()
            let examine = commands.range(of: "EXAMINE \"\(folder.uppercased())\"", options: .backwards)
            let unselect = commands.range(of: " UNSELECT", options: .backwards)
            let append = commands.range(of: " APPEND \"\(folder.uppercased())\"", options: .backwards)
            #expect(examine != nil && unselect != nil && append != nil, "\(commands.suffix(400))")
            if let examine, let unselect, let append {
                #expect(examine.upperBound < unselect.lowerBound && unselect.upperBound < append.lowerBound,
                        "EXAMINE, UNSELECT, APPEND: \(commands.suffix(400))")
            }
        }
    }

    @Test("while an rmdir waits for its retry, a later mkdir reaches the server at once", arguments: IMAPServerKind.allCases)
    func laterChangesGoAhead(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let (busy, made) = (try kind.unique("Busy"), try kind.unique("Made"))
            try await Server.createMailbox("alice", busy, on: kind)
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind, retryDelaySeconds: 20)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await mount.waitForDirectory("alice/\(busy)"))
            // Another client files a message there that the mount has not seen: the DELETE is
            // refused ("not empty on the server") and retried in 20 s.
            try await Server.append([Letter("Arrived meanwhile")], user: "alice", mailbox: busy, on: kind)
            let rmdir = try await mount.sh("rmdir 'alice/\(busy)'")
            #expect(rmdir.status == 0, "\(rmdir.output)")
            #expect(try await Poll.until(seconds: 10) { mount.text("alice/.log").contains("not empty on the server") },
                    "\(mount.text("alice/.log"))")

            let mkdir = try await mount.sh("mkdir 'alice/\(made)'")
            #expect(mkdir.status == 0, "\(mkdir.output)")
            #expect(try await Poll.until(seconds: 8) { try await Server.exists("alice", made, on: kind) },
                    "the CREATE did not wait for the DELETE's retry: \(mount.text("alice/.log"))")
            #expect(try await Server.count("alice", busy, on: kind) == 1, "the refused DELETE removed nothing")
        }
    }

    @Test("an rmdir refused while the server still has messages there is retried after N, 3N, 9N s, then reverted",
          arguments: IMAPServerKind.allCases)
    func transientRefusalIsRetried(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let busy = try kind.unique("Busy")
            try await Server.createMailbox("alice", busy, on: kind)
            let mount = try MountedMailfs.configured([WriteBackAccount(kind: kind, retryDelaySeconds: 1)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await mount.waitForDirectory("alice/\(busy)"))
            try await Server.append([Letter("Arrived meanwhile")], user: "alice", mailbox: busy, on: kind)
            let removed = Date()
            let rmdir = try await mount.sh("rmdir 'alice/\(busy)'")
            #expect(rmdir.status == 0, "\(rmdir.output)")
            #expect(try await Poll.until(seconds: 60) { try await mount.listing("alice").contains(busy) },
                    "back in the tree: \(mount.text("alice/.log"))")
            #expect(Date().timeIntervalSince(removed) >= 12, "retried after 1, 3 and 9 s first")
            #expect(mount.text("alice/.log").contains("retry 3"), "\(mount.text("alice/.log"))")
            #expect(mount.status("change_error", of: "alice")?.contains("not empty on the server") == true,
                    "\(mount.text("alice/.status"))")
            #expect(try await Server.count("alice", busy, on: kind) == 1)
        }
    }

    /// What clients sent to the no-MOVE Dovecot as `user`, one byte string per session.
    static func rawSessions(_ user: String) throws -> [[UInt8]] {
        let dir = URL(fileURLWithPath: try TestServers.env("MAIL_DIR"))
            .appendingPathComponent(user).appendingPathComponent("rawlog-nomove")
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".in") }.sorted().map {
            [UInt8]((try? Data(contentsOf: dir.appendingPathComponent($0))) ?? Data())
        }
    }
}
