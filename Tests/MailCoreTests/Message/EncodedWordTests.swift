import Foundation
import Testing
import TestSupport
@testable import MailCore

@Suite("RFC 2047 encoded words and unstructured headers")
struct EncodedWordTests {
    @Test("decodes B and Q words in any charset", arguments: [
        ("=?utf-8?B?SGVsbG8gd8O2cmxk?=", "Hello wörld"),
        ("=?ISO-8859-1?Q?Keld_J=F8rn_Simonsen?=", "Keld Jørn Simonsen"),
        ("=?iso-8859-1?q?caf=e9?=", "café"),
        ("=?KOI8-R?B?8NLJ18XU?=", "Привет"),
        ("=?ISO-2022-JP?B?GyRCJUYlOSVIGyhC?=", "テスト"),
        ("=?windows-1251?Q?=CF=F0=E8=E2=E5=F2?=", "Привет"),
        ("=?US-ASCII*EN?Q?Keith_Moore?=", "Keith Moore"),
        ("=?gb2312?B?xOO6ww==?=", "你好"),
    ])
    func decodesWords(raw: String, expected: String) {
        #expect(EncodedWord.decode(raw) == expected)
    }

    @Test("drops whitespace only between adjacent encoded words")
    func adjacentWords() {
        #expect(EncodedWord.decode("=?utf-8?q?a?= =?utf-8?q?b?= c =?utf-8?q?d?=") == "ab c d")
        #expect(EncodedWord.decode("x =?utf-8?q?a?=\t=?utf-8?q?b?=") == "x ab")
    }

    @Test("joins a multibyte character split across two words")
    func splitCharacter() {
        // "é" is C3 A9 in UTF-8; the first word ends after C3.
        #expect(EncodedWord.decode("=?utf-8?Q?caf=C3?= =?utf-8?Q?=A9?=") == "café")
    }

    @Test("leaves garbage as written", arguments: [
        "=?", "=?utf-8?", "=?utf-8?x?abc?=", "=??q?abc?=", "=?utf-8?q?never closed", "a =? b ?= c",
    ])
    func garbageStays(raw: String) {
        #expect(EncodedWord.decode(raw) == raw)
    }

    @Test("an unknown charset falls back to UTF-8 or Latin-1, never crashing")
    func unknownCharset() {
        #expect(EncodedWord.decode("=?x-nonsense?q?caf=C3=A9?=") == "café")
        #expect(EncodedWord.decode("=?x-nonsense?q?caf=E9?=") == "café")
        #expect(EncodedWord.decode("=?utf-8?b?/w==?=") == "ÿ")
    }

    @Test("raw 8-bit text inside a Q word survives")
    func raw8BitInsideQ() {
        let raw = HeaderText.string(ArraySlice([0x3D, 0x3F] + Array("iso-8859-1?Q?Fr".utf8) + [0xF6]
            + Array("sche?=".utf8)))
        #expect(EncodedWord.decode(raw) == "Frösche")
    }

    /// Cases where stalwart's expectation differs and we judge ours right:
    /// table index -> (our result, why).
    static let unstructuredDivergences: [Int: (ours: String, why: String)] = [
        4: ("from x.y.test by example.net via TCP with ESMTP id ABC12345 for <mary@example.net>; 21 Nov 1997 10:05:43 -0600",
            "a displayed value has its whitespace runs collapsed (stalwart keeps the double space after ';')"),
        // RFC 2047 §5(1): an encoded word must be separated from adjacent text by
        // whitespace; when one is glued on we still decode it, but invent no space.
        21: ("[SUSPECTED SPAM]This is the original subject", "stalwart inserts a space before a glued word"),
        27: ("[SUSPECTED SPAM]This is the original subject", "stalwart inserts a space before a glued word"),
        28: ("[SUSPECTED SPAM]This is the original subject", "stalwart inserts a space before a glued word"),
        22: ("Some text here", "stalwart inserts a space after a glued empty word; whitespace runs collapse"),
    ]

    @Test("stalwart unstructured table", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)),
          arguments: StalwartTables.cases("unstructured"))
    func stalwartUnstructured(_ entry: StalwartTables.Case) {
        let decoded = HeaderText.unstructured(StalwartTables.fieldValue(entry.header))
        let expected = Self.unstructuredDivergences[entry.index]?.ours ?? entry.expected as? String
        #expect(decoded == expected)
    }
}
