import SMTP
import TestSupport
import Testing

/// Submissions to the real Postfix that ./test starts, delivered by LMTP to Dovecot:
/// the message is looked for in bob's Maildir. No suite time limit: a test first waits in
/// `SharedServers.shared` while other suites restart the servers, which can take minutes on
/// a loaded machine; the client's own timeouts and `delivered`'s deadline bound each step.
@Suite("SMTP against the real Postfix")
struct PostfixSubmissionTests {
    /// Sends a fresh message to bob over `port` and checks that he has it.
    private func sendToBob(_ port: String, _ security: SMTPSecurity,
                           credential: SMTPCredential? = nil) async throws {
        try await SharedServers.shared {
            let id = TestMailServers.uniqueID()
            let report = try await SMTPClient.send(
                TestMailServers.submission(id: id), to: TestMailServers.endpoint(port, security),
                credential: credential ?? TestMailServers.alicePassword())
            #expect(report.isDelivered)
            #expect(report.dataReplies.count == 1 && report.dataReplies[0].text.contains("queued as"), "\(report.dataReplies)")
            #expect(report.acceptedRecipients == [try TestServers.env("BOB_EMAIL")])
            #expect(try await TestMailServers.delivered(id).contains("Hello from the SMTP tests."))
        }
    }

    @Test("alice sends to bob over implicit TLS")
    func implicitTLS() async throws {
        try await sendToBob("SMTPS_PORT", .tls)
    }

    @Test("alice sends to bob over STARTTLS on the submission port")
    func startTLS() async throws {
        try await sendToBob("SUBMISSION_PORT", .starttls)
    }

    @Test("alice sends with an OAuth token over XOAUTH2")
    func xoauth2() async throws {
        let credential = SMTPCredential.xoauth2(user: try TestServers.env("ALICE_EMAIL"),
                                                token: try TestServers.env("ALICE_TOKEN"))
        try await sendToBob("SMTPS_PORT", .tls, credential: credential)
    }

    @Test("dot-stuffed lines and 8-bit text arrive exactly as written")
    func dotsAndEightBit() async throws {
        try await SharedServers.shared {
            let id = TestMailServers.uniqueID()
            let body = ".one dot\n..two dots\n.\nh\u{E9}llo w\u{F6}rld \u{2603}\nlast line"
            let report = try await SMTPClient.send(
                TestMailServers.submission(id: id, body: body), to: TestMailServers.endpoint("SMTPS_PORT", .tls),
                credential: TestMailServers.alicePassword())
            #expect(report.isDelivered)
            #expect(report.capabilities.eightBitMIME)
            let delivered = try await TestMailServers.delivered(id)
            #expect(delivered.hasSuffix("\n\n" + body + "\n"))
        }
    }

    @Test("an unknown recipient gets its 550 while bob still receives the message")
    func unknownRecipient() async throws {
        try await SharedServers.shared {
            let id = TestMailServers.uniqueID()
            let bob = try TestServers.env("BOB_EMAIL")
            let report = try await SMTPClient.send(
                TestMailServers.submission(id: id, recipients: ["nobody@example.test", bob]),
                to: TestMailServers.endpoint("SUBMISSION_PORT", .starttls), credential: TestMailServers.alicePassword())
            #expect(report.isDelivered)
            #expect(report.acceptedRecipients == [bob])
            let rejected = try #require(report.rejectedRecipients.first)
            #expect(rejected.address == "nobody@example.test")
            #expect(rejected.reply.code == 550)
            #expect(rejected.reply.enhancedCode?.description == "5.1.1")
            _ = try await TestMailServers.delivered(id)
        }
    }

    @Test("over Postfix's smtpd_recipient_limit (3 on its SMTPS_RCPT_LIMIT port): 7 recipients in 3 transactions, each reached once")
    func recipientLimit() async throws {
        try await SharedServers.shared {
            let id = TestMailServers.uniqueID()
            let recipients = try RecipientCopies.addresses(7)
            let deliveries = RecipientLimitTranscriptTests.Deliveries()
            let report = try await SMTPClient.send(
                TestMailServers.submission(id: id, recipients: recipients),
                to: TestMailServers.endpoint("SMTPS_RCPT_LIMIT_PORT", .tls), credential: TestMailServers.alicePassword(),
                onDelivered: deliveries.add)
            #expect(report.acceptedRecipients == recipients)
            #expect(report.dataReplies.count == 3)
            #expect(deliveries.all.map(\.count) == [3, 3, 1])
            let copies = try await RecipientCopies.settled(subject: "SMTP test \(id)", recipients: recipients)
            #expect(copies.values.allSatisfy { $0 == 1 }, "\(copies.sorted { $0.key < $1.key })")
        }
    }

