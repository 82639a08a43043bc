import Foundation
import Testing
@testable import MailCore

/// Shared inputs and the checks every prepared message must pass.
enum OutgoingFixtures {
    static let policy = OutgoingPolicy(accountAddress: "alice@example.org", aliases: ["Alice.Work@Example.NET"],
                                       displayName: "Alice Liddell")
    /// Tue, 1 Jul 2025 10:52:37 UTC.
    static let now = Date(timeIntervalSince1970: 1_751_367_157)
    static let token = "0197c5a1-test"

    static func prepare(_ text: String, policy: OutgoingPolicy = policy) -> Result<PreparedOutgoing, OutgoingRejection> {
        prepare(Array(text.utf8), policy: policy)
    }

    static func prepare(_ bytes: [UInt8], policy: OutgoingPolicy = policy) -> Result<PreparedOutgoing, OutgoingRejection> {
        OutgoingPreparer.prepare(bytes, policy: policy, now: now, uniqueToken: token)
    }

    /// The prepared message, recording a test failure when it was refused.
    static func prepared(_ text: String, policy: OutgoingPolicy = policy,
                         sourceLocation: SourceLocation = #_sourceLocation) -> PreparedOutgoing? {
        switch prepare(text, policy: policy) {
        case .success(let message):
            checkSendable(message, policy: policy, sourceLocation: sourceLocation)
            return message
        case .failure(let rejection):
            Issue.record("refused: \(rejection.reason)", sourceLocation: sourceLocation)
            return nil
        }
    }

    static func rejection(_ text: String, policy: OutgoingPolicy = policy) -> OutgoingRejection? {
        rejection(Array(text.utf8), policy: policy)
    }

    static func rejection(_ bytes: [UInt8], policy: OutgoingPolicy = policy) -> OutgoingRejection? {
        if case .failure(let rejection) = prepare(bytes, policy: policy) { return rejection }
        return nil
    }

    /// The header section of the transmitted bytes, as text.
    static func headerText(_ message: PreparedOutgoing) -> String {
        let end = MessageParser.headerBlockEnd(message.data)
        return String(decoding: message.data[..<end], as: UTF8.self)
    }

    static func bodyText(_ message: PreparedOutgoing) -> String {
        String(decoding: message.data[MessageParser.headerBlockEnd(message.data)...], as: UTF8.self)
    }

    /// What SMTP and every reader need of a message we send, checked by
    /// reading it back with `MessageParser`.
    static func checkSendable(_ message: PreparedOutgoing, policy: OutgoingPolicy = policy,
                              sourceLocation: SourceLocation = #_sourceLocation) {
        let data = message.data
        let lines = data.split(separator: ASCII.lf, omittingEmptySubsequences: false)
        #expect(data.last == ASCII.lf, "ends with a line end", sourceLocation: sourceLocation)
        for line in lines.dropLast() {
            #expect(line.last == ASCII.cr, "every line ends in CR LF", sourceLocation: sourceLocation)
            #expect(line.dropLast().contains(ASCII.cr) == false, "no bare CR", sourceLocation: sourceLocation)
            #expect(line.count <= 999, "no line over 998 bytes", sourceLocation: sourceLocation)
        }
        let headerEnd = MessageParser.headerBlockEnd(data)
        let headerIsASCII = data[..<headerEnd].allSatisfy { $0 < 0x80 }
        #expect(headerIsASCII || message.needsSMTPUTF8, sourceLocation: sourceLocation)
        #expect(message.needs8BitMIME == data[headerEnd...].contains { $0 >= 0x80 }, sourceLocation: sourceLocation)
        let parsed = MessageParser.parse(data)
        let names = parsed.headers.map { $0.name.lowercased() }
        #expect(!names.contains("bcc"), "Bcc is never transmitted", sourceLocation: sourceLocation)
        for single in ["from", "date", "message-id", "mime-version"] {
            #expect(names.filter { $0 == single }.count == 1, "one \(single)", sourceLocation: sourceLocation)
        }
        #expect(parsed.from.count == 1 && policy.mayAppearInFrom(parsed.from[0].address),
                sourceLocation: sourceLocation)
        #expect(parsed.messageID == message.messageId, sourceLocation: sourceLocation)
        #expect(parsed.subject == message.subject, sourceLocation: sourceLocation)
        #expect(parsed.date != nil, sourceLocation: sourceLocation)
        #expect(!message.recipients.isEmpty && message.recipients.allSatisfy(OutgoingAddresses.isValid),
                sourceLocation: sourceLocation)
        #expect(message.envelopeFrom == policy.accountAddress, sourceLocation: sourceLocation)
        for header in parsed.headers {
            let decoded = EncodedWord.decode(header.rawValue)
            #expect(!decoded.utf8.contains { $0 == ASCII.cr || $0 == ASCII.lf }, "no hidden line break in \(header.name)",
                    sourceLocation: sourceLocation)
        }
    }
}
