import Testing
@testable import Config

@Suite("Saved searches in the config")
struct SavedSearchConfigTests {
    @Test("[searches] and [accounts.NAME.searches] are read, ordered by name")
    func read() throws {
        let config = try ConfigFixtures.parse("""
            [searches]
            unread-invoices = "subject:invoice tag:unread"
            "this week" = "date:7d.."

            \(ConfigFixtures.minimalAccount)

            [accounts.work.searches]
            boss = "from:boss@example.com"
            """)
        #expect(config.searches == [SavedSearch(name: "this week", query: "date:7d.."),
                                    SavedSearch(name: "unread-invoices", query: "subject:invoice tag:unread")])
        #expect(config.account(named: "work")?.searches == [SavedSearch(name: "boss", query: "from:boss@example.com")])
        #expect(try ConfigFixtures.parse(ConfigFixtures.minimalAccount).searches.isEmpty)
    }

    @Test("a saved search that cannot be a directory or run as a query is refused with its line", arguments: [
        ("[searches]\nbad = \"subject:\\\"open\"", "config.toml:2: searches.bad: not a query mailfs can run: at character 9: unterminated quote"),
        ("[searches]\nbad = \"tag:inbox\"", "config.toml:2: searches.bad: not a query mailfs can run: at character 5: unknown tag \"inbox\" (mailfs knows unread, flagged, attachment)"),
        ("[searches]\n\".hidden\" = \"a\"", "config.toml:2: searches.\".hidden\": a saved search's name cannot start with '.'"),
        ("[searches]\n\"a/b\" = \"a\"", "config.toml:2: searches.\"a/b\": a saved search's name cannot contain '/' or control characters"),
        ("[searches]\nempty = \"\"", "config.toml:2: searches.empty: expected a search query, got \"\""),
        ("[searches]\nnumber = 5", "config.toml:2: searches.number: expected a string, got 5"),
        ("searches = 5", "config.toml:1: searches: expected a table, got 5"),
    ])
    func refused(text: String, message: String) throws {
        let error = try #require(ConfigFixtures.error(text))
        #expect(error.description == message)
    }

    @Test("an account's searches are checked the same way, and unknown keys are still refused")
    func accountSearches() throws {
        let bad = try #require(ConfigFixtures.error(ConfigFixtures.minimalAccount + "\n\n[accounts.work.searches]\nx = \"(a\""))
        #expect(bad.description == "config.toml:9: accounts.work.searches.x: not a query mailfs can run: at character 1: unmatched (")
        let typo = try #require(ConfigFixtures.error("[serches]\na = \"b\""))
        #expect(typo.kind == .unknownKey && typo.description.contains("did you mean searches?"))
    }

    @Test("search is reserved at the mount root like inbox")
    func reservedName() throws {
        let error = try #require(ConfigFixtures.error(ConfigFixtures.minimalAccount.replacingOccurrences(of: "work", with: "search")))
        #expect(error.kind == .invalidAccountName && error.description.contains("reserved for the search directory"))
    }
}
