import Foundation
import Testing

/// Debian's notmuch (`./test` installs it); without it the comparison is skipped.
private let notmuchPath = ["/usr/bin/notmuch", "/usr/local/bin/notmuch"].first { FileManager.default.isExecutableFile(atPath: $0) }

/// The same generated Maildir indexed by `notmuch new` and imported by `mailfs import`; at
/// least 30 queries covering every prefix and operator must find the same Message-IDs in
/// both. The only differences allowed are where the two match free-text words differently
/// (stemming), and each of those is spelled out and checked against the corpus.
@Suite("Search results equal notmuch's", .serialized, .enabled(if: notmuchPath != nil, "notmuch is not installed"))
struct NotmuchComparisonTests {
    /// One query in each tool's spelling: they differ only where notmuch names things by
    /// its own ids (threads) or by Maildir++ paths (folders).
    struct Case: CustomStringConvertible {
        var notmuch: String
        var mailfs: String
        var description: String { notmuch == mailfs ? notmuch : "\(notmuch) | \(mailfs)" }

        init(_ notmuch: String, _ mailfs: String? = nil) {
            self.notmuch = notmuch
            self.mailfs = mailfs ?? notmuch
        }
    }

    /// The corpus in a Maildir, indexed by both.
    final class Indexed {
        let mount: MountedMailfs
        let corpus: NotmuchCorpus
        let notmuchConfig: URL

        init() async throws {
            mount = try MountedMailfs()
            corpus = NotmuchCorpus(count: 300, now: Date(), calendar: .current)
            let maildir = mount.root.appendingPathComponent("corpus")
            try corpus.write(to: maildir)
            notmuchConfig = mount.root.appendingPathComponent("notmuch-config")
            try """
                [database]
                path=\(maildir.path)
                [new]
                tags=
                [search]
                exclude_tags=
                [maildir]
                synchronize_flags=true
                [user]
                name=You Self
                primary_email=you@corpus.example
                """.write(to: notmuchConfig, atomically: true, encoding: .utf8)
            let indexed = try await notmuch(["new", "--quiet"])
            #expect(indexed.status == 0, "\(indexed.output)")
            try await mount.importMail("corpus", from: maildir)
        }

        func notmuch(_ arguments: [String]) async throws -> Shell.Result {
            try await Shell.run(notmuchPath ?? "notmuch", arguments, environment: mount.environment.merging(
                ["NOTMUCH_CONFIG": notmuchConfig.path, "HOME": mount.root.path]) { $1 })
        }

        func notmuchIDs(_ query: String) async throws -> Set<String> {
            let result = try await notmuch(["search", "--output=messages", query])
            #expect(result.status == 0, "notmuch \(query): \(result.output)")
            return Set(result.lines.map { String($0.dropFirst(3)) })
        }

        func mailfsIDs(_ query: String) async throws -> Set<String> {
            let result = try await mount.mailfs(["search", "--output=messages", query, "--data-dir", mount.dataDir.path])
            #expect(result.status == 0 || result.status == 1, "mailfs \(query): \(result.output)")
            return Set(result.lines.map { String($0.dropFirst(3)) })
        }

        /// The Message-IDs of the corpus messages that `isMatch`.
        func corpusIDs(_ isMatch: (NotmuchCorpus.Message) -> Bool) -> Set<String> {
            Set(corpus.messages.filter(isMatch).map(\.id))
        }
    }

    static func dateString(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd"
        return formatter.string(from: date)
    }

