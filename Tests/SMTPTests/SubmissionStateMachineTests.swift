import Testing

@testable import SMTP

/// Properties of the pure state machine over many random servers.
@Suite("SMTP submission state machine")
struct SubmissionStateMachineTests {
    /// A small deterministic generator, so a failure can be replayed.
    struct SplitMix64: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Replies a server might plausibly send, most of them the right one for some step.
    static let replies: [SMTPReply] = [
        SMTPReply(code: 220, lines: ["ready"]), SMTPReply(code: 221, lines: ["bye"]),
        SMTPReply(code: 235, lines: ["ok"]), SMTPReply(code: 250, lines: ["mx", "STARTTLS", "AUTH PLAIN", "PIPELINING"]),
        SMTPReply(code: 250, lines: ["ok"]), SMTPReply(code: 334, lines: [""]), SMTPReply(code: 354, lines: ["go"]),
        SMTPReply(code: 421, lines: ["closing"]), SMTPReply(code: 450, lines: ["busy"]),
        SMTPReply(code: 452, lines: ["4.5.3 too many recipients"]),
        SMTPReply(code: 535, lines: ["no"]), SMTPReply(code: 550, lines: ["no"]),
    ]

    @Test("whatever the server says: one outcome at most, no recipient delivered twice, nothing secret before TLS",
          arguments: [SubmissionStateMachine.Protection.startTLS, .implicitTLS])
    func randomServers(protection: SubmissionStateMachine.Protection) {
        var random = SplitMix64(state: 42)
        let submission = SMTPSubmission(envelopeFrom: "a@x.test", recipients: ["b@x.test", "c@x.test", "d@x.test"],
                                        data: [0x41])
        for _ in 0..<5_000 {
            var machine = SubmissionStateMachine(submission: submission, credential: .sample, protection: protection)
            var outcomes = 0
            var delivered: [String] = []
            var tls = protection == .implicitTLS
            for _ in 0..<20 {
                let reply = Self.replies.randomElement(using: &random) ?? Self.replies[0]
                let actions = random.next() % 10 == 0 ? machine.fail(.connectionClosed) : machine.receive(reply)
                for action in actions {
                    switch action {
                    case .succeed, .fail: outcomes += 1
                    case .startTLS: tls = true
                    case .send(let commands):
                        let sensitive = commands.contains { $0.logLine.hasPrefix("AUTH") || $0.logLine.hasPrefix("MAIL") }
                        #expect(tls || !sensitive, "\(commands) sent in plaintext")
                    case .sendMessage: #expect(tls)
                    case .delivered(let recipients): delivered += recipients
                    case .warn, .close: break
                    }
                }
            }
            #expect(outcomes <= 1)
            #expect(Set(delivered).count == delivered.count, "\(delivered)")
        }
    }

    @Test("the wait follows the step: greeting, then replies, then the end of data")
    func waits() {
        var machine = SubmissionStateMachine(submission: .sample, credential: .sample, protection: .none)
        #expect(machine.waitingFor == .greeting)
        _ = machine.receive(SMTPReply(code: 220, lines: ["mx"]))
        #expect(machine.waitingFor == .reply)
        _ = machine.receive(SMTPReply(code: 250, lines: ["mx", "AUTH PLAIN", "PIPELINING"]))
        _ = machine.receive(SMTPReply(code: 235, lines: ["ok"]))
        _ = machine.receive(SMTPReply(code: 250, lines: ["ok"]))
        _ = machine.receive(SMTPReply(code: 250, lines: ["ok"]))
        #expect(machine.receive(SMTPReply(code: 354, lines: ["go"])) == [.sendMessage(Array("Subject: hi\r\n\r\nHello Bob\r\n.\r\n".utf8))])
        #expect(machine.waitingFor == .dataCompletion)
        _ = machine.receive(SMTPReply(code: 250, lines: ["queued"]))
        #expect(machine.waitingFor == .reply, "QUIT's reply")
        #expect(machine.receive(SMTPReply(code: 221, lines: ["bye"])) == [.close])
        #expect(machine.waitingFor == .nothing)
    }
}
