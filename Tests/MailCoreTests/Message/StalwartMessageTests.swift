import Foundation
import Testing
import TestSupport
@testable import MailCore

/// Whole messages of stalwart-mail-parser (`eml/*/NNN.eml` with `NNN.json`):
/// the decoded top-level headers and the first text/plain body are compared.
@Suite("stalwart whole-message expectations", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
struct StalwartMessageTests {
    static var messages: [String] {
        CorpusFiles.files(under: "stalwart-mail-parser/eml") { $0.hasSuffix(".eml") }
            .map { $0.path.components(separatedBy: "/eml/").last ?? $0.path }
    }

    /// Where stalwart's expectation differs and we judge ours right:
    /// "folder/NNN.eml field" -> why.
    static let divergences: [String: String] = {
        var table: [String: String] = [:]
        // Raw 8-bit header text that is not UTF-8 is read as Latin-1
        // (Windows-1252); stalwart replaces it with U+FFFD.
        let raw8Bit = "raw 8-bit header decoded as Latin-1, not U+FFFD"
        for key in ["legacy/010.eml subject", "legacy/010.eml to", "legacy/017.eml to", "legacy/020.eml subject",
                    "legacy/020.eml to", "legacy/022.eml subject", "legacy/022.eml to", "legacy/027.eml subject",
                    "legacy/027.eml to", "legacy/052.eml subject", "legacy/052.eml to"] {
            table[key] = raw8Bit
        }
        // A body labelled UTF-8 that is really Latin-1 (no valid multibyte
        // sequence, only stray 8-bit bytes) is read as Latin-1.
        table["legacy/033.eml body"] = "mislabelled Latin-1 body decoded as Latin-1, not U+FFFD"
        table["legacy/052.eml body"] = "mislabelled Latin-1 body decoded as Latin-1, not U+FFFD"
        table["legacy/049.eml body"] = "uuencoded blocks stay in the text body as sent; stalwart splits them out"
        // RFC 2046 §5.1.1: a delimiter line is "--boundary" then only blanks.
        // A multipart without any such line keeps its body as text instead of losing it.
        table["malformed/002.eml body"] = "multipart without delimiter lines is shown as text"
        table["malformed/004.eml body"] = "'--ab' is no delimiter for boundary 'a'; the body is shown as text"
        // Boundary "a--" closes with "--a----", which is also the open
        // delimiter of the inner boundary "a----"; RFC 2046 §5.1.2 forbids a
        // composer to make an inner boundary extend an outer one. We read the
        // outer close first, so the inner multipart is cut before its part.
        table["malformed/005.eml body"] = "inner boundary extending the outer one: the outer close wins"
        table["malformed/006.eml body"] = "stalwart lists this plain part as an attachment; it has no disposition or name"
        table["malformed/019.eml body"] = "fuzzed message: a part whose header runs into its text keeps that text as body"
        // A lone word is kept as an address (a local recipient, `To: Whomever`).
        for key in ["rfc/001.eml from", "rfc/001.eml to", "rfc/004.eml from", "rfc/004.eml to"] {
            table[key] = "a lone word is kept as a (local) address"
        }
        return table
    }()

    @Test("headers and text body match", arguments: messages)
    func headersAndBody(_ name: String) throws {
        let raw = CorpusFiles.bytes(try #require(CorpusFiles.url("stalwart-mail-parser/eml/\(name)")))
        let json = try #require(CorpusFiles.json("stalwart-mail-parser/eml/\(name.dropLast(4)).json") as? [String: Any])
        let parts = try #require(json["parts"] as? [[String: Any]])
        let message = MessageParser.parse(raw)
        var headers: [String: Any] = [:]
        for header in parts.first?["headers"] as? [[String: Any]] ?? [] {
            if let name = header["name"] as? String, headers[name] == nil { headers[name] = header["value"] }
        }
        check(name, "subject", ours: message.subject, expected: Self.text(headers["subject"]) ?? "")
        check(name, "message_id", ours: message.messageID ?? "", expected: Self.text(headers["message_id"]) ?? "")
        check(name, "from", ours: Self.describe(message.from), expected: Self.addresses(headers["from"]))
        check(name, "to", ours: Self.describe(message.to), expected: Self.addresses(headers["to"]))
        check(name, "date", ours: message.date.map { "\($0)" } ?? "", expected: Self.date(headers["date"]))
        check(name, "body", ours: message.bodyPlain ?? "", expected: Self.firstPlainText(json, parts: parts))
    }

    private func check(_ name: String, _ field: String, ours: String, expected: String) {
        if Self.divergences["\(name) \(field)"] != nil { return }
        #expect(ours == expected, "\(name) \(field)")
    }

    private static func text(_ value: Any?) -> String? {
        (value as? [String: Any])?["Text"] as? String
    }

    private static func describe(_ addresses: [EmailAddress]) -> String {
        addresses.map { "\($0.name ?? "-") <\($0.address)>" }.joined(separator: ", ")
    }

    private static func addresses(_ value: Any?) -> String {
        guard let address = (value as? [String: Any])?["Address"] as? [String: Any] else { return "" }
        var mailboxes = address["List"] as? [[String: Any]] ?? []
        for group in address["Group"] as? [[String: Any]] ?? [] {
            mailboxes += group["addresses"] as? [[String: Any]] ?? []
        }
        return mailboxes.compactMap { mailbox -> String? in
            guard let address = mailbox["address"] as? String else { return nil }
            return "\(mailbox["name"] as? String ?? "-") <\(address)>"
        }.joined(separator: ", ")
    }

    private static func date(_ value: Any?) -> String {
        guard let fields = (value as? [String: Any])?["DateTime"] as? [String: Any] else { return "" }
        func field(_ name: String) -> Int { fields[name] as? Int ?? -1 }
        let offset = (field("tz_hour") * 60 + field("tz_minute")) * (fields["tz_before_gmt"] as? Bool == true ? -1 : 1)
        return DateParserTests.instant(field("year"), field("month"), field("day"), field("hour"), field("minute"),
                                       field("second"), offsetMinutes: offset).map { "\($0)" } ?? ""
    }

    /// The first part stalwart lists as a text body that is text/plain, as
    /// decoded text with LF line ends.
    private static func firstPlainText(_ json: [String: Any], parts: [[String: Any]]) -> String {
        for index in json["text_body"] as? [Int] ?? [] where index < parts.count {
            let part = parts[index]
            guard let body = part["body"] as? [String: Any], let text = body["Text"] as? String else { continue }
            let type = (part["headers"] as? [[String: Any]] ?? []).first { $0["name"] as? String == "content_type" }
            let contentType = (type?["value"] as? [String: Any])?["ContentType"] as? [String: Any]
            let subtype = contentType?["c_subtype"] as? String ?? "plain"
            if (contentType?["c_type"] as? String ?? "text") == "text", subtype == "plain" {
                return MessageParser.withLFLineEnds(text)
            }
        }
        return ""
    }
}