    /// Queries that need no knowledge of the corpus beyond its vocabulary.
    static var fixedCases: [Case] {
        let calendar = Calendar.current
        let lastMonth = calendar.date(byAdding: .month, value: -1, to: Date()) ?? Date()
        let start = calendar.dateInterval(of: .month, for: lastMonth)?.start ?? lastMonth
        let end = calendar.date(byAdding: .day, value: -1, to: calendar.date(byAdding: .month, value: 1, to: start) ?? start) ?? start
        let longAgo = calendar.date(byAdding: .day, value: -90, to: Date()) ?? Date()
        return [
            Case("budget"), Case("giraffe"), Case("meeting"), Case("planning"), Case("budg*"), Case("*"),
            Case("\"travel plans for the team\""), Case("\"garden party\""),
            Case("from:alice"), Case("from:alice@example.com"), Case("from:\"Carol Jones\""), Case("from:erin@corp.example"),
            Case("to:bob"), Case("to:dave@example.net"), Case("to:\"Alice Smith\""),
            Case("subject:invoice"), Case("subject:\"project deadline\""), Case("subject:re"),
            Case("body:lunch"), Case("body:giraffe"),
            Case("id:corpus-17@corpus.example"), Case("id:corpus-17@corpus.example id:corpus-42@corpus.example"),
            Case("mid:corpus-99@corpus.example"),
            Case("folder:\"\"", "folder:inbox"), Case("folder:.Work", "folder:Work"),
            Case("folder:.Work.Reports", "folder:Work.Reports"), Case("folder:.Sent", "folder:sent"),
            Case("date:today"), Case("date:yesterday.."), Case("date:7d.."), Case("date:2w.."), Case("date:3M.."),
            Case("date:1y.."), Case("date:..\(dateString(longAgo))"),
            Case("date:\(dateString(start))..\(dateString(end))"),
            Case("tag:unread"), Case("is:flagged"), Case("tag:attachment"), Case("tag:unread tag:flagged"),
            Case("attachment:pdf"), Case("attachment:report"), Case("attachment:data.csv"),
            Case("mimetype:application/pdf"), Case("mimetype:text/html"), Case("mimetype:image/png"),
            Case("mimetype:multipart/alternative"),
            Case("budget AND invoice"), Case("budget OR giraffe"), Case("giraffe NOT tag:unread"), Case("NOT tag:unread"),
            Case("budget -from:alice"), Case("(budget OR invoice) tag:flagged"), Case("from:alice from:carol"),
            Case("from:alice OR to:alice date:1M.."), Case("giraffe AND NOT (from:bob OR tag:flagged)"),
            Case("folder:.Work tag:unread", "folder:Work tag:unread"),
        ]
    }

    @Test("at least 30 queries over every prefix and operator find the same messages")
    func sameResults() async throws {
        let indexed = try await Indexed()
        var cases = Self.fixedCases
        cases.append(try await threadCase(indexed))
        #expect(cases.count >= 30)
        for query in cases {
            let expected = try await indexed.notmuchIDs(query.notmuch)
            #expect(!expected.isEmpty, "\(query) finds nothing in the corpus: not a meaningful comparison")
            let found = try await indexed.mailfsIDs(query.mailfs)
            #expect(found == expected, """
                \(query): mailfs only \(found.subtracting(expected).sorted().prefix(5)), \
                notmuch only \(expected.subtracting(found).sorted().prefix(5))
                """)
        }
    }

    /// notmuch's thread ids are its own; mailfs's are `threads/` directory names. The same
    /// conversation is the thread of the same message in both.
    private func threadCase(_ indexed: Indexed) async throws -> Case {
        let replied = try #require(indexed.corpus.messages.first { root in
            indexed.corpus.messages.filter { $0.raw.contains("In-Reply-To: <\(root.id)>") }.count >= 2
        })
        let notmuchThread = try #require(try await indexed.notmuch(["search", "--output=threads", "id:\(replied.id)"]).lines.first)
        let json = try await indexed.mount.mailfs(["search", "--json", "id:\(replied.id)", "--data-dir", indexed.mount.dataDir.path])
        let records = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        let thread = try #require(records?.first?["thread"] as? String)
        return Case(notmuchThread, "thread:\"\(thread)\"")
    }

    /// Where the two match words differently, on purpose: notmuch (Xapian) does not stem a
    /// capitalized word or the words of a quoted phrase; mailfs (FTS5's Porter stemmer)
    /// stems every word. Each case checks both tools against what the corpus holds.
    @Test("stemming differences are exactly the explained ones")
    func stemmingDifferences() async throws {
        let indexed = try await Indexed()
        // "Budgets": notmuch looks for the exact word "budgets"; mailfs for its stem, so
        // "budget" (every Budget subject and body) matches too.
        #expect(try await indexed.notmuchIDs("Budgets") == indexed.corpusIDs { $0.words.contains("budgets") })
        #expect(try await indexed.mailfsIDs("Budgets") == indexed.corpusIDs { !$0.words.isDisjoint(with: ["budget", "budgets"]) })
        // A phrase: notmuch wants its words as written, mailfs their stems, so "quarterly
        // report" and "quarterly reports" find each other in mailfs only.
        for phrase in ["quarterly report", "quarterly reports"] {
            let words = phrase.split(separator: " ").map(String.init)
            #expect(try await indexed.notmuchIDs("\"\(phrase)\"") == indexed.corpusIDs { $0.contains(words) })
            #expect(try await indexed.mailfsIDs("\"\(phrase)\"") == indexed.corpusIDs {
                $0.contains(["quarterly", "report"]) || $0.contains(["quarterly", "reports"])
            })
        }
    }
}
