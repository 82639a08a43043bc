import Foundation
import Testing
import TestSupport
@testable import MailCore

@Suite("Content-Type and Content-Disposition with RFC 2045/2231 parameters")
struct ContentTypeTests {
    @Test("lower-cases type and subtype, keeps parameter values")
    func basics() {
        let type = ContentType.parse("Text/HTML; Charset=\"UTF-8\"; Format=Flowed")
        #expect(type?.mimeType == "text/html")
        #expect(type?.parameters == ["charset": "UTF-8", "format": "Flowed"])
    }

    @Test("joins RFC 2231 continuations and decodes their charset")
    func rfc2231() {
        let disposition = ContentDisposition.parse(
            "attachment; filename*0*=UTF-8''%E2%82%AC%20rates; filename*1=\" 2024\"; filename*2*=.pdf")
        #expect(disposition.isAttachment)
        #expect(disposition.filename == "€ rates 2024.pdf")
    }

    @Test("an RFC 2231 value wins over a plain one; the first duplicate wins")
    func precedence() {
        let type = ContentType.parse("a/b; name=plain.txt; name*=utf-8''ext.txt; x=1; x=2")
        #expect(type?.parameters["name"] == "ext.txt")
        #expect(type?.parameters["x"] == "1")
    }

    @Test("broken forms give a best-effort value", arguments: [
        ("text/plain; charset=\"utf-8", "text/plain", ["charset": "utf-8"]),
        ("application/octet-stream; name=my file.pdf", "application/octet-stream", ["name": "my file.pdf"]),
        ("multipart/mixed; (\"boundary\" NIL) boundary=abc", "multipart/mixed", ["boundary": "abc"]),
        ("text/plain; charset=us-ascii charset=utf-8", "text/plain", ["charset": "us-ascii"]),
        ("text/plain;;;", "text/plain", [:]),
        ("text/plain; filename*1=b; filename*0=a", "text/plain", ["filename": "ab"]),
        ("text/plain; x*99999999999999999999=a", "text/plain", [:]),
        ("text/plain; a=\"b\\", "text/plain", ["a": "b\\"]),
        ("text/plain (c \\", "text/plain", [:]),
    ])
    func brokenForms(raw: String, mimeType: String, parameters: [String: String]) {
        let type = ContentType.parse(raw)
        #expect(type?.mimeType == mimeType)
        #expect(type?.parameters == parameters)
    }

    @Test("a value without a type is nil", arguments: ["", " ", "/plain", ";charset=x", "(comment)", "(ends in \\"])
    func noType(raw: String) {
        #expect(ContentType.parse(raw) == nil)
    }

    /// Where stalwart's expectation differs and we judge ours right:
    /// index -> (our parameters, why).
    static let divergences: [Int: (ours: [String: String], why: String)] = [
        // RFC 2231 §4.1: only the first section carries `charset'language'`;
        // in later sections the apostrophes are content.
        31: (["filename": "Ñandúiso-8859-1' rápidoiso-8859-1' (versión '99 \"oficial\").pdf"],
             "stalwart strips a charset prefix from every section"),
        // RFC 2047 §6.2: whitespace between adjacent encoded words is ignored,
        // inside quotes or not.
        34: (["name": "áéí.jpeg"], "stalwart keeps the spaces between quoted encoded words"),
        // Trailing whitespace of a field is not part of its value (we trim the
        // unfolded field), so the unterminated quote holds nothing; an empty
        // value is no parameter.
        55: ([:], "the unterminated quoted value loses its blanks with the field's trailing blanks"),
        56: ([:], "as #55"),
        // NUL bytes are dropped from header text (they would poison names and the store).
        59: (["key4": "foo", "key2": "ab%", "key3": "xyzplop%", "key": "foobazba%"], "NUL dropped"),
        // Only `name*`, `name*N` and `name*N*` are RFC 2231 forms (`1*2*` is
        // section 2 of "1"); names like `3**` or `15*x***fff*` are dropped, not guessed.
        61: (["1": "a"], "malformed RFC 2231 names are dropped"),
    ]

    @Test("stalwart content-type table", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)),
          arguments: StalwartTables.cases("content_type"))
    func stalwartContentTypes(_ entry: StalwartTables.Case) {
        let ours = ContentType.parse(StalwartTables.fieldValue(entry.header))
        guard let expected = entry.expected as? [String: Any] else {
            #expect(ours == nil)
            return
        }
        #expect(ours?.type == expected["c_type"] as? String)
        #expect(ours?.subtype == expected["c_subtype"] as? String ?? "")
        var parameters: [String: String] = [:]
        for pair in expected["attributes"] as? [[String]] ?? [] where pair.count == 2 {
            if !pair[0].hasSuffix("-language") { parameters[pair[0]] = pair[1] }
        }
        #expect(ours?.parameters == Self.divergences[entry.index]?.ours ?? parameters)
    }
}
