import Foundation
import Testing
@testable import MailCore

@Suite("Outgoing: files that are refused, and why")
struct OutgoingRejectionTests {
    typealias Fixtures = OutgoingFixtures

    @Test("each bad file is refused with its reason", arguments: [
        ("", OutgoingRejection.emptyFile),
        (" \n\r\n\t\n", .emptyFile),
        ("Subject: nobody\n\nhello\n", .noRecipient),
        ("To: undisclosed-recipients:;\n\nhello\n", .noRecipient),
        ("To: bob\n\nhello\n", .invalidAddress(field: "To", address: "bob")),
        ("To: b@example.org\nCc: <@example.org>\n\nx", .invalidAddress(field: "Cc", address: "@example.org")),
        ("To: b@example.org\nBcc: x@exa..mple.org\n\nx", .invalidAddress(field: "Bcc", address: "x@exa..mple.org")),
        ("From: mallory@evil.example\nTo: b@example.org\n\nx", .foreignFrom(address: "mallory@evil.example")),
        ("From: Alice <alice@example.org.evil>\nTo: b@example.org\n\nx",
         .foreignFrom(address: "alice@example.org.evil")),
        ("From: alice@example.org, carol@example.org\nTo: b@example.org\n\nx", .fromNotSingleAddress(count: 2)),
        ("Sender: mallory@evil.test\nTo: b@example.org\n\nx", .foreignOriginator(field: "Sender", address: "mallory@evil.test")),
        ("Resent-From: Mallory <mallory@evil.test>\nTo: b@example.org\n\nx",
         .foreignOriginator(field: "Resent-From", address: "mallory@evil.test")),
        ("Resent-Sender: alice@example.org.evil\nTo: b@example.org\n\nx",
         .foreignOriginator(field: "Resent-Sender", address: "alice@example.org.evil")),
        ("From: \nTo: b@example.org\n\nx", .fromNotSingleAddress(count: 0)),
        ("Hello Bob,\nsee you at noon.\n", .notAMessage),
        (" To: b@example.org\n\nx", .notAMessage),
        ("To: b@example.org\nHello Bob\n", .malformedHeaderLine(line: 2, excerpt: "Hello Bob")),
        ("To: b@example.org\nSubject: s\n: no name\n\nx", .malformedHeaderLine(line: 3, excerpt: ": no name")),
        ("To: b@example.org\nSubject: a\rBcc: evil@example.org\n\nx", .bareCarriageReturn(line: 2)),
        ("To: b@example.org\n\nline\rmore\n", .bareCarriageReturn(line: 3)),
        ("To: b@example.org\nSubject: bell\u{7}\n\nx", .controlCharacterInHeader(field: "Subject")),
        ("To: b@example.org\nTo: c@example.org\n\nx", .duplicateHeader(field: "To")),
        ("To: b@example.org\nSubject: a\nsubject: b\n\nx", .duplicateHeader(field: "subject")),
        ("From: alice@example.org\nFROM: alice@example.org\nTo: b@example.org\n\nx", .duplicateHeader(field: "FROM")),
        ("To: b@example.org\nContent-Type: text/plain\nContent-Type: text/html\n\nx",
         .duplicateHeader(field: "Content-Type")),
        ("To: b@example.org\nMessage-ID: <caf\u{E9}@x>\n\nx", .nonASCIIInStructuredHeader(field: "Message-ID")),
        ("To: b@example.org\nContent-Type: text/plain; name=\u{E9}t\u{E9}.txt\n\nx",
         .nonASCIIInStructuredHeader(field: "Content-Type")),
        ("To: b@example.org\nContent-Type: text/plain\n\n" + String(repeating: "a", count: 999) + "\n",
         .bodyLineTooLong(line: 4)),
    ])
    func refused(text: String, expected: OutgoingRejection) {
        #expect(Fixtures.rejection(text) == expected)
    }

