import Foundation
import TestSupport
import Testing

/// Reading through the mount downloads what sync left on the server (raw_store_max_kb = 0
/// here, so every message and attachment is lazy), with real cat, cp, cmp, dd and sha256sum.
@Suite("Mounted lazy content", .serialized)
struct LazyMountTests {
    /// bob's account config with nothing stored whole at sync, and a mount of it.
    func mountBob(cacheLimitMB: Int = 500) async throws -> MountedMailfs {
        let mount = try MountedMailfs()
        try mount.writeConfig("""
            [accounts.bob]
            address = "\(try TestServers.env("BOB_EMAIL"))"
            username = "bob"
            password_command = "printenv MAILFS_TEST_BOB_PASSWORD"
            ca_file = "\(try TestServers.env("CA_FILE"))"
            raw_store_max_kb = 0
            cache_limit_mb = \(cacheLimitMB)

            [accounts.bob.imap]
            host = "127.0.0.1"
            port = \(try TestServers.env("IMAPS_PORT"))
            """)
        return mount
    }

    /// A message built by Python's email package (a real-world MIME generator) with a
    /// random binary attachment, a UTF-8 text attachment (quoted-printable) and a
    /// non-ASCII file name, appended to a new folder of bob's. Returns the folder.
    func seedMessage(in work: URL, subject: String, reportBytes: Int = 3_000_000) async throws -> String {
        let folder = "Lazy-\(UUID().uuidString.prefix(8))"
        #expect(try await TestServers.seedResult(["create-mailbox", "--user", "bob", folder]).status == 0)
        let script = """
            import email.message, email.policy, os, sys
            work, subject, message_id, report_bytes = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
            m = email.message.EmailMessage(policy=email.policy.SMTP)
            m['From'] = 'Ann <ann@example.test>'; m['To'] = 'bob@example.test'; m['Subject'] = subject
            m['Date'] = 'Sat, 21 Nov 2026 09:00:00 +0000'; m['Message-ID'] = '<%s>' % message_id
            m.set_content('The report is attached.')
            report = os.urandom(report_bytes); open(os.path.join(work, 'report.pdf'), 'wb').write(report)
            m.add_attachment(report, maintype='application', subtype='pdf', filename='report.pdf')
            notes = ('Zürich = naïve café ' * 40 + '\\n') * 200
            # Text travels in MIME's canonical form: its line breaks come back as CRLF.
            open(os.path.join(work, 'notes.txt'), 'wb').write(notes.replace('\\n', '\\r\\n').encode())
            m.add_attachment(notes, subtype='plain', filename='résumé notes.txt', cte='quoted-printable')
            open(os.path.join(work, 'message.eml'), 'wb').write(m.as_bytes())
            """
        let result = try await Shell.run("/usr/bin/python3", ["-c", script, work.path, subject, Self.messageId(subject), String(reportBytes)])
        #expect(result.status == 0, "\(result.output)")
        let append = try await TestServers.seedResult(["append", "--user", "bob", "--mailbox", folder,
                                                work.appendingPathComponent("message.eml").path])
        #expect(append.status == 0, "\(append.output)")
        return folder
    }

