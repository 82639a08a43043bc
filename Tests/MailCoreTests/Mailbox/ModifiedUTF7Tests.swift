import Testing
@testable import MailCore

@Suite("IMAP modified UTF-7 mailbox names")
struct ModifiedUTF7Tests {
    @Test("known names decode and encode both ways", arguments: [
        ("INBOX", "INBOX"),
        ("Entw&APw-rfe", "Entwürfe"),
        ("&ZeVnLIqe-", "日本語"),
        ("~peter/mail/&U,BTFw-/&ZeVnLIqe-", "~peter/mail/台北/日本語"),
        ("Tom &- Jerry", "Tom & Jerry"),
        ("&AOkA6QDp-t&AOk-", "ééété"),
        ("&2D3eAQ-", "😁"),
        ("[Gmail]/&BB4EQgQ,BEAEMAQyBDsENQQ9BD0ESwQ1-", "[Gmail]/Отправленные"),
        ("", ""),
    ])
    func knownNames(encoded: String, decoded: String) {
        #expect(ModifiedUTF7.decode(encoded) == decoded)
        #expect(ModifiedUTF7.encode(decoded) == encoded)
    }

    @Test("invalid input is returned as it is", arguments: [
        "Entw&APw",            // unterminated
        "a&*-b",               // not in the alphabet
        "&AP-",                // leftover bits that are not zero
        "&2D0-",               // lone high surrogate
        "&AOkA-",              // odd number of bytes
        "Entwürfe",            // raw UTF-8 from a server that ignored the rules
        "tab\there",           // control character
        "&&-",                 // & inside a base64 section
    ])
    func invalidInput(encoded: String) {
        #expect(ModifiedUTF7.decode(encoded) == encoded)
    }

    @Test("control characters and & are encoded, never sent raw")
    func encodesSpecials() {
        #expect(ModifiedUTF7.encode("a\tb") == "a&AAk-b")
        #expect(ModifiedUTF7.encode("&&") == "&-&-")
    }

    @Test("any text survives encode then decode")
    func roundTrip() {
        var generator = ThreadGrouperTests.SeededGenerator(seed: 3)
        let pool: [Unicode.Scalar] = ["a", "&", "-", ",", "/", "+", " ", "~", "\t", "\u{0}", "é", "ß", "日",
                                      "😁", "\u{10FFFF}", "\u{FFFD}", "\u{7F}", "\u{80}"]
        for _ in 0..<500 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...30, using: &generator) {
                scalars.append(pool.randomElement(using: &generator) ?? "a")
            }
            let text = String(scalars)
            let encoded = ModifiedUTF7.encode(text)
            #expect(encoded.utf8.allSatisfy { (0x20...0x7E).contains($0) })
            #expect(ModifiedUTF7.decode(encoded) == text, "\(text.debugDescription) -> \(encoded)")
        }
    }
}
