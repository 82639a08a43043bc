import Foundation
import Testing
@testable import MailCore

@Suite("Charset conversion through iconv with fallbacks")
struct CharsetTests {
    @Test("converts charsets iconv knows", arguments: [
        ([0x63, 0x61, 0x66, 0xE9], "iso-8859-1", "café"),
        ([0x80], "windows-1252", "€"),
        ([0xA4], "ISO-8859-15", "€"),
        ([0xF0, 0xD2, 0xC9, 0xD7, 0xC5, 0xD4], "koi8-r", "Привет"),
        ([0x82, 0xA0], "Shift_JIS", "あ"),
        ([0xC4, 0xE3], "GB2312", "你"),
        ([0xB0, 0xA1], "ks_c_5601-1987", "가"),
        ([0x00, 0x41, 0x00, 0x42], "UTF-16BE", "AB"),
        ([0x2B, 0x41, 0x4F, 0x51, 0x2D], "utf-7", "ä"),
    ] as [([UInt8], String, String)])
    func converts(bytes: [UInt8], charset: String, expected: String) {
        #expect(Charset.decode(bytes, charset: charset) == expected)
    }

    @Test("an unknown or missing charset reads UTF-8 when valid, else Latin-1")
    func fallbacks() {
        #expect(Charset.decode(Array("héllo".utf8), charset: "x-bogus") == "héllo")
        #expect(Charset.decode([0x68, 0xE9], charset: "x-bogus") == "hé")
        #expect(Charset.decode([0x68, 0xE9], charset: "") == "hé")
        #expect(Charset.decode([0x68, 0xE9], charset: "us-ascii") == "hé")
        #expect(Charset.decode([0x61], charset: "UTF-8//IGNORE") == "a")
    }

    @Test("invalid bytes become U+FFFD and never stop the conversion")
    func invalidBytes() {
        #expect(Charset.decode([0x61, 0xFF, 0x62], charset: "shift_jis").hasPrefix("a"))
        #expect(Charset.decode([0x61, 0x82], charset: "shift_jis") == "a\u{FFFD}")
        #expect(Charset.decode(Array("é".utf8) + [0xFF] + Array("é".utf8), charset: "utf-8") == "é\u{FFFD}é")
    }

    @Test("raw 8-bit text keeps its UTF-8 and reads only the stray bytes as Latin-1, one by one")
    func strayBytesOneByOne() {
        // "Renée Müller" in UTF-8 with one stray Latin-1 "é" (0xE9) in the middle.
        let bytes = Array("Renée ".utf8) + [0xE9] + Array(" Müller".utf8)
        #expect(Charset.utf8OrWindows1252(bytes[...]) == "Renée é Müller")
        #expect(Charset.utf8OrWindows1252([0x46, 0x72, 0xF6, 0x73, 0x63, 0x68, 0x65]) == "Frösche")
        #expect(HeaderText.string((Array("Subject: caf".utf8) + [0xE9] + Array(" ☕".utf8))[...]) == "Subject: café ☕")
    }

    @Test("a UTF-8 value cut inside its last character keeps what came before the cut")
    func cutInsideCharacter() {
        #expect(Charset.decode(Array("Résumé ".utf8) + [0xE2, 0x82], charset: "utf-8") == "Résumé ")
        #expect(Charset.decode(Array("naïve".utf8) + [0xF0, 0x9F, 0x98], charset: "utf-8") == "naïve")
        #expect(Charset.incompleteTail(Array("done".utf8)[...]) == nil)
    }

    @Test("text labelled UTF-8 that is really Latin-1 is read as Latin-1")
    func mislabelledLatin1() {
        #expect(Charset.decode([0x46, 0x72, 0xF6, 0x73, 0x63, 0x68, 0x65], charset: "utf-8") == "Frösche")
    }
}
