import Foundation
import Testing
import TestSupport
@testable import MailCore

@Suite("RFC 5322 address lists")
struct AddressParserTests {
    private static func pairs(_ raw: String) -> [String] {
        AddressParser.parseList(raw).map { "\($0.name ?? "-") <\($0.address)>" }
    }

    @Test("reads names, quoted names, encoded names and bare addresses", arguments: [
        ("John Doe <jdoe@example.com>", ["John Doe <jdoe@example.com>"]),
        ("\"Doe, John\" <jdoe@example.com>, x@y.z", ["Doe, John <jdoe@example.com>", "- <x@y.z>"]),
        ("=?utf-8?q?Doe,_John?= <jdoe@example.com>", ["Doe, John <jdoe@example.com>"]),
        ("jdoe@example.com (John Doe)", ["John Doe <jdoe@example.com>"]),
        ("<@route.example,@other.example:mary@example.net>", ["- <mary@example.net>"]),
        ("\"john doe\"@example.com", ["- <\"john doe\"@example.com>"]),
        ("a@x.org b@y.org", ["- <a@x.org>", "- <b@y.org>"]),
        ("John Smith john@example.com", ["John Smith <john@example.com>"]),
    ])
    func readsMailboxes(raw: String, expected: [String]) {
        #expect(Self.pairs(raw) == expected)
    }

    @Test("flattens groups", arguments: [
        ("undisclosed-recipients:;", [String]()),
        ("Team: a@x, B <b@y>;, c@z", ["- <a@x>", "B <b@y>", "- <c@z>"]),
        ("Empty:(nobody);", []),
    ])
    func flattensGroups(raw: String, expected: [String]) {
        #expect(Self.pairs(raw) == expected)
    }

    @Test("survives broken input", arguments: [
        ("\"unterminated <a@b>", ["unterminated <a@b>"]),
        ("Name <a@b", ["Name <a@b>"]),
        ("(open comment a@b", []),
        (">>>,,;;::<<<", []),
        ("<>", []),
        ("a@b)) <c@d>", ["a@b <c@d>"]),
    ])
    func brokenInput(raw: String, expected: [String]) {
        #expect(Self.pairs(raw) == expected)
    }

    /// Where stalwart's expectation differs from ours: index -> (our result, why).
    static let divergences: [Int: (ours: [String], why: String)] = [
        8: (["Pete <pete@silly.test>"], "a display name wins over comments: RFC 5322 §3.2.2 comments are not content"),
        // The `\` before the line break quotes the folding whitespace (obs-qp),
        // so the next `)` closes the comment and "chap" is a phrase word.
        9: (["Pete chap <pete@silly.test>"], "by the RFC 5322 grammar the comment ends before 'chap'"),
        10: (["Chris Jones <c@public.example>", "- <joe@example.org>", "John <jdoe@one.test>"],
             "comments are not part of names; groups are flattened"),
        13: (["Mary Smith <mary@example.net>", "- <jdoe@test.example>"],
             "RFC 5322 §4.4: an obsolete route is ignored, and CFWS around dots is not part of the address"),
        14: (["John Doe <jdoe@machine.example>"], "comments and CFWS are not part of an address (§3.4.1)"),
        22: (["Nathaniel Borenstein <nsb@thumper.bellcore.com>"], "a comment after the address is not part of the name"),
        33: (["James Smythe <james@example.com>", "- <jane@example.com>", "John Smîth <john@example.com>"],
             "display names are trimmed for display"),
        56: (["Name Doe <a@b.com>"], "a comment is not part of a display name"),
    ]

    @Test("stalwart address table", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)),
          arguments: StalwartTables.cases("address"))
    func stalwartAddresses(_ entry: StalwartTables.Case) {
        let ours = Self.pairs(StalwartTables.fieldValue(entry.header))
        let expected = Self.divergences[entry.index]?.ours ?? Self.flatten(entry.expected)
        #expect(ours == expected)
    }

    /// stalwart's `{"List": [...]}` / `{"Group": [{"addresses": [...]}]}` as
    /// our flat list; entries without an address are not addresses.
    private static func flatten(_ expected: Any?) -> [String] {
        guard let object = expected as? [String: Any] else { return [] }
        var mailboxes: [[String: Any]] = object["List"] as? [[String: Any]] ?? []
        for group in object["Group"] as? [[String: Any]] ?? [] {
            mailboxes += group["addresses"] as? [[String: Any]] ?? []
        }
        return mailboxes.compactMap { mailbox in
            guard let address = mailbox["address"] as? String else { return nil }
            return "\(mailbox["name"] as? String ?? "-") <\(address)>"
        }
    }
}
