import Foundation
import MailCore
import Store
@testable import Sync
import TestSupport
import Testing

/// The send queue against the real Postfix (delivering to Dovecot by LMTP) that ./test
/// starts: acceptance, the Sent copy per provider, refusals and authentication.
@Suite("Sending through a real Postfix", .serialized)
struct SendingTests {
    /// An account of `user` that sends through Postfix's implicit-TLS port (`port` names
    /// another of its implicit-TLS ports: SMTPS_RCPT_LIMIT_PORT).
    static func sendingTOML(name: String, user: String, extra: String = "", passwordVariable: String? = nil,
                            xoauth2: Bool = false, port: String = "SMTPS_PORT") throws -> String {
        try TestServers.accountTOML(name: name, user: user, passwordVariable: passwordVariable, xoauth2: xoauth2,
                                    extra: "undo_seconds = 0\n" + extra) + """
            [accounts.\(name).smtp]
            host = "127.0.0.1"
            port = \(try TestServers.env(port))
            security = "tls"

            """
    }

    /// Queues a message from `account` as close() in outbox/ does, and runs one round of its sender.
    /// Returns the queue row afterwards; nil once it left the queue (delivered, Sent copy done).
    static func send(_ harness: SyncHarness, _ account: String, to recipients: String, subject: String) async throws -> OutboxItem? {
        let draft = try queue(harness, account, to: recipients, subject: subject)
        let sender = try #require(harness.coordinator.accounts[account]?.sender)
        _ = await sender.sendDue(accountId: draft.accountId)
        return try harness.store.sync.outboxItem(id: draft.id)
    }

    /// Queues a message from `account` as close() in outbox/ does; returns its row.
    static func queue(_ harness: SyncHarness, _ account: String, to recipients: String, subject: String) throws -> OutboxItem {
        let config = try #require(harness.config.account(named: account))
        let accountId = try #require(try harness.store.sync.ensureAccount(name: account, address: config.address, isOffline: false).id)
        let raw = Array("To: \(recipients)\nSubject: \(subject)\n\nSent by the test.\n".utf8)
        let prepared = try OutgoingPreparer.prepare(raw, policy: OutgoingPolicy(accountAddress: config.address),
                                                    now: Date(), uniqueToken: UUID().uuidString).get()
        let draft = try #require(try harness.store.tree.createDraft(accountId: accountId, fileName: "\(subject).eml"))
        _ = try harness.store.sync.enqueue(draft: draft.id, OutgoingMessage(
            fileName: draft.fileName, data: prepared.data, envelopeFrom: prepared.envelopeFrom,
            recipients: prepared.recipients), undoDelay: 0)
        return try #require(try harness.store.sync.outboxItem(id: draft.id))
    }

    /// Waits (LMTP delivery takes up to a second) until `user`'s mailbox holds `subject`;
    /// returns how many copies it holds.
    static func delivered(_ subject: String, to user: String, mailbox: String = "INBOX", seconds: Double = 10) async throws -> Int {
        var count = 0
        _ = try await Poll.until(seconds: seconds) {
            count = try await TestServers.seed(["list", "--user", user, "--mailbox", mailbox])
                .split(separator: "\n").filter { $0.hasSuffix("\t\(subject)") }.count
            return count > 0
        }
        return count
    }

