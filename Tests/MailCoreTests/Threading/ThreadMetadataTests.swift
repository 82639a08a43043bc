import Foundation
import Testing
@testable import MailCore

@Suite("Thread metadata (FR-SYNC-06 step 5)")
struct ThreadMetadataTests {
    private func summary(_ id: Int64, day: Double, from: String, name: String? = nil, subject: String = "Lunch",
                         unread: Bool = false, snippet: String = "") -> ThreadMessageSummary {
        ThreadMessageSummary(id: id, date: Date(timeIntervalSince1970: day * 86_400),
                             from: [EmailAddress(name: name, address: from)], subject: subject,
                             isUnread: unread, snippet: snippet)
    }

    @Test("counts, dates, root subject and latest snippet come from the right messages")
    func summarizesThread() throws {
        let metadata = try #require(ThreadMetadata(messages: [
            summary(3, day: 5, from: "bob@x", subject: "Re: Lunch", unread: true, snippet: "Sounds good."),
            summary(1, day: 1, from: "alice@x", name: "Alice", subject: "Lunch", snippet: "Pizza?"),
            summary(2, day: 2, from: "BOB@x", name: "Bob", subject: "Re: Lunch", unread: true),
            summary(4, day: 3, from: "alice@x", name: "Alice S.", subject: "Re: Lunch"),
        ]))
        #expect(metadata.rootID == 1)
        #expect(metadata.subject == "Lunch")
        #expect(metadata.latestDate == Date(timeIntervalSince1970: 5 * 86_400))
        #expect(metadata.messageCount == 4)
        #expect(metadata.unreadCount == 2)
        #expect(metadata.participants == [EmailAddress(name: "Alice", address: "alice@x"),
                                          EmailAddress(name: "Bob", address: "BOB@x")])
        #expect(metadata.snippet == "Sounds good.")
    }

    @Test("an empty thread has no metadata")
    func emptyThread() {
        #expect(ThreadMetadata(messages: []) == nil)
    }

    @Test("equal dates are ordered by id")
    func tiesByID() throws {
        let metadata = try #require(ThreadMetadata(messages: [
            summary(9, day: 1, from: "b@x", subject: "second", snippet: "later"),
            summary(7, day: 1, from: "a@x", subject: "first", snippet: "earlier"),
        ]))
        #expect(metadata.subject == "first")
        #expect(metadata.snippet == "later")
    }

    @Test("the snippet is the latest message's, or its subject when it has none")
    func snippetFallback() throws {
        let noSnippet = try #require(ThreadMetadata(messages: [
            summary(1, day: 1, from: "a@x", subject: "Lunch", snippet: "Pizza?"),
            summary(2, day: 2, from: "b@x", subject: "Re: Lunch"),
        ]))
        #expect(noSnippet.snippet == "Re: Lunch")
    }
}
