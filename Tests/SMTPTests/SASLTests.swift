import Foundation
import Testing

@testable import SMTP

@Suite("AUTH encodings")
struct SASLTests {
    private func decoded(_ base64: String) -> [UInt8] {
        Array(Data(base64Encoded: base64) ?? Data())
    }

    @Test("PLAIN is NUL user NUL password, base64")
    func plain() {
        #expect(SASLResponse.plain(user: "alice", password: "pw") == "AGFsaWNlAHB3")
        #expect(decoded(SASLResponse.plain(user: "jos\u{E9}", password: "p\u{E4}ss")) == [0] + Array("jos\u{E9}".utf8) + [0] + Array("p\u{E4}ss".utf8))
    }

    @Test("LOGIN sends the user name and the password as separate base64 texts")
    func login() {
        #expect(SASLResponse.login("alice") == "YWxpY2U=")
        #expect(SASLResponse.login("") == "")
    }

    @Test("XOAUTH2 is user=…^Aauth=Bearer …^A^A, base64")
    func xoauth2() {
        let response = SASLResponse.xoauth2(user: "alice@example.test", token: "ya29.token")
        #expect(decoded(response) == Array("user=alice@example.test\u{1}auth=Bearer ya29.token\u{1}\u{1}".utf8))
        #expect(response == "dXNlcj1hbGljZUBleGFtcGxlLnRlc3QBYXV0aD1CZWFyZXIgeWEyOS50b2tlbgEB")
    }

    static let choices: [(SMTPCredential, Set<String>, SASLMechanism?)] = [
        (.password(user: "a", password: "p"), ["PLAIN", "LOGIN", "XOAUTH2"], .plain),
        (.password(user: "a", password: "p"), ["LOGIN", "CRAM-MD5"], .login),
        (.password(user: "a", password: "p"), ["XOAUTH2"], nil),
        (.password(user: "a", password: "p"), [], nil),
        (.xoauth2(user: "a", token: "t"), ["PLAIN", "LOGIN", "XOAUTH2"], .xoauth2),
        (.xoauth2(user: "a", token: "t"), ["PLAIN", "LOGIN"], nil),
    ]

    @Test("a password goes by PLAIN, else LOGIN; a token only by XOAUTH2", arguments: choices)
    func choice(credential: SMTPCredential, offered: Set<String>, expected: SASLMechanism?) {
        #expect(SASLMechanism.choose(for: credential, offered: offered) == expected)
    }

    @Test("a failure challenge is shown decoded when it is readable text")
    func challenge() {
        let json = #"{"status":"401","schemes":"bearer"}"#
        #expect(SASLResponse.challengeText(Data(json.utf8).base64EncodedString()) == json)
        #expect(SASLResponse.challengeText("not base64!") == "not base64!")
        #expect(SASLResponse.challengeText("") == nil)
        #expect(SASLResponse.challengeText(Data([0x00, 0x01]).base64EncodedString()) == "AAE=")
    }

    @Test("printing a credential never shows the secret")
    func credentialDescription() {
        #expect("\(SMTPCredential.password(user: "alice", password: "hunter2"))" == "password for alice")
        #expect(!"\(SMTPCredential.xoauth2(user: "alice", token: "ya29.x"))".contains("ya29"))
    }
}