    @Test("a generic account's message is delivered once and appended to its Sent folder, read")
    func genericDelivery() async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try Self.sendingTOML(name: "work", user: "alice"))
            await harness.sync("work")
            let subject = "Generic \(UUID().uuidString.prefix(8))"
            let item = try await Self.send(harness, "work", to: "Bob <bob@example.test>", subject: subject)
            #expect(item == nil, "delivered and filed: \(harness.log("work"))")
            #expect(try await Self.delivered(subject, to: "bob") == 1)
            let sent = try await TestServers.seed(["list", "--user", "alice", "--mailbox", "Sent"])
                .split(separator: "\n").filter { $0.hasSuffix("\t\(subject)") }
            #expect(sent.count == 1 && sent.first?.contains("\\Seen") == true, "\(sent)")
            #expect(try harness.store.sync.acceptedItems(accountId: harness.accountId("work")).isEmpty)
        }
    }

    @Test("an acceptance log that cannot be written: the message goes once, its acceptance is recorded in the database, .log and .status say so")
    func unwritableAcceptanceLog() async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try Self.sendingTOML(name: "work", user: "alice"))
            // Root ignores modes: a directory where the log goes makes it unwritable for anyone.
            try FileManager.default.createDirectory(at: harness.directory.appendingPathComponent("accepted-sends"),
                                                    withIntermediateDirectories: false)
            await harness.sync("work")
            let subject = "Unlogged \(UUID().uuidString.prefix(8))"
            let item = try await Self.send(harness, "work", to: "Bob <bob@example.test>", subject: subject)
            #expect(item == nil, "accepted and filed: \(harness.log("work"))")
            #expect(try await Self.delivered(subject, to: "bob") == 1)
            let log = harness.log("work")
            #expect(log.contains("outbox: \(subject).eml: acceptance recorded in the database instead of its log (cannot open "),
                    "\(log)")
            #expect(harness.state("work").outboxError?.hasPrefix("\(subject).eml: acceptance recorded in the database") == true,
                    "\(String(describing: harness.state("work").outboxError))")
        }
    }

    @Test("Gmail files sent mail itself: no APPEND to Sent Mail")
    func gmailNoAppend() async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try Self.sendingTOML(name: "gmail", user: "gmail", extra: "provider = \"gmail\"\n"))
            await harness.sync("gmail")
            let subject = "Gmail \(UUID().uuidString.prefix(8))"
            _ = try await Self.send(harness, "gmail", to: "bob@example.test", subject: subject)
            #expect(try await Self.delivered(subject, to: "bob") == 1)
            let sent = try await TestServers.seed(["list", "--user", "gmail", "--mailbox", "[Gmail]/Sent Mail"])
            #expect(!sent.contains(subject))
            #expect(try harness.store.tree.outboxItems(accountId: harness.accountId("gmail")).isEmpty)
            #expect(try harness.store.sync.acceptedItems(accountId: harness.accountId("gmail")).isEmpty)
        }
    }

    @Test("one unknown recipient of two: delivered to the other, the 550 reported")
    func partialRejection() async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try Self.sendingTOML(name: "work", user: "alice"))
            await harness.sync("work")
            let subject = "Partial \(UUID().uuidString.prefix(8))"
            _ = try await Self.send(harness, "work", to: "bob@example.test, nobody@example.test", subject: subject)
            #expect(try await Self.delivered(subject, to: "bob") == 1)
            #expect(harness.log("work").contains("not delivered to nobody@example.test"), "\(harness.log("work"))")
        }
    }

    @Test("every recipient unknown: failed at once with the server's text, no retry")
    func allRejected() async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try Self.sendingTOML(name: "work", user: "alice"))
            let subject = "Rejected \(UUID().uuidString.prefix(8))"
            let item = try #require(try await Self.send(harness, "work", to: "nobody@example.test", subject: subject))
            #expect(item.state == .failed && item.attempts == 0)
            #expect(item.lastError?.contains("550") == true, "\(item.lastError ?? "")")
        }
    }

    @Test("a wrong app password fails with FR-SYNC-07's message")
    func wrongPassword() async throws {
        try await SharedServers.shared {
            setenv("MAILFS_TEST_WRONG_SMTP_PASSWORD", "not-the-password", 1)
            let harness = try SyncHarness(try Self.sendingTOML(name: "work", user: "alice",
                                                               passwordVariable: "MAILFS_TEST_WRONG_SMTP_PASSWORD"))
            let item = try #require(try await Self.send(harness, "work", to: "bob@example.test", subject: "Wrong \(UUID().uuidString.prefix(8))"))
            #expect(item.state == .failed)
            #expect(item.lastError == "SMTP authentication failed for alice@example.test. Please check your app password.")
            #expect(!harness.log("work").contains("not-the-password"))
        }
    }

    @Test("XOAUTH2: a refused token makes the token command run again, once, and the send succeeds")
    func tokenRefresh() async throws {
        try await SharedServers.shared {
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-token-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            // First call: an expired token; later calls: the real one. Each call leaves a line.
            let script = dir.appendingPathComponent("token.sh")
            try """
                #!/bin/sh
                echo call >> "\(dir.path)/calls"
                if [ "$(wc -l < "\(dir.path)/calls")" -le 2 ]; then echo expired-token; else printenv MAILFS_TEST_ALICE_TOKEN; fi
                """.write(to: script, atomically: true, encoding: .utf8)
            // Run by `sh`, not exec'd: a script written a moment ago can still be open for
            // writing in a child another test spawned meanwhile (ETXTBSY).
            let toml = try Self.sendingTOML(name: "oauth", user: "alice", xoauth2: true)
                .replacingOccurrences(of: "token_command = \"printenv MAILFS_TEST_ALICE_PASSWORD\"",
                                      with: "token_command = \"sh \(script.path)\"")
            let harness = try SyncHarness(toml)
            let subject = "Token \(UUID().uuidString.prefix(8))"
            // Two expired answers: the first attempt and its one refresh fail (failed), then a
            // touch-style requeue sends with a fresh token.
            let first = try #require(try await Self.send(harness, "oauth", to: "bob@example.test", subject: subject))
            #expect(first.state == .failed, "a second refusal is final: \(harness.log("oauth"))")
            let calls = try String(contentsOf: dir.appendingPathComponent("calls"), encoding: .utf8)
            #expect(calls.split(separator: "\n").count == 2, "the token command ran again once")
            #expect(try harness.store.sync.transition(send: first.id, .retry) != .ignore)
            let sender = try #require(harness.coordinator.accounts["oauth"]?.sender)
            _ = await sender.sendDue(accountId: first.accountId)
            #expect(try await Self.delivered(subject, to: "bob") == 1, "\(harness.log("oauth"))")
        }
    }

    @Test("an unreachable server: retried after each delay, then failed with the reason")
    func retriesThenFails() async throws {
        try await SharedServers.shared {
            let toml = try Self.sendingTOML(name: "work", user: "alice", extra: "send_retry_delay_seconds = 0\n")
                .replacingOccurrences(of: "port = \(try TestServers.env("SMTPS_PORT"))", with: "port = 9")
            let harness = try SyncHarness(toml)
            let first = try #require(try await Self.send(harness, "work", to: "bob@example.test", subject: "Unreachable"))
            #expect(first.state == .queued && first.attempts == 1 && first.lastError?.contains("connect") == true,
                    "\(first)")
            let sender = try #require(harness.coordinator.accounts["work"]?.sender)
            for _ in 0..<3 { _ = await sender.sendDue(accountId: first.accountId) }
            let last = try #require(try harness.store.sync.outboxItem(id: first.id))
            #expect(last.state == .failed && last.lastError?.contains("gave up after 4 attempts") == true, "\(last)")
        }
    }

    @Test("a message queued for more than 24 hours fails with \"send timeout\" without being sent")
    func sendTimeout() async throws {
        try await SharedServers.shared {
            let harness = try SyncHarness(try Self.sendingTOML(name: "work", user: "alice"))
            let accountId = try #require(try harness.store.sync.ensureAccount(name: "work", address: "alice@example.test", isOffline: false).id)
            let draft = try #require(try harness.store.tree.createDraft(accountId: accountId, fileName: "old.eml"))
            let dayAgo = Date().addingTimeInterval(-25 * 3600)
            _ = try harness.store.sync.enqueue(draft: draft.id, OutgoingMessage(
                fileName: "old.eml", data: Array("To: bob@example.test\r\n\r\nold\r\n".utf8),
                envelopeFrom: "alice@example.test", recipients: ["bob@example.test"]), undoDelay: 0, now: dayAgo)
            let sender = try #require(harness.coordinator.accounts["work"]?.sender)
            _ = await sender.sendDue(accountId: accountId)
            let item = try #require(try harness.store.sync.outboxItem(id: draft.id))
            #expect(item.state == .failed && item.lastError?.hasPrefix("send timeout") == true, "\(item)")
            #expect(!harness.log("work").contains("sending old.eml"))
        }
    }
}
