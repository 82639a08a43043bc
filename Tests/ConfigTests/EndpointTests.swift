import Foundation
import Testing
@testable import Config

@Suite("Servers and providers")
struct EndpointTests {
    struct PortCase: Sendable, CustomTestStringConvertible {
        let table: String
        let security: String?
        let port: Int?
        let expected: ServerEndpoint
        var testDescription: String { "\(table) \(security ?? "default") \(port.map(String.init) ?? "default")" }
    }

    static let portCases: [PortCase] = [
        PortCase(table: "imap", security: nil, port: nil, expected: .init(host: "h.example", port: 993, security: .tls)),
        PortCase(table: "imap", security: "tls", port: nil, expected: .init(host: "h.example", port: 993, security: .tls)),
        PortCase(table: "imap", security: "starttls", port: nil, expected: .init(host: "h.example", port: 143, security: .starttls)),
        PortCase(table: "imap", security: "starttls", port: 1143, expected: .init(host: "h.example", port: 1143, security: .starttls)),
        PortCase(table: "smtp", security: nil, port: nil, expected: .init(host: "h.example", port: 465, security: .tls)),
        PortCase(table: "smtp", security: "starttls", port: nil, expected: .init(host: "h.example", port: 587, security: .starttls)),
        PortCase(table: "smtp", security: "tls", port: 2465, expected: .init(host: "h.example", port: 2465, security: .tls)),
    ]

    @Test("ports default by service and security", arguments: portCases)
    func defaultPorts(_ testCase: PortCase) throws {
        var server = "[accounts.work.\(testCase.table)]\nhost = \"h.example\"\n"
        if let security = testCase.security { server += "security = \"\(security)\"\n" }
        if let port = testCase.port { server += "port = \(port)\n" }
        let base = """
            [accounts.work]
            address = "me@example.com"
            password_command = "true"
            """
        let imap = testCase.table == "imap" ? "" : "[accounts.work.imap]\nhost = \"imap.example.com\"\n"
        let account = try #require(try ConfigFixtures.parse(base + "\n" + imap + server).accounts.first)
        #expect((testCase.table == "imap" ? account.imap : account.smtp) == testCase.expected)
    }

    @Test("the provider is guessed from the IMAP host", arguments: [
        ("imap.gmail.com", Provider.gmail),
        ("IMAP.GMAIL.COM", .gmail),
        ("imap.gmail.com.", .gmail),
        ("imap.googlemail.com", .gmail),
        ("gmail.com", .gmail),
        ("imap.example.com", .generic),
        ("gmail.com.evil.example", .generic),
        ("notgmail.com", .generic),
        ("127.0.0.1", .generic),
    ])
    func providerGuess(host: String, expected: Provider) throws {
        #expect(Provider.guess(imapHost: host) == expected)
        let text = ConfigFixtures.minimalAccount.replacingOccurrences(of: "imap.example.com", with: host)
        #expect(try ConfigFixtures.parse(text).accounts.first?.provider == expected)
    }

    @Test("an explicit provider wins over the guess")
    func explicitProvider() throws {
        let text = ConfigFixtures.minimalAccount.replacingOccurrences(
            of: "[accounts.work.imap]", with: "provider = \"gmail\"\n[accounts.work.imap]"
        )
        #expect(try ConfigFixtures.parse(text).accounts.first?.provider == .gmail)
    }

    @Test(".status shows a server as host:port security", arguments: [
        (ServerEndpoint(host: "imap.example.com", port: 993, security: .tls), "imap.example.com:993 tls"),
        (ServerEndpoint(host: "smtp.example.com", port: 587, security: .starttls), "smtp.example.com:587 starttls"),
        (ServerEndpoint(host: "::1", port: 143, security: .starttls), "[::1]:143 starttls"),
    ])
    func statusForm(endpoint: ServerEndpoint, expected: String) {
        #expect(endpoint.description == expected)
    }
}