    @Test("cat, cp, cmp, dd and sha256sum see every byte of lazily downloaded messages and attachments")
    func readsThroughTheMount() async throws {
        try await SharedServers.shared {
            let mount = try await mountBob()
            let work = mount.root.appendingPathComponent("work")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let subject = "Lazy report \(UUID().uuidString.prefix(6))"
            let folder = try await seedMessage(in: work, subject: subject)
            try await mount.start()
            let eml = "bob/\(folder)/2026-11-21 0900 Ann - \(subject).eml"
            let attachments = "bob/attachments/2026-11-21 0900 Ann - \(subject)"
            #expect(try await Poll.until(seconds: 30) { try await mount.sh("ls '\(eml)'").status == 0 })
            let original = work.appendingPathComponent("message.eml").path
            let size = try FileManager.default.attributesOfItem(atPath: original)[.size] as? Int
            #expect(try await mount.sh("stat -c %s '\(eml)'").lines == ["\(size ?? -1)"], "st_size is exact before the download")
            #expect(try await mount.sh("cmp '\(eml)' '\(original)'").status == 0)
            #expect(try await mount.sh("head -c 200 '\(eml)'").output == String(decoding: try Data(contentsOf: URL(fileURLWithPath: original)).prefix(200), as: UTF8.self))
            #expect(try await mount.sh("dd if='\(eml)' bs=1000 skip=2000 count=5 status=none | cmp - <(dd if='\(original)' bs=1000 skip=2000 count=5 status=none)".bashed).status == 0)

            let logSizeBefore = try await mount.sh("stat -c %s bob/.log").lines
            #expect(try await mount.sh("ls '\(attachments)'").lines == ["report.pdf", "résumé notes.txt"])
            // Four readers at once, before anything is cached: one download of the part.
            let parallel = try await mount.sh("for i in 1 2 3 4; do sha256sum '\(attachments)/report.pdf' & done; wait")
            let digest = try await Shell.run("/usr/bin/sha256sum", [work.appendingPathComponent("report.pdf").path]).output.prefix(64)
            #expect(parallel.lines.count == 4 && parallel.lines.allSatisfy { $0.hasPrefix(digest) }, "\(parallel.output)")
            let log = try await mount.sh("cat bob/.log").output
            #expect(log.components(separatedBy: "part 2 (3000000 bytes)").count == 2, "one download: \(log)")
            // .log grew: stat is not answered from a cached size (tail -f, wc -c rely on it).
            #expect(try await Poll.until(seconds: 5) {
                let size = try await mount.sh("stat -c %s bob/.log").lines
                let content = try await mount.sh("cat bob/.log").output
                return size != logSizeBefore && size == [String(content.utf8.count)]
            })
            #expect(try await mount.sh("cp '\(attachments)/report.pdf' '\(work.path)/copy.pdf' && cmp '\(work.path)/copy.pdf' '\(work.path)/report.pdf'").status == 0)
            #expect(try await mount.sh("cmp '\(attachments)/résumé notes.txt' '\(work.path)/notes.txt'").status == 0)
            #expect(try await mount.sh("stat -c %s '\(attachments)/report.pdf'").lines == ["3000000"], "exact size once downloaded")
            let cacheLine = try await mount.sh("grep '^cache:' bob/.status").output
            #expect(cacheLine.hasPrefix("cache: ") && !cacheLine.hasPrefix("cache: 0 MB") && cacheLine.contains("/ 500 MB"), "\(cacheLine)")

