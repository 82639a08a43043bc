import Testing

@testable import SMTP

@Suite("EHLO capabilities")
struct SMTPCapabilitiesTests {
    private func capabilities(_ lines: [String]) -> SMTPCapabilities {
        SMTPCapabilities(ehloReply: SMTPReply(code: 250, lines: ["mx.example.test Hello [192.0.2.7]"] + lines))
    }

    @Test("Postfix's submission reply offers everything the client uses")
    func postfix() {
        let offered = capabilities([
            "PIPELINING", "SIZE 10240000", "VRFY", "ETRN", "AUTH PLAIN LOGIN", "AUTH=PLAIN LOGIN",
            "ENHANCEDSTATUSCODES", "8BITMIME", "DSN", "SMTPUTF8", "CHUNKING",
        ])
        #expect(offered.pipelining)
        #expect(offered.maximumSize == 10_240_000)
        #expect(offered.eightBitMIME)
        #expect(offered.smtpUTF8)
        #expect(!offered.startTLS)
        #expect(offered.authMechanisms == ["PLAIN", "LOGIN"])
        #expect(offered.supports("enhancedstatuscodes"))
    }

    @Test("Gmail's reply before STARTTLS offers STARTTLS and no AUTH")
    func gmailBeforeTLS() {
        let offered = capabilities(["SIZE 35882577", "8BITMIME", "STARTTLS", "ENHANCEDSTATUSCODES", "PIPELINING", "CHUNKING", "SMTPUTF8"])
        #expect(offered.startTLS)
        #expect(offered.authMechanisms.isEmpty)
        #expect(offered.maximumSize == 35_882_577)
    }

    static let sizes: [([String], Int?)] = [
        (["SIZE 1000"], 1000),
        (["SIZE"], nil),
        (["SIZE 0"], nil),
        (["SIZE -5"], nil),
        (["SIZE lots"], nil),
        (["SIZE 99999999999999999999999"], nil),
        ([], nil),
        (["size 2048"], 2048),
    ]

    @Test("SIZE is a limit only when it states a positive number", arguments: sizes)
    func size(lines: [String], expected: Int?) {
        #expect(capabilities(lines).maximumSize == expected)
    }

    static let mechanisms: [([String], Set<String>)] = [
        (["AUTH PLAIN LOGIN XOAUTH2"], ["PLAIN", "LOGIN", "XOAUTH2"]),
        (["AUTH=LOGIN"], ["LOGIN"]),
        (["auth plain  xoauth2"], ["PLAIN", "XOAUTH2"]),
        (["AUTH"], []),
        (["AUTH LOGIN", "AUTH PLAIN"], ["LOGIN", "PLAIN"]),
    ]

    @Test("AUTH mechanisms are read in every spelling", arguments: mechanisms)
    func authMechanisms(lines: [String], expected: Set<String>) {
        #expect(capabilities(lines).authMechanisms == expected)
    }

    @Test("the first line is the server's name, never a keyword; blank lines are ignored")
    func firstLineIsNotAKeyword() {
        let offered = SMTPCapabilities(ehloReply: SMTPReply(code: 250, lines: ["STARTTLS", "", "  "]))
        #expect(!offered.startTLS)
        #expect(offered.keywords.isEmpty)
    }
}