    @Test("binary files are refused as binary content", arguments: [
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52],  // PNG
        [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00],  // ELF
        [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00, 0x08, 0x00],  // ZIP
        Array("To: b@example.org\n\nhello\0world\n".utf8),
        Array("To: b@example.org\n\n".utf8) + [0x01, 0x02, 0x03, 0x04, 0x05] + Array("mostly text here.".utf8),
    ] as [[UInt8]])
    func binary(bytes: [UInt8]) {
        #expect(Fixtures.rejection(bytes) == .binaryContent)
    }

    @Test("a text file that is not a message is refused as not a message", arguments: [
        "\u{89}PNG but typed\n", "#!/bin/sh\necho hi\n", "From alice@example.org Tue Jul  1 10:52:37 2025\nTo: b@x.org\n\nx",
        "\u{FEFF}\u{FEFF}To: b@example.org\n\nx",
    ])
    func textButNotMessage(text: String) {
        #expect(Fixtures.rejection(text) == .notAMessage)
    }

    @Test("an 8-bit body that is not UTF-8 needs its own Content-Type")
    func latin1Body() {
        let bytes = Array("To: b@example.org\n\ncaf".utf8) + [0xE9, 0x0A]
        #expect(Fixtures.rejection(bytes) == .bodyNotUTF8)
        let labelled = Array("To: b@example.org\nContent-Type: text/plain; charset=iso-8859-1\n\ncaf".utf8) + [0xE9]
        #expect(Fixtures.rejection(labelled) == nil)
    }

    @Test("invalid UTF-8 in a header is refused")
    func invalidUTF8Header() {
        let bytes = Array("To: b@example.org\nSubject: caf".utf8) + [0xE9] + Array("\n\nx".utf8)
        #expect(Fixtures.rejection(bytes) == .invalidUTF8InHeader(field: "Subject"))
    }

    @Test("Sender and Resent-* naming the account or an alias pass")
    func ownOriginators() {
        let policy = OutgoingPolicy(accountAddress: "alice@example.org", aliases: ["a@alias.example"])
        #expect(Fixtures.rejection("Sender: Alice <alice@example.org>\nResent-From: a@alias.example\n"
                                   + "Resent-Sender: ALICE@example.org\nTo: b@example.org\n\nx", policy: policy) == nil)
    }

    @Test("a message over the server's SIZE is refused with both sizes in MB")
    func tooLarge() throws {
        let body = String(repeating: String(repeating: "x", count: 99) + "\n", count: 3 * 1024 * 1024 / 100)
        let text = "To: b@example.org\n\n" + body
        let policy = OutgoingPolicy(accountAddress: "alice@example.org", maxSize: 2 * 1024 * 1024)
        let rejection = try #require(Fixtures.rejection(text, policy: policy))
        #expect(rejection == .tooLarge(size: text.utf8.count, limit: 2 * 1024 * 1024))
        #expect(rejection.reason == "message is 3.0 MB, over the server's limit of 2 MB")
        let roomy = OutgoingPolicy(accountAddress: "alice@example.org", maxSize: 4 * 1024 * 1024)
        #expect(Fixtures.rejection(text, policy: roomy) == nil)
    }

    @Test("the size limit counts the bytes sent, line ends and added fields included")
    func limitCountsSentBytes() throws {
        let text = "To: b@example.org\n\n" + String(repeating: "line\n", count: 1000)
        let sent = try Fixtures.prepare(text).get().data.count
        #expect(sent > text.utf8.count + 1000)
        let exact = OutgoingPolicy(accountAddress: "alice@example.org", displayName: "Alice Liddell", maxSize: sent)
        #expect(Fixtures.rejection(text, policy: exact) == nil)
        let under = OutgoingPolicy(accountAddress: "alice@example.org", displayName: "Alice Liddell", maxSize: sent - 1)
        #expect(Fixtures.rejection(text, policy: under) == .tooLarge(size: sent, limit: sent - 1))
    }

    @Test("sizes read well when they are close", arguments: [
        (27_000_000, 26_214_400, "message is 26 MB, over the server's limit of 25 MB"),
        (26_500_000, 26_214_000, "message is 25.3 MB, over the server's limit of 25.0 MB"),
        (32_600_000, 26_214_400, "message is 31 MB, over the server's limit of 25 MB"),
        (2_700_000, 2_097_152, "message is 2.6 MB, over the server's limit of 2 MB"),
        (1_200_000, 1_048_576, "message is 1.1 MB, over the server's limit of 1 MB"),
        (1_048_600, 1_048_576, "message is 1048600 bytes, over the server's limit of 1 MB"),
        (1_048_600, 1_048_590, "message is 1048600 bytes, over the server's limit of 1048590 bytes"),
    ])
    func sizeWording(size: Int, limit: Int, reason: String) {
        #expect(OutgoingRejection.tooLarge(size: size, limit: limit).reason == reason)
    }

    @Test("reasons are sentences for .status", arguments: [
        (OutgoingRejection.noRecipient, "no recipient (To, Cc or Bcc)"),
        (.emptyFile, "empty file"),
        (.binaryContent, "not a mail message: binary content"),
        (.foreignFrom(address: "x@y"), "From <x@y> is not this account's address or an alias"),
        (.foreignOriginator(field: "Sender", address: "x@y"), "Sender <x@y> is not this account's address or an alias"),
        (.duplicateHeader(field: "Subject"), "more than one Subject header (only one is allowed)"),
        (.headerInjection(field: "Subject"), "header Subject hides a line break in an encoded word (header injection)"),
    ])
    func reasons(rejection: OutgoingRejection, reason: String) {
        #expect(rejection.reason == reason)
    }
}
