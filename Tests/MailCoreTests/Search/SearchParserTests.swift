import Testing
@testable import MailCore

@Suite("The search query parser (notmuch's language)")
struct SearchParserTests {
    static func parsed(_ query: String) throws -> String {
        SearchQueryRendering.render(try SearchParser.parse(query))
    }

    @Test("every prefix reads its value", arguments: [
        ("budget", #"any:"budget""#),
        (#""quarterly report""#, #"any:"quarterly report""#),
        ("budg*", #"any:"budg"*"#),
        ("*", "*"),
        ("from:alice", #"from:"alice""#),
        ("From:Alice", #"from:"Alice""#),
        ("to:bob@example.org", #"to:"bob@example.org""#),
        (#"subject:"budget plans""#, #"subject:"budget plans""#),
        ("subject:budg*", #"subject:"budg"*"#),
        (#"subject:"budg*""#, #"subject:"budg*""#),
        ("body:numbers", #"body:"numbers""#),
        ("attachment:report.pdf", #"attachment:"report.pdf""#),
        ("mimetype:application/pdf", #"mimetype:"application/pdf""#),
        ("id:m1@x", "id:m1@x"),
        ("mid:<m1@x>", "id:m1@x"),
        (#"id:"m1@x""#, "id:m1@x"),
        (#"thread:"2026-11-02 Budget 2027""#, "thread:2026-11-02 Budget 2027"),
        ("folder:Projects.Budget", "folder:Projects.Budget"),
        ("tag:unread", "tag:unread"),
        ("is:flagged", "tag:flagged"),
        ("has:attachment", "tag:attachment"),
        ("TAG:Unread", "tag:unread"),
        ("date:2026-10-01..2026-10-31", "date:2026-10-1..2026-10-31"),
        ("date:2026-10", "date:2026-10..2026-10"),
        ("date:2026", "date:2026..2026"),
        ("date:today", "date:today..today"),
        ("date:yesterday..", "date:yesterday.."),
        ("date:..now", "date:..now"),
        ("date:7d..", "date:7day.."),
        ("date:2w..1w", "date:2week..1week"),
        ("date:3M..", "date:3month.."),
        ("date:1y..", "date:1year.."),
        ("date:1y2M", "date:1year2month..1year2month"),
        ("date:5m..", "date:5minute.."),
        ("date:2hours..", "date:2hour.."),
        ("date:@100..@200", "date:@100..@200"),
        (#"date:"2026-10-01..""#, "date:2026-10-1.."),
        ("date:..", "date:.."),
        ("re:budget", #"any:"re budget""#),
        ("Budget:plans", #"any:"Budget plans""#),
    ])
    func prefixes(query: String, expected: String) throws {
        #expect(try Self.parsed(query) == expected)
    }

    @Test("operators bind as in Xapian: OR loosest, then AND, then NOT, then terms side by side", arguments: [
        ("a b", #"(and any:"a" any:"b")"#),
        ("a AND b", #"(and any:"a" any:"b")"#),
        ("a and b", #"(and any:"a" any:"b")"#),
        ("a OR b", #"(or any:"a" any:"b")"#),
        ("a or b c", #"(or any:"a" (and any:"b" any:"c"))"#),
        ("a b OR c", #"(or (and any:"a" any:"b") any:"c")"#),
        ("a OR b AND c", #"(or any:"a" (and any:"b" any:"c"))"#),
        ("NOT a", #"(not any:"a")"#),
        ("not a b", #"(not (and any:"a" any:"b"))"#),
        ("a NOT b c", #"(and any:"a" (not (and any:"b" any:"c")))"#),
        ("a NOT b NOT c", #"(and any:"a" (not any:"b") (not any:"c"))"#),
        ("a AND NOT b", #"(and any:"a" (not any:"b"))"#),
        ("a OR NOT b", #"(or any:"a" (not any:"b"))"#),
        ("NOT NOT a", #"(not (not any:"a"))"#),
        ("-a b", #"(and (not any:"a") any:"b")"#),
        ("a -b", #"(and any:"a" (not any:"b"))"#),
        ("-(a OR b) c", #"(and (not (or any:"a" any:"b")) any:"c")"#),
        ("+a", #"any:"a""#),
        ("(a OR b) c", #"(and (or any:"a" any:"b") any:"c")"#),
        ("a OR (b c)", #"(or any:"a" (and any:"b" any:"c"))"#),
        ("((a))", #"any:"a""#),
        ("e-mail", #"any:"e-mail""#),
        ("a - b", #"(and any:"a" any:"b")"#),
    ])
    func precedence(query: String, expected: String) throws {
        #expect(try Self.parsed(query) == expected)
    }

    @Test("side by side, terms of one boolean-like prefix are ORed, as notmuch does", arguments: [
        ("tag:unread tag:flagged", "(or tag:unread tag:flagged)"),
        ("tag:unread is:flagged", "(or tag:unread tag:flagged)"),
        ("from:alice budget from:carol", #"(and (or from:"alice" from:"carol") any:"budget")"#),
        ("subject:a subject:b", #"(or subject:"a" subject:"b")"#),
        ("id:a mid:b", "(or id:a id:b)"),
        ("folder:inbox folder:sent", "(or folder:inbox folder:sent)"),
        ("thread:a thread:b", "(or thread:a thread:b)"),
        ("date:7d.. date:..2d", "(or date:7day.. date:..2day)"),
        ("to:bob to:carol", #"(and to:"bob" to:"carol")"#),
        ("attachment:a attachment:b", #"(and attachment:"a" attachment:"b")"#),
        ("tag:unread AND tag:flagged", "(and tag:unread tag:flagged)"),
        ("tag:unread -tag:flagged", "(and tag:unread (not tag:flagged))"),
        ("NOT tag:flagged tag:unread", "(not (or tag:flagged tag:unread))"),
        ("tag:unread (tag:flagged)", "(and tag:unread tag:flagged)"),
    ])
    func sameTermGroups(query: String, expected: String) throws {
        #expect(try Self.parsed(query) == expected)
    }

    @Test("quoting, white space, and terms with nothing to search", arguments: [
        (#"subject:"a ""b"" c""#, #"subject:"a "b" c""#),
        (#""a""b""#, #"any:"a"b""#),
        ("  from:alice\t\nbudget ", #"(and from:"alice" any:"budget")"#),
        ("from:alice\u{0}budget", #"(and from:"alice" any:"budget")"#),
        ("\"tab\tinside\"", #"any:"tab inside""#),
        ("() budget", #"any:"budget""#),
        ("budget &", #"any:"budget""#),
        ("budget OR &", #"any:"budget""#),
        ("NOT & budget", #"(not any:"budget")"#),
        ("from:@ budget", #"any:"budget""#),
        ("café", #"any:"café""#),
        (#"a"b""#, #"(and any:"a" any:"b")"#),
    ])
    func quoting(query: String, expected: String) throws {
        #expect(try Self.parsed(query) == expected)
    }

    @Test("malformed queries are refused with the place at fault", arguments: [
        ("", 0, "no search terms"),
        ("   ", 0, "no search terms"),
        ("&& --", 0, "no search terms"),
        ("()", 0, "no search terms"),
        ("(a", 0, "unmatched ("),
        ("a)", 1, "unmatched )"),
        (")", 0, "unmatched )"),
        ("(", 1, "missing at the end"),
        ("a OR", 2, "OR needs a search term after it"),
        ("OR a", 0, "OR needs a search term before it"),
        ("a AND", 2, "AND needs a search term after it"),
        ("a OR OR b", 2, "OR needs a search term after it"),
        ("NOT", 0, "NOT needs a search term after it"),
        ("a NOT NOT b", 2, "NOT needs a search term after it"),
        ("-NOT a", 0, "- needs a search term after it"),
        ("from:", 0, "from: needs a value"),
        (#"from:"""#, 0, "from: needs a value"),
        ("tag:inbox", 4, "unknown tag \"inbox\""),
        ("date:yesterweek", 5, "cannot read the date"),
        ("date:2026-02-30", 5, "no such date"),
        ("date:2026-13", 5, "no such date"),
        ("date:1969", 5, "no such date"),
        ("date:7x..", 5, "cannot read the date"),
        ("date:12345d", 5, "cannot read the date"),
        ("date:a..b..c", 5, "cannot read the date"),
        (#"subject:"open"#, 8, "unterminated quote"),
        (#"budget "open"#, 7, "unterminated quote"),
        ("path:inbox", 0, "use folder:"),
        ("query:saved", 0, "not supported"),
        ("thread:{from:x}", 7, "subqueries are not supported"),
        ("from:/ali.*/", 5, "regular expressions"),
    ])
    func errors(query: String, offset: Int, reason: String) {
        #expect {
            try SearchParser.parse(query)
        } throws: { error in
            guard let error = error as? SearchQueryError else { return false }
            return error.offset == offset && error.reason.contains(reason)
        }
    }

    @Test("length, nesting and the number of terms are bounded")
    func limits() throws {
        _ = try SearchParser.parse(String(repeating: "a", count: SearchParser.maximumLength))
        #expect(throws: SearchQueryError.self) { try SearchParser.parse(String(repeating: "a", count: SearchParser.maximumLength + 1)) }
        let depth = SearchParser.maximumDepth
        _ = try SearchParser.parse(String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth))
        #expect(throws: SearchQueryError.self) {
            try SearchParser.parse(String(repeating: "(", count: depth + 1) + "a" + String(repeating: ")", count: depth + 1))
        }
        #expect(throws: SearchQueryError.self) { try SearchParser.parse(String(repeating: "NOT ", count: depth + 1) + "a") }
        #expect(throws: SearchQueryError.self) { try SearchParser.parse(String(repeating: "-", count: depth + 1) + "a") }
        let terms = Array(repeating: "a", count: SearchParser.maximumTerms)
        _ = try SearchParser.parse(terms.joined(separator: " "))
        #expect(throws: SearchQueryError.self) { try SearchParser.parse((terms + ["a"]).joined(separator: " OR ")) }
    }

    @Test("an error says where, counting from 1")
    func errorDescription() {
        #expect(SearchQueryError(offset: 11, "unterminated quote").description == "at character 12: unterminated quote")
    }
}
