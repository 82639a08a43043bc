import Foundation
import Testing
import TestSupport
@testable import MailCore

@Suite("Message-ID, In-Reply-To and References lists")
struct MessageIDListTests {
    @Test("reads id lists however they are written", arguments: [
        ("<a@x> <b@y>", ["a@x", "b@y"]),
        ("<a@x>,<b@y>", ["a@x", "b@y"]),
        ("<a@x>\t(comment <c@z>) <b@y>", ["a@x", "b@y"]),
        ("a@x", ["a@x"]),
        ("a@x b@y", ["a@x", "b@y"]),
        ("Your message of \"Mon, 1 Jan 2001\" <a@x>", ["a@x"]),
        ("Your message of Mon, 1 Jan 2001", []),
        ("<>", []),
        ("<a@x", ["a@x"]),
        ("", []),
        ("<<a@x>>", ["a@x"]),
        ("<<a@x", ["a@x"]),
    ])
    func readsLists(raw: String, expected: [String]) {
        #expect(MessageIDList.parse(raw) == expected)
    }

    /// Where stalwart's expectation differs: index -> (ours, why).
    static let divergences: [Int: (ours: [String], why: String)] = [
        // RFC 5322 §3.6.4 (obs-id-left/right allow CFWS): comments are not part of an id.
        6: (["1234   @   local   .machine .example"], "comments are removed"),
    ]

    @Test("stalwart id table", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)), arguments: StalwartTables.cases("id"))
    func stalwartIDs(_ entry: StalwartTables.Case) {
        let ours = MessageIDList.parse(StalwartTables.fieldValue(entry.header))
        #expect(ours == Self.divergences[entry.index]?.ours ?? (entry.expected as? [String] ?? []))
    }
}