            // Emptied cache: the next read downloads again.
            let clear = try await mount.mailfs(["cache", "clear", "bob", "--data-dir", mount.dataDir.path])
            #expect(clear.status == 0 && clear.output.contains("bob:"), "\(clear.output)")
            #expect(try await mount.sh("cmp '\(attachments)/report.pdf' '\(work.path)/report.pdf'").status == 0)
            #expect(try await mount.sh("cat bob/.log").output.components(separatedBy: "part 2 (3000000 bytes)").count == 3)
        }
    }

    @Test("a message deleted on the server since the sync is ENOENT at open and leaves the listing")
    func deletedOnServer() async throws {
        try await SharedServers.shared {
            let mount = try await mountBob()
            let work = mount.root.appendingPathComponent("work")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let subject = "Lazy gone \(UUID().uuidString.prefix(6))"
            let folder = try await seedMessage(in: work, subject: subject)
            try await mount.start()
            let eml = "bob/\(folder)/2026-11-21 0900 Ann - \(subject).eml"
            #expect(try await Poll.until(seconds: 30) { try await mount.sh("ls '\(eml)'").status == 0 })
            #expect(try await TestServers.seedResult(["expunge", "--user", "bob", "--mailbox", folder,
                                               "--message-id", "<\(Self.messageId(subject))>"]).status == 0)
            let read = try await mount.sh("cat '\(eml)' 2>&1 >/dev/null")
            #expect(read.status != 0 && read.output.contains("No such file"), "\(read.output)")
            #expect(try await Poll.until(seconds: 5) { try await mount.sh("ls bob/\(folder) | wc -l").lines == ["0"] })
        }
    }

    @Test("with the server stopped an uncached file is EIO within the retry bound; cached ones still read")
    func serverDown() async throws {
        try await SharedServers.exclusive {
            let mount = try await mountBob()
            let work = mount.root.appendingPathComponent("work")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            let subject = "Lazy down \(UUID().uuidString.prefix(6))"
            let folder = try await seedMessage(in: work, subject: subject)
            try await mount.start()
            let eml = "bob/\(folder)/2026-11-21 0900 Ann - \(subject).eml"
            let attachments = "bob/attachments/2026-11-21 0900 Ann - \(subject)"
            #expect(try await Poll.until(seconds: 30) { try await mount.sh("ls '\(eml)'").status == 0 })
            #expect(try await mount.sh("cmp '\(eml)' '\(work.path)/message.eml'").status == 0)
            #expect(try await IMAPServerKind.dovecot.control("stop") == 0)
            try await runThenCleanUp({
                let started = Date()
                let read = try await mount.sh("cat '\(attachments)/report.pdf' 2>&1 >/dev/null")
                #expect(Date().timeIntervalSince(started) < 15, "attempts after 0, 1, 3 and 7 s")
                #expect(read.status != 0 && read.output.contains("Input/output error"), "\(read.output)")
                #expect(try await mount.sh("cmp '\(eml)' '\(work.path)/message.eml'").status == 0, "cached content reads offline")
                #expect(mount.text("bob/.status").contains("download of message"), "\(mount.text("bob/.status"))")
            }, cleanUp: { #expect((try? await IMAPServerKind.dovecot.control("start")) == 0) })
        }
    }

    /// A mounted lazy account with one fresh message whose report.pdf has `reportBytes`;
    /// returns the mount, the scratch directory (with report.pdf) and the attachments directory.
    func mountWithReport(_ label: String, reportBytes: Int) async throws -> (MountedMailfs, URL, String) {
        let mount = try await mountBob()
        let work = mount.root.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let subject = "\(label) \(UUID().uuidString.prefix(6))"
        let folder = try await seedMessage(in: work, subject: subject, reportBytes: reportBytes)
        try await mount.start()
        let eml = "bob/\(folder)/2026-11-21 0900 Ann - \(subject).eml"
        #expect(try await Poll.until(seconds: 30) { try await mount.sh("ls '\(eml)'").status == 0 })
        return (mount, work, "bob/attachments/2026-11-21 0900 Ann - \(subject)")
    }

    /// How many downloads of a part of `bytes` bytes `.log` reports.
    static func downloads(_ mount: MountedMailfs, bytes: Int) async throws -> Int {
        try await mount.sh("cat bob/.log").output.components(separatedBy: " (\(bytes) bytes) in ").count - 1
    }

    @Test("parallel readers during the download of an 8 MB attachment get every byte from one FETCH; stat then shows the exact size")
    func parallelReadersWhileStreaming() async throws {
        try await SharedServers.shared {
            let size = 8_000_000
            let (mount, work, attachments) = try await mountWithReport("Lazy parallel", reportBytes: size)
            let file = "\(attachments)/report.pdf"
            let listed = try await mount.sh("stat -c %s '\(file)'").lines
            #expect(listed != ["\(size)"], "st_size is BODYSTRUCTURE's estimate before the download: \(listed)")
            // cat, cp, python and dd at once, all opened before the content is cached.
            // (The leading `:` ends sh's `cd "$MNT" &&`, which `&` would otherwise take along.)
            let readers = try await mount.sh("""
                :
                cat '\(file)' > '\(work.path)/by-cat' & cp '\(file)' '\(work.path)/by-cp' &
                python3 -c 'import sys; open(sys.argv[2], "wb").write(open(sys.argv[1], "rb").read())' '\(file)' '\(work.path)/by-python' &
                dd if='\(file)' of='\(work.path)/by-dd' bs=7777 status=none & wait
                """)
            #expect(readers.status == 0, "\(readers.output)")
            for copy in ["by-cat", "by-cp", "by-python", "by-dd"] {
                let compared = try await mount.sh("cmp '\(work.path)/\(copy)' '\(work.path)/report.pdf' 2>&1; wc -c < '\(work.path)/\(copy)'")
                #expect(compared.status == 0, "\(copy): \(compared.output)")
            }
            #expect(try await Self.downloads(mount, bytes: size) == 1, "one download for every reader")
            // The kernel's cached attributes were invalidated: the exact size, at once.
            #expect(try await mount.sh("stat -c %s '\(file)'").lines == ["\(size)"])
            #expect(try await mount.sh("wc -c < '\(file)'").lines == ["\(size)"])
            #expect(try await mount.sh("cmp '\(file)' '\(work.path)/report.pdf'").status == 0, "served from the cache")
            #expect(try await Self.downloads(mount, bytes: size) == 1)
        }
    }

    @Test("a reader that reads the first KB and closes: the download still completes and later reads come from the cache")
    func readerLeavesEarly() async throws {
        try await SharedServers.shared {
            let size = 6_000_000
            let (mount, work, attachments) = try await mountWithReport("Lazy early", reportBytes: size)
            let file = "\(attachments)/report.pdf"
            let head = try await mount.sh("head -c 1024 '\(file)' | cmp - <(head -c 1024 '\(work.path)/report.pdf')".bashed)
            #expect(head.status == 0, "\(head.output)")
            #expect(try await Poll.until(seconds: 30) { try await Self.downloads(mount, bytes: size) == 1 },
                    "the download went on after the reader closed")
            // Told to the kernel when the download ends, with no reader left to see EOF.
            #expect(try await Poll.until(seconds: 5) { try await mount.sh("stat -c %s '\(file)'").lines == ["\(size)"] })
            #expect(try await mount.sh("cmp '\(file)' '\(work.path)/report.pdf'").status == 0)
            #expect(try await Self.downloads(mount, bytes: size) == 1, "no second download")
        }
    }

    static func messageId(_ subject: String) -> String {
        subject.replacingOccurrences(of: " ", with: "-") + "@test"
    }

}

extension String {
    /// The command run by bash (for process substitution) from the mount's sh.
    var bashed: String { "bash -c '\(replacingOccurrences(of: "'", with: "'\\''"))'" }
}
