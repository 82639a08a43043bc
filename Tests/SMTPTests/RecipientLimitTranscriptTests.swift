import Synchronization
import Testing

@testable import SMTP

/// A server that takes fewer recipients per transaction than the message has
/// (RFC 5321 §4.5.3.1.10): the others go in further transactions on the same connection,
/// each announced the moment the server accepts it.
@Suite("SMTP recipients over a server's per-transaction limit", .timeLimit(.minutes(5)))
struct RecipientLimitTranscriptTests {
    static func submission(_ recipients: [String]) -> SMTPSubmission {
        SMTPSubmission(envelopeFrom: "alice@example.test", recipients: recipients, data: Array("hi".utf8))
    }

    /// What `onDelivered` was told, transaction by transaction.
    final class Deliveries: Sendable {
        private let seen = Mutex<[[String]]>([])
        func add(_ recipients: [String]) { seen.withLock { $0.append(recipients) } }
        var all: [[String]] { seen.withLock { $0 } }
    }

    static let tooMany = "S: 452 4.5.3 Error: too many recipients"
    static let message = "C: DATA\nS: 354 go\nC: hi\nC: .\nS: 250 2.0.0 Ok: queued"

    @Test("recipients refused as too many go in further transactions, as many each as the server took")
    func furtherTransactions() async throws {
        let deliveries = Deliveries()
        let recipients = ["a@example.test", "b@example.test", "c@example.test", "d@example.test", "e@example.test"]
        let (server, client) = try await ScriptedSMTPServer.start(Self.submission(recipients), onDelivered: deliveries.add)
        try await server.greetAndAuthenticate()
        try await server.play("""
            C: MAIL FROM:<alice@example.test> SIZE=4
            C: RCPT TO:<a@example.test>
            C: RCPT TO:<b@example.test>
            C: RCPT TO:<c@example.test>
            C: RCPT TO:<d@example.test>
            C: RCPT TO:<e@example.test>
            S: 250 2.1.0 Ok
            S: 250 2.1.5 Ok
            S: 250 2.1.5 Ok
            \(Self.tooMany)
            \(Self.tooMany)
            \(Self.tooMany)
            \(Self.message)
            C: MAIL FROM:<alice@example.test> SIZE=4
            C: RCPT TO:<c@example.test>
            C: RCPT TO:<d@example.test>
            S: 250 2.1.0 Ok
            S: 250 2.1.5 Ok
            S: 250 2.1.5 Ok
            \(Self.message)
            C: MAIL FROM:<alice@example.test> SIZE=4
            C: RCPT TO:<e@example.test>
            S: 250 2.1.0 Ok
            S: 250 2.1.5 Ok
            \(Self.message)
            C: QUIT
            """)
        let report = try await client.value
        #expect(report.acceptedRecipients == recipients)
        #expect(report.dataReplies.count == 3)
        #expect(deliveries.all == [["a@example.test", "b@example.test"], ["c@example.test", "d@example.test"],
                                   ["e@example.test"]])
    }

    @Test("a transaction that no recipient accepted is reset before the next; a 550 is asked once")
    func resetAfterEmptyTransaction() async throws {
        let deliveries = Deliveries()
        let recipients = ["a@example.test", "nobody@example.test", "c@example.test"]
        let (server, client) = try await ScriptedSMTPServer.start(Self.submission(recipients), onDelivered: deliveries.add)
        try await server.greetAndAuthenticate(capabilities: ["AUTH PLAIN"])
        try await server.play("""
            C: MAIL FROM:<alice@example.test>
            S: 250 2.1.0 Ok
            C: RCPT TO:<a@example.test>
            S: 250 2.1.5 Ok
            C: RCPT TO:<nobody@example.test>
            \(Self.tooMany)
            C: RCPT TO:<c@example.test>
            \(Self.tooMany)
            \(Self.message)
            C: MAIL FROM:<alice@example.test>
            S: 250 2.1.0 Ok
            C: RCPT TO:<nobody@example.test>
            S: 550 5.1.1 <nobody@example.test>: User unknown
            C: RSET
            S: 250 2.0.0 Ok
            C: MAIL FROM:<alice@example.test>
            S: 250 2.1.0 Ok
            C: RCPT TO:<c@example.test>
            S: 250 2.1.5 Ok
            \(Self.message)
            C: QUIT
            """)
        let report = try await client.value
        #expect(report.acceptedRecipients == ["a@example.test", "c@example.test"])
        #expect(report.rejectedRecipients.map(\.reply.code) == [550])
        #expect(deliveries.all == [["a@example.test"], ["c@example.test"]])
    }

    @Test("too many recipients before any was accepted: no further transaction, the refusal is for now")
    func noProgress() async throws {
        let (server, client) = try await ScriptedSMTPServer.start(Self.submission(["a@example.test"]))
        try await server.greetAndAuthenticate()
        try await server.play("""
            C: MAIL FROM:<alice@example.test> SIZE=4
            C: RCPT TO:<a@example.test>
            S: 250 2.1.0 Ok
            \(Self.tooMany)
            C: QUIT
            """)
        let report = try await client.value
        #expect(!report.isDelivered)
        #expect(report.recipients.map(\.isTransientRejection) == [true])
    }

    @Test("a further transaction that fails ends the submission with the error, after the first was announced")
    func failureAfterDelivery() async throws {
        let deliveries = Deliveries()
        let (server, client) = try await ScriptedSMTPServer.start(
            Self.submission(["a@example.test", "b@example.test"]), onDelivered: deliveries.add)
        try await server.greetAndAuthenticate()
        try await server.play("""
            C: MAIL FROM:<alice@example.test> SIZE=4
            C: RCPT TO:<a@example.test>
            C: RCPT TO:<b@example.test>
            S: 250 2.1.0 Ok
            S: 250 2.1.5 Ok
            \(Self.tooMany)
            \(Self.message)
            C: MAIL FROM:<alice@example.test> SIZE=4
            C: RCPT TO:<b@example.test>
            S: 421 4.3.2 shutting down
            C: QUIT
            """)
        let reply = SMTPReply(code: 421, lines: ["4.3.2 shutting down"])
        #expect(await client.smtpError == .transientFailure(SMTPCommandFailure(command: "MAIL FROM", reply: reply)))
        #expect(deliveries.all == [["a@example.test"]])
    }

    @Test("which refusals mean the transaction is full",
          arguments: [(452, "4.5.3 Error: too many recipients", true), (452, "Too many recipients", true),
                      (452, "4.2.2 Mailbox full", false), (552, "5.5.3 Too many recipients", true),
                      (552, "5.2.2 Mailbox full", false), (552, "Too many recipients", false),
                      (550, "5.5.3 no", false), (451, "4.5.3 try later", false)])
    func overTransactionLimit(code: Int, text: String, full: Bool) {
        let result = SMTPRecipientResult(address: "a@example.test", reply: SMTPReply(code: code, lines: [text]))
        #expect(result.isOverTransactionLimit == full)
        if full { #expect(result.isTransientRejection) }
    }
}