    @Test("a wrong password is an authentication error quoting the server")
    func wrongPassword() async throws {
        try await SharedServers.shared {
            let credential = SMTPCredential.password(user: try TestServers.env("ALICE_EMAIL"), password: "wrong-password")
            let submission = try TestMailServers.submission(id: TestMailServers.uniqueID())
            let endpoint = try TestMailServers.endpoint("SMTPS_PORT", .tls)
            let error = await failure { () async throws(SMTPError) -> SMTPDeliveryReport in
                try await SMTPClient.send(submission, to: endpoint, credential: credential)
            }
            guard case .authenticationFailed(let reply, _)? = error else {
                Issue.record("expected an authentication failure, got \(String(describing: error))")
                return
            }
            #expect(reply.code == 535)
            #expect(error?.isTransient == false)
        }
    }

    @Test("a refused OAuth token is an authentication error")
    func badToken() async throws {
        try await SharedServers.shared {
            let credential = SMTPCredential.xoauth2(user: try TestServers.env("ALICE_EMAIL"), token: "expired-token")
            let submission = try TestMailServers.submission(id: TestMailServers.uniqueID())
            let endpoint = try TestMailServers.endpoint("SUBMISSION_PORT", .starttls)
            let error = await failure { () async throws(SMTPError) -> SMTPDeliveryReport in
                try await SMTPClient.send(submission, to: endpoint, credential: credential)
            }
            guard case .authenticationFailed(let reply, _)? = error else {
                Issue.record("expected an authentication failure, got \(String(describing: error))")
                return
            }
            #expect(reply.kind == .permanentNegative)
        }
    }

    @Test("a message over Postfix's SIZE is refused before AUTH")
    func overSize() async throws {
        try await SharedServers.shared {
            var submission = try TestMailServers.submission(id: TestMailServers.uniqueID())
            submission.data += Array(repeating: 0x78, count: 10_240_000)
            let capture = LogCapture()
            let endpoint = try TestMailServers.endpoint("SMTPS_PORT", .tls)
            let credential = try TestMailServers.alicePassword()
            let error = await failure { () async throws(SMTPError) -> SMTPDeliveryReport in
                try await SMTPClient.send(submission, to: endpoint, credential: credential, logger: capture.logger)
            }
            guard case .messageTooLarge(let size, let limit)? = error else {
                Issue.record("expected a size refusal, got \(String(describing: error))")
                return
            }
            #expect(size > limit)
            #expect(!capture.text.contains("C: AUTH"))
        }
    }

    @Test("a server that does not offer STARTTLS is refused before any AUTH")
    func startTLSNotOffered() async throws {
        try await SharedServers.shared {
            let capture = LogCapture()
            let submission = try TestMailServers.submission(id: TestMailServers.uniqueID())
            let endpoint = try TestMailServers.endpoint("SMTP_PLAIN_PORT", .starttls)
            let credential = try TestMailServers.alicePassword()
            let error = await failure { () async throws(SMTPError) -> SMTPDeliveryReport in
                try await SMTPClient.send(submission, to: endpoint, credential: credential, logger: capture.logger)
            }
            #expect(error == .startTLSNotOffered)
            #expect(capture.text.contains("C: EHLO"), "the session did reach EHLO")
            #expect(capture.text.contains("AUTH PLAIN LOGIN"), "the server offered AUTH in the clear")
            #expect(!capture.text.contains("C: AUTH"), "but no AUTH was sent")
        }
    }

    @Test("a self-signed certificate is refused as an untrusted certificate")
    func selfSigned() async throws {
        try await SharedServers.shared {
            let submission = try TestMailServers.submission(id: TestMailServers.uniqueID())
            let endpoint = try TestMailServers.endpoint("SMTPS_SELFSIGNED_PORT", .tls)
            let credential = try TestMailServers.alicePassword()
            let error = await failure { () async throws(SMTPError) -> SMTPDeliveryReport in
                try await SMTPClient.send(submission, to: endpoint, credential: credential)
            }
            #expect(error == .tls(.untrustedCertificate), "\(String(describing: error))")
        }
    }

    /// The error of `body`, nil when it succeeded.
    private func failure(_ body: () async throws(SMTPError) -> SMTPDeliveryReport) async -> SMTPError? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }
}
