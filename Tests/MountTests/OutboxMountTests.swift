import Foundation
import TestSupport
import Testing

/// Sending by copying a file into ACCOUNT/outbox/ of a real mount (DESIGN.md §3), through
/// the test Postfix, which delivers to bob's INBOX on the test Dovecot.
@Suite("Mounted outbox", .serialized)
struct OutboxMountTests {
    typealias Servers = OutboxServers

    @Test("a file copied into outbox/ over implicit TLS is listed while queued, reaches bob once and shows in sent/")
    func implicitTLS() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs.outbox([try .on("SMTPS_PORT")])
            try mount.start()
            #expect(try mount.waitForIdle("alice"), "the Sent folder is known before the first send")
            let subject = Servers.uniqueSubject("Lunch")
            let file = try mount.draft("hi.eml", Servers.message(subject: subject))
            let copied = try mount.sh("cp '\(file)' alice/outbox/ && ls alice/outbox/ && getfattr -d alice/outbox/hi.eml")
            #expect(copied.status == 0, "\(copied.output)")
            #expect(copied.lines.first == "hi.eml", "\(copied.output)")
            #expect(copied.output.contains("user.mailfs.state=\"queued\"") || copied.output.contains("user.mailfs.state=\"sending\""),
                    "\(copied.output)")
            #expect(try Poll.until(seconds: 20) { try mount.sh("ls -A alice/outbox/").output.isEmpty })
            #expect(try Servers.delivered(subject) == 1)
            #expect(try Poll.until(seconds: 20) { try mount.sh("ls alice/sent/").output.contains(subject) },
                    "\(mount.text("alice/.log"))")
        }
    }

    @Test("a file copied into outbox/ goes over STARTTLS on the submission port")
    func startTLS() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs.outbox([try .on("SUBMISSION_PORT", security: "starttls")])
            try mount.start()
            let subject = Servers.uniqueSubject("Submission")
            let file = try mount.draft("starttls.eml", Servers.message(subject: subject))
            #expect(try mount.sh("cp '\(file)' alice/outbox/").status == 0)
            #expect(try Servers.delivered(subject) == 1, "\(mount.text("alice/.log"))")
            #expect(try Poll.until(seconds: 10) { try mount.sh("ls -A alice/outbox/").output.isEmpty })
        }
    }

    @Test("an unknown recipient fails with the server's 550; touch sends it again, rm discards it")
    func unknownRecipient() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs.outbox([try .on("SMTPS_PORT")])
            try mount.start()
            let file = try mount.draft("nobody.eml", Servers.message(subject: Servers.uniqueSubject("Nobody"),
                                                                     to: "nobody@example.test"))
            let queued = "alice/outbox/nobody.eml"
            #expect(try mount.sh("cp '\(file)' alice/outbox/").status == 0)
            #expect(try Poll.until(seconds: 20) { try mount.sendState(queued) == "failed" })
            let error = try mount.xattr("user.mailfs.error", of: queued) ?? ""
            #expect(error.contains("550") && error.contains("nobody@example.test"), "\(error)")
            let status = try mount.sh("cat alice/.status").output
            #expect(status.contains("outbox: 0 queued, 0 sending, 1 failed") && status.contains("550"), "\(status)")

            let touched = try mount.sh("touch \(queued) && getfattr --only-values -n user.mailfs.state \(queued)")
            #expect(touched.status == 0 && ["queued", "sending", "failed"].contains(touched.output), "\(touched.output)")
            #expect(try Poll.until(seconds: 20) {
                try mount.sh("cat alice/.log").output.components(separatedBy: "nobody.eml failed: ").count == 3
            }, "a second attempt fails again: \(mount.text("alice/.log"))")
            #expect(try mount.sh("cat alice/.log").output.contains("nobody.eml queued again"))
            #expect(try mount.sendState(queued) == "failed")

            #expect(try mount.sh("rm \(queued)").status == 0)
            #expect(try mount.sh("ls -A alice/outbox/").output.isEmpty)
            #expect(try mount.sh("cat alice/.status").output.contains("outbox: 0 queued, 0 sending, 0 failed"))
            #expect(try mount.sh("cat alice/.log").output.contains("nobody.eml discarded (failed)"))
        }
    }

    @Test("empty, binary, image, recipient-less, foreign-From and header-injection files make cp fail with the reason in .log",
          arguments: [
              ("empty.eml", "empty file"),
              ("garbage.eml", "not a mail message"),
              ("picture.eml", "not a mail message"),
              ("norecipient.eml", "no recipient"),
              ("foreign.eml", "From <mallory@evil.test> is not this account's address"),
              ("injection.eml", "header injection"),
          ])
    func invalidFile(name: String, reason: String) async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs.outbox([try .on("SMTPS_PORT")])
            try mount.start()
            let file = try Self.invalidDraft(name, in: mount)
            let copied = try mount.sh("cp '\(file)' alice/outbox/")
            #expect(copied.status != 0 && copied.output.contains("Invalid argument"), "\(copied.output)")
            #expect(try mount.sh("ls -A alice/outbox/").output.isEmpty)
            #expect(try mount.sh("cat alice/.log").output.contains("outbox: \(name) refused: \(reason)"),
                    "\(mount.text("alice/.log"))")
            #expect(try mount.sh("cat alice/.status").output.contains("last_error: outbox: \(name) refused: \(reason)"))
            #expect(try mount.sh("cat alice/.status").output.contains("outbox: 0 queued, 0 sending, 0 failed"))
        }
    }

    /// The invalid file `name` of `invalidFile`, written outside the mount.
    static func invalidDraft(_ name: String, in mount: MountedMailfs) throws -> String {
        let subject = Servers.uniqueSubject("Refused")
        switch name {
        case "garbage.eml":
            let path = try mount.draft(name, "")
            #expect(try Shell.run("/bin/sh", ["-c", "head -c 4096 /dev/urandom > \"$0\"", path]).status == 0)
            return path
        case "picture.eml":
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52,
                                0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89]
            let path = try mount.draft(name, "")
            try Data(png).write(to: URL(fileURLWithPath: path))
            return path
        case "norecipient.eml":
            return try mount.draft(name, "Subject: \(subject)\n\nTo whom?\n")
        case "foreign.eml":
            return try mount.draft(name, Servers.message(subject: subject, extra: "From: mallory@evil.test\n"))
        case "injection.eml":
            return try mount.draft(name, "To: bob@example.test\nSubject: =?utf-8?q?x=0D=0ABcc:_evil@example.test?=\n\nhi\n")
        default:
            return try mount.draft(name, "")
        }
    }

    @Test("a file over the server's SIZE makes cp fail with EFBIG and is not queued")
    func overServerSize() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs.outbox([try .on("SMTPS_PORT")])
            try mount.start()
            // Postfix's message_size_limit is 10240000 bytes: about 12 MB of text lines.
            let line = String(repeating: "0123456789", count: 7) + "\n"
            let file = try mount.draft("big.eml", Servers.message(subject: Servers.uniqueSubject("Big"))
                                       + String(repeating: line, count: 170_000))
            let copied = try mount.sh("cp '\(file)' alice/outbox/")
            #expect(copied.status != 0 && copied.output.contains("File too large"), "\(copied.output)")
            #expect(try mount.sh("ls -A alice/outbox/").output.isEmpty)
            #expect(try mount.sh("cat alice/.log").output.contains("big.eml refused: message is"))
        }
    }

    @Test("rm within the undo delay cancels the send; a message left alone goes after the delay")
    func undo() async throws {
        try await SharedServers.shared {
            var account = try OutboxAccount.on("SMTPS_PORT")
            account.undoSeconds = 3
            let mount = try MountedMailfs.outbox([account])
            try mount.start()
            let (cancelled, kept) = (Servers.uniqueSubject("Cancelled"), Servers.uniqueSubject("Kept"))
            let first = try mount.draft("cancel.eml", Servers.message(subject: cancelled))
            let second = try mount.draft("keep.eml", Servers.message(subject: kept))
            let copied = Date()
            let result = try mount.sh("cp '\(first)' alice/outbox/ && getfattr --only-values -n user.mailfs.state "
                                      + "alice/outbox/cancel.eml && rm alice/outbox/cancel.eml && cp '\(second)' alice/outbox/")
            #expect(result.status == 0 && result.output == "queued", "\(result.output)")
            #expect(try mount.sh("ls -A alice/outbox/").lines == ["keep.eml"])
            #expect(try Poll.until(seconds: 20) { try Servers.bobCount(kept) > 0 })
            #expect(Date().timeIntervalSince(copied) >= 3, "held for the undo delay")
            try await Task.sleep(for: .seconds(max(0, 6 - Date().timeIntervalSince(copied))))
            #expect(try Servers.bobCount(cancelled) == 0)
            #expect(try Servers.bobCount(kept) == 1)
            #expect(try mount.sh("cat alice/.log").output.contains("cancel.eml discarded (queued)"))
        }
    }

    @Test("with Postfix down the message stays queued with the error, then goes exactly once when it is back")
    func serverDown() async throws {
        try await SharedServers.exclusive {
            var account = try OutboxAccount.on("SMTPS_PORT")
            account.sendRetryDelaySeconds = 1
            let mount = try MountedMailfs.outbox([account])
            try mount.start()
            #expect(try Servers.postfix("stop") == 0)
            var postfixDown = true
            defer { if postfixDown { _ = try? Servers.postfix("start") } }
            let subject = Servers.uniqueSubject("Offline")
            let file = try mount.draft("offline.eml", Servers.message(subject: subject))
            let queued = "alice/outbox/offline.eml"
            #expect(try mount.sh("cp '\(file)' alice/outbox/").status == 0)
            #expect(try Poll.until(seconds: 5) { try mount.xattr("user.mailfs.error", of: queued) != nil })
            #expect(try mount.sendState(queued) == "queued")
            // Retries come 1, 4 and 16 s after a failure: Postfix is back before the last one.
            #expect(try Servers.postfix("start") == 0)
            postfixDown = false
            #expect(try Servers.delivered(subject, within: 25) == 1, "\(mount.text("alice/.log"))")
            #expect(try Poll.until(seconds: 5) { try mount.sh("ls -A alice/outbox/").output.isEmpty })
            #expect(try mount.sh("cat alice/.log").output.contains("offline.eml not sent: "))
        }
    }

    @Test("a message queued when the mount is killed during the undo delay is sent once after remount")
    func killedDuringUndo() async throws {
        try await SharedServers.shared {
            var account = try OutboxAccount.on("SMTPS_PORT")
            account.undoSeconds = 5
            let mount = try MountedMailfs.outbox([account])
            try mount.start()
            let subject = Servers.uniqueSubject("Crash undo")
            let file = try mount.draft("crash.eml", Servers.message(subject: subject))
            #expect(try mount.sh("cp '\(file)' alice/outbox/").status == 0)
            mount.crash()
            #expect(!mount.isMounted)
            account.undoSeconds = 0
            try mount.configure([account])
            try mount.start()
            let state = try mount.sendState("alice/outbox/crash.eml")
            #expect(state == "queued" || state == "sending", "still queued after the crash: \(String(describing: state))")
            #expect(try Servers.delivered(subject) == 1, "\(mount.text("alice/.log"))")
            #expect(try Poll.until(seconds: 5) { try mount.sh("ls -A alice/outbox/").output.isEmpty })
        }
    }

    @Test("a message being sent when the mount is killed is queued again after remount and sent once")
    func killedDuringSending() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs()
            let silent = try SilentServer(in: mount.root)
            var account = OutboxAccount(user: "alice", smtpPort: silent.port)
            try mount.configure([account])
            try mount.start()
            let subject = Servers.uniqueSubject("Crash sending")
            let file = try mount.draft("inflight.eml", Servers.message(subject: subject))
            #expect(try mount.sh("cp '\(file)' alice/outbox/").status == 0)
            #expect(try Poll.until(seconds: 10) { try mount.sendState("alice/outbox/inflight.eml") == "sending" })
            mount.crash()
            account.smtpPort = try Servers.port("SMTPS_PORT")
            try mount.configure([account])
            try mount.start()
            #expect(try Servers.delivered(subject) == 1, "\(mount.text("alice/.log"))")
            #expect(try mount.sh("cat alice/.log").output.contains("1 message(s) interrupted mid-send queued again"))
            #expect(try Poll.until(seconds: 5) { try mount.sh("ls -A alice/outbox/").output.isEmpty })
        }
    }

    @Test("an editor's temporary file renamed within outbox/ is sent; a refused one stays and mv fails")
    func editorRename() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs.outbox([try .on("SMTPS_PORT")])
            try mount.start()
            let subject = Servers.uniqueSubject("Edited")
            let file = try mount.draft("edited.eml", Servers.message(subject: subject))
            let written = try mount.sh("cat '\(file)' > alice/outbox/.draft.eml.tmp && "
                                       + "getfattr --only-values -n user.mailfs.state alice/outbox/.draft.eml.tmp && "
                                       + "mv alice/outbox/.draft.eml.tmp alice/outbox/final.eml")
            #expect(written.status == 0 && written.output == "draft", "\(written.output)")
            #expect(try Servers.delivered(subject) == 1, "\(mount.text("alice/.log"))")

            let refused = try mount.draft("bad.eml", "Subject: \(Servers.uniqueSubject("Unaddressed"))\n\nfor nobody\n")
            #expect(try mount.sh("cat '\(refused)' > alice/outbox/.bad.eml.tmp").status == 0)
            let moved = try mount.sh("mv alice/outbox/.bad.eml.tmp alice/outbox/bad.eml")
            #expect(moved.status != 0 && moved.output.contains("Invalid argument"), "\(moved.output)")
            #expect(try mount.sh("ls -A alice/outbox/").lines == [".bad.eml.tmp"])
            #expect(try mount.sendState("alice/outbox/.bad.eml.tmp") == "draft")
            #expect(try mount.sh("cat alice/.log").output.contains("bad.eml refused: no recipient"))
            #expect(try mount.sh("rm alice/outbox/.bad.eml.tmp && ls -A alice/outbox/").output.isEmpty)
        }
    }

    @Test("an account whose SMTP server never answers does not hold back another account's mail")
    func independentAccounts() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs()
            let silent = try SilentServer(in: mount.root)
            try mount.configure([OutboxAccount(user: "alice", smtpPort: silent.port),
                                 try .on("SMTPS_PORT", user: "carol")])
            try mount.start()
            let (stuck, sent) = (Servers.uniqueSubject("Stuck"), Servers.uniqueSubject("Carol"))
            let aliceFile = try mount.draft("stuck.eml", Servers.message(subject: stuck))
            let carolFile = try mount.draft("carol.eml", Servers.message(subject: sent))
            #expect(try mount.sh("cp '\(aliceFile)' alice/outbox/").status == 0)
            #expect(try Poll.until(seconds: 10) { try mount.sendState("alice/outbox/stuck.eml") == "sending" })
            #expect(try mount.sh("cp '\(carolFile)' carol/outbox/").status == 0)
            #expect(try Servers.delivered(sent) == 1, "\(mount.text("carol/.log"))")
            #expect(try Servers.bobCount(stuck) == 0)
            let state = try mount.sendState("alice/outbox/stuck.eml")
            #expect(state == "sending" || state == "queued", "\(String(describing: state))")
        }
    }
}
