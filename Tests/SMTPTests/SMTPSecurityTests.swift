import SMTP
import Testing

@Suite("SMTP security")
struct SMTPSecurityTests {
    @Test("the config spellings map to the two protected modes")
    func rawValues() {
        #expect(SMTPSecurity(rawValue: "tls") == .tls)
        #expect(SMTPSecurity(rawValue: "starttls") == .starttls)
        #expect(SMTPSecurity(rawValue: "plain") == nil)
    }
}
