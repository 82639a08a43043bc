import Foundation
import TestSupport
import Testing

/// Sending from a real mount through the test Postfix's SMTPS_RCPT_LIMIT port, which takes
/// 3 recipients a transaction and answers `452 4.5.3 Error: too many recipients` to the
/// others: every recipient must get the message exactly once, also when the mount is killed
/// between transactions (issue 43 point 2: before, the recipients past the limit were
/// dropped and the message counted as sent).
@Suite("Mounted outbox over a server's recipient limit", .serialized)
struct OutboxRecipientLimitMountTests {
    typealias Servers = OutboxServers

    @Test("a file to 8 recipients, 3 a transaction: each gets it once, it leaves outbox/, its Sent copy is filed once")
    func everyRecipientOnce() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs.configured([try OutboxAccount.on("SMTPS_RCPT_LIMIT_PORT")])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"), "the Sent folder is known before the first send")
            let subject = Servers.uniqueSubject("Many")
            let recipients = try RecipientCopies.addresses(8)
            let file = try mount.draft("many.eml", Servers.message(subject: subject, to: recipients.joined(separator: ", ")))
            #expect(try await mount.sh("cp '\(file)' alice/outbox/").status == 0)
            let copies = try await RecipientCopies.settled(subject: subject, recipients: recipients)
            #expect(copies.values.allSatisfy { $0 == 1 }, "\(copies.sorted { $0.key < $1.key }): \(mount.text("alice/.log"))")
            #expect(try await Poll.until(seconds: 20) { try await mount.sh("ls -A alice/outbox/").output.isEmpty })
            #expect(try await Servers.sentCopies([subject]) == [subject: 1])
            #expect(mount.text("alice/.log").contains("many.eml accepted by the server"), "\(mount.text("alice/.log"))")
        }
    }

    /// The test Postfix answers `450` to later@example.test at every RCPT.
    @Test("a recipient refused for now is tried again alone, the others never again; rm gives up on it and files the Sent copy")
    func refusedForNow() async throws {
        try await SharedServers.shared {
            var account = try OutboxAccount.on("SMTPS_PORT")
            account.sendRetryDelaySeconds = 1
            let mount = try MountedMailfs.configured([account])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"), "the Sent folder is known before the first send")
            let subject = Servers.uniqueSubject("Later")
            let reached = try RecipientCopies.addresses(2)
            let to = (reached + ["later@example.test"]).joined(separator: ", ")
            let file = try mount.draft("later.eml", Servers.message(subject: subject, to: to))
            let queued = "alice/outbox/later.eml"
            #expect(try await mount.sh("cp '\(file)' alice/outbox/").status == 0)
            // Retries come 1, 4 and 16 s after a failure: the second attempt is over, waiting for the third.
            #expect(try await Poll.until(seconds: 20) {
                mount.text("alice/.log").contains("later.eml (attempt 2) to the 1 recipient(s) not reached yet")
                    && mount.sendState(queued) == "queued"
            }, "\(mount.text("alice/.log"))")
            let error = mount.xattr("user.mailfs.error", of: queued) ?? ""
            #expect(error.contains("not yet delivered to later@example.test: 450 4.2.0")
                    && error.contains("(delivered to 2 of 3 recipients)"), "\(error)")
            #expect(try await Servers.sentCopies([subject], within: 1) == [subject: 0], "no Sent copy while a recipient waits")

            // A retry under way makes rm EBUSY for its few milliseconds.
            #expect(try await Poll.until(seconds: 10) { try await mount.sh("rm \(queued)").status == 0 })
            #expect(try await mount.sh("ls -A alice/outbox/").output.isEmpty)
            #expect(mount.text("alice/.log").contains("later.eml given up"), "\(mount.text("alice/.log"))")
            #expect(try await Servers.sentCopies([subject]) == [subject: 1], "\(mount.text("alice/.log"))")
            let copies = try await RecipientCopies.settled(subject: subject, recipients: reached)
            #expect(copies.values.allSatisfy { $0 == 1 }, "\(copies.sorted { $0.key < $1.key })")
        }
    }

    /// Each transaction has the window the README measures for one message: the server's
    /// reply to the end of data on its way when the kill lands. A recipient reached twice
    /// is counted, and allowed only that way; one never reached fails the test.
    @Test("kill -9 at random moments while a message goes to 8 recipients in 3 transactions, 10 rounds: no recipient lost")
    func killLoopAcrossTransactions() async throws {
        try await SharedServers.shared {
            let mount = try MountedMailfs.configured([try OutboxAccount.on("SMTPS_RCPT_LIMIT_PORT")])
            let recipients = try RecipientCopies.addresses(8)
            let rounds = ProcessInfo.processInfo.environment["MAILFS_TEST_KILL_ROUNDS"].flatMap(Int.init).map { $0 / 2 } ?? 10
            let (subjects, crashed) = try await mount.killAroundSending(rounds: rounds, subject: "Many kill",
                                                                        to: recipients.joined(separator: ", "))
            #expect(crashed == 0, "the mount ended by itself \(crashed) times: \(mount.log)")
            try await mount.start()
            var (lost, twice) = (0, 0)
            for subject in subjects {
                let copies = try await RecipientCopies.settled(subject: subject, recipients: recipients, seconds: 60)
                #expect(copies.values.allSatisfy { $0 == 1 || $0 == 2 }, "\(subject): \(copies.sorted { $0.key < $1.key })")
                lost += copies.values.count { $0 == 0 }
                twice += copies.values.count { $0 > 1 }
                if copies.values.contains(where: { $0 > 1 }) { print("kill loop: \(subject) reached a recipient twice") }
            }
            #expect(try await Poll.until(seconds: 30) { try await mount.sh("ls -A alice/outbox/").output.isEmpty },
                    "\(mount.text("alice/.log"))")
            let sent = try await Servers.sentCopies(subjects)
            #expect(sent.values.allSatisfy { $0 == 1 }, "Sent copies not filed once: \(sent.filter { $0.value != 1 })")
            // The counts docs/FAULTS.md reports.
            print("fault matrix: kill -9 around sending over the recipient limit: \(rounds) rounds, "
                  + "\(rounds * recipients.count) deliveries, \(lost) lost, \(twice) duplicated, \(crashed) crashed, "
                  + "Sent copies: \(sent.values.count { $0 != 1 }) not once")
        }
    }
}
