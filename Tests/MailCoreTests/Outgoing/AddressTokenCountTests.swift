import Testing
@testable import MailCore

/// The address headers outbox/ takes are those a server keeps whole: Postfix cuts an
/// address header after 10,240 tokens (`header_address_token_limit`).
@Suite("Outgoing: address headers servers keep whole")
struct AddressTokenCountTests {
    typealias Fixtures = OutgoingFixtures

    /// `count` addresses `bob+N@example.test`, six tokens each but the last (no comma).
    static func addresses(_ count: Int) -> String {
        (1...count).map { "bob+\($0)@example.test" }.joined(separator: ", ")
    }

    @Test("tokens are counted as Postfix's tok822 counts them", arguments: [
        ("bob@example.org", 5),
        ("bob@example.org, carol@example.org", 11),
        ("\"Smith, Bob\" <bob@example.org>", 8),
        ("Bob (the (nested) builder) <bob@[192.0.2.1]>", 7),
        ("=?utf-8?q?J=C3=B6rg?= <j@x.org>", 8),
        ("a\\,b@x.org", 5),
        ("undisclosed-recipients:;", 3),
        ("bob%relay!x|y@example.org", 11),
    ])
    func count(value: String, tokens: Int) {
        #expect(AddressTokenCount.of(value) == tokens)
    }

    @Test("a To of 1,706 addresses (10,235 tokens) is sent as written; 1,707 (10,241) is refused with the reason")
    func limit() {
        #expect(AddressTokenCount.of(Self.addresses(1706)) == 10_235)
        #expect(Fixtures.rejection("To: \(Self.addresses(1706))\n\nhi\n") == nil)
        let refused = Fixtures.rejection("To: \(Self.addresses(1707))\n\nhi\n")
        #expect(refused == .tooManyAddressTokens(field: "To", tokens: 10_241))
        #expect(refused?.reason.contains("put recipients in Bcc") == true, "\(refused?.reason ?? "")")
    }

    @Test("Bcc is not sent, so it is not limited; each Bcc field is limited only by its size")
    func bcc() throws {
        let text = "To: carol@example.org\nBcc: \(Self.addresses(1800))\nBcc: bob+9000@example.test\n\nhi\n"
        let prepared = try #require(Fixtures.prepared(text))
        #expect(prepared.recipients.count == 1802)
    }

    @Test("Cc and the other address fields are limited too; text fields are not")
    func otherFields() {
        #expect(Fixtures.rejection("To: a@example.org\nCc: \(Self.addresses(1707))\n\nhi\n")
                == .tooManyAddressTokens(field: "Cc", tokens: 10_241))
        let subject = String(repeating: "a.b ", count: 4000)
        #expect(Fixtures.rejection("To: a@example.org\nSubject: \(subject)\n\nhi\n") == nil)
    }
}
