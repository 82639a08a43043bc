import Foundation
import TestSupport
import Testing
@testable import MailCore

@Suite("Subject fallback for messages without reply headers (FR-SYNC-06 step 4)")
struct SubjectFallbackTests {
    @Test("a headerless message joins the thread whose message has its base subject")
    func headerlessJoinsThread() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "root@x", subject: "Lunch plans", day: 0),
            .fixture(2, id: "reply@x", replyTo: ["root@x"], subject: "Re: Lunch plans", day: 1),
            .fixture(3, id: "broken-client@x", subject: "AW: Lunch plans", day: 2),
        ])
        #expect(threads == [[1, 2, 3]])
    }

    @Test("a headerless message also joins through a reply's subject")
    func joinsThroughReplySubject() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "reply@x", replyTo: ["gone@x"], subject: "Re: Budget", day: 10),
            .fixture(2, id: "forward@x", subject: "Fwd: budget", day: 12),
        ])
        #expect(threads == [[1, 2]])
    }

    @Test("subject links need 30 days or less between the two messages")
    func thirtyDayWindow() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "a@x", subject: "Weekly report", day: 0),
            .fixture(2, id: "b@x", subject: "Weekly report", day: 30),
            .fixture(3, id: "c@x", subject: "Weekly report", day: 60.5),
        ])
        #expect(threads == [[1, 2], [3]])
    }

    @Test("a chain of links each within 30 days makes one thread")
    func chainedLinks() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "a@x", subject: "Status", day: 0),
            .fixture(2, id: "b@x", subject: "Status", day: 20),
            .fixture(3, id: "c@x", subject: "Status", day: 40),
        ])
        #expect(threads == [[1, 2, 3]])
    }

    @Test("two messages that both have reply headers are never joined by subject")
    func headeredMessagesKeepApart() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "a@x", replyTo: ["p@x"], subject: "Re: Hello", day: 0),
            .fixture(2, id: "b@x", replyTo: ["q@x"], subject: "Re: Hello", day: 1),
        ])
        #expect(threads == [[1], [2]])
    }

    @Test("an empty base subject never groups")
    func emptySubjectNeverGroups() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "a@x", subject: "", day: 0),
            .fixture(2, id: "b@x", subject: "Re:", day: 0),
            .fixture(3, id: "c@x", subject: "   ", day: 0),
        ])
        #expect(threads == [[1], [2], [3]])
    }

    @Test("base subjects are compared case-insensitively")
    func caseInsensitive() {
        let threads = ThreadGrouper.group([
            .fixture(1, id: "a@x", subject: "LUNCH Plans", day: 0),
            .fixture(2, id: "b@x", subject: "RE: lunch plans", day: 3),
        ])
        #expect(threads == [[1, 2]])
    }

    @Test("many same-subject messages are linked in linear time")
    func manySameSubject() {
        let messages = (0..<20_000).map { index in
            ThreadingInput.fixture(Int64(index), id: "m\(index)@x", subject: "cron daily", day: Double(index) / 100)
        }
        var threads: [[Int64]] = []
        let elapsed = ThreadCPUClock.measure { threads = ThreadGrouper.group(messages) }
        #expect(threads.count == 1)
        #expect(elapsed < ThreadGrouperTests.timeBound, "grouping took \(elapsed)")
    }
}
