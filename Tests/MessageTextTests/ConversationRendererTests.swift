import Foundation
import MailCore
import Testing
import TestSupport
@testable import MessageText

@Suite("conversation.txt")
struct ConversationRendererTests {
    static func message(_ from: String, date: String, subject: String = "Budget 2027", to: String = "team@example.com",
                        cc: String? = nil, body: String, unread: Bool = false, file: String) -> ConversationMessage {
        let test = TestMessage(from: from, to: to, subject: subject, date: date,
                               headers: (cc.map { ["Cc: \($0)"] } ?? []) + TestMessage.plainText, body: body)
        return ConversationMessage(raw: test.bytes, fileName: file, isUnread: unread)
    }

    @Test("a thread reads as a head, then each message oldest first with its separator, recipients, file and text")
    func layout() {
        let reply = Self.message("Bob <bob@example.com>", date: "Tue, 3 Nov 2026 09:10:00 +0000", subject: "Re: Budget 2027",
                                 to: "Alice Smith <alice@example.com>", cc: "carol@example.com", body: "Agreed.\r\n",
                                 unread: true, file: "2026-11-03 0910 Bob - Re Budget 2027.eml")
        var first = Self.message("Alice Smith <alice@example.com>", date: "Mon, 2 Nov 2026 14:32:00 +0000",
                                 body: "The draft is attached.\r\n", file: "2026-11-02 1432 Alice Smith - Budget 2027.eml")
        first.attachments = [AttachmentEntry(name: "draft.pdf", mimeType: "application/pdf", size: 123_456,
                                             path: "attachments/2026-11-02 1432 Alice Smith - Budget 2027/draft.pdf")]
        let text = ConversationRenderer.render([reply, first])
        #expect(text == """
            Thread: Budget 2027
            Participants: Alice Smith <alice@example.com>, team@example.com, Bob <bob@example.com>, carol@example.com
            Messages: 2, 1 unread
            First: 2026-11-02 14:32 UTC
            Latest: 2026-11-03 09:10 UTC

            === 1/2  2026-11-02 14:32 UTC  Alice Smith <alice@example.com>
            To: team@example.com
            File: 2026-11-02 1432 Alice Smith - Budget 2027.eml
            Attachment: draft.pdf (application/pdf, 121 KB) attachments/2026-11-02 1432 Alice Smith - Budget 2027/draft.pdf

            The draft is attached.

            === 2/2  2026-11-03 09:10 UTC  Bob <bob@example.com>  (unread)
            To: Alice Smith <alice@example.com>
            Cc: carol@example.com
            File: 2026-11-03 0910 Bob - Re Budget 2027.eml

            Agreed.

            """)
    }

    @Test("bodies read on demand: each once, oldest first, and the text is the same as with the bodies given")
    func bodiesOnDemand() {
        let messages = [
            Self.message("Bob <bob@example.com>", date: "Tue, 3 Nov 2026 09:10:00 +0000", body: "Second.\r\n", file: "b.eml"),
            Self.message("Alice <alice@example.com>", date: "Mon, 2 Nov 2026 14:32:00 +0000", body: "First.\r\n", file: "a.eml"),
        ]
        var asked: [Int] = []
        let headingsOnly = messages.map { message in
            var message = message
            message.body = .notStored
            return message
        }
        let text = ConversationRenderer.render(headingsOnly) { index in
            asked.append(index)
            return messages[index].body
        }
        #expect(asked == [1, 0])
        #expect(text == ConversationRenderer.render(messages))
        #expect(text.contains("First.") && !text.contains("not stored"))
    }

    @Test("past the conversation's limit, messages keep their headings and name their files instead of their texts")
    func conversationLimit() {
        let big = String(repeating: "word ", count: MessageParser.maxBodyBytes / 5 - 10) + "\r\n"
        let count = ConversationRenderer.maxTextBytes / MessageParser.maxBodyBytes + 2
        var asked = 0
        let messages = (0..<count).map { index in
            Self.message("Alice <alice@example.com>", date: "Mon, 2 Nov 2026 14:\(String(format: "%02d", index)):00 +0000",
                         body: "", file: "m\(index).eml")
        }
        let text = ConversationRenderer.render(messages) { _ in
            asked += 1
            return .texts(plain: big, html: nil)
        }
        #expect(asked < count, "the last messages' bodies are never read")
        #expect(text.utf8.count < ConversationRenderer.maxTextBytes + MessageParser.maxBodyBytes + 64 * 1024)
        #expect(text.contains("=== \(count)/\(count)  ") && text.contains("File: m\(count - 1).eml"))
        #expect(text.hasSuffix("[text left out: the conversation is over 64 MB; read \"m\(count - 1).eml\"]\n"))
    }

    @Test("a message whose text is not stored says so and names its file")
    func notStored() {
        let heading = MessageHeading(subject: "Big", from: [EmailAddress(name: nil, address: "a@example.com")], date: nil)
        let message = ConversationMessage(heading: heading, body: .notStored, fileName: "2026-11-02 1432 a - Big.eml")
        #expect(ConversationRenderer.render([message]).hasSuffix(
            "\n[the text of this message is not stored locally: read \"2026-11-02 1432 a - Big.eml\", which downloads it]\n"))
    }

    @Test("the store's decoded bodies render like the message's parts: plain first, else HTML")
    func storedTexts() {
        let heading = MessageHeading(subject: "S", from: [], date: nil)
        let html = ConversationMessage(heading: heading, body: .texts(plain: nil, html: "<p>Hello <a href=\"https://x.test\">x</a></p>"),
                                       fileName: "f.eml")
        #expect(MessageRenderer.text(of: html) == "Hello x [1]\n\nLinks:\n[1] https://x.test\n")
        let plain = ConversationMessage(heading: heading, body: .texts(plain: "Plain", html: "<p>HTML</p>"), fileName: "f.eml")
        #expect(MessageRenderer.text(of: plain) == "Plain\n")
    }

    @Test("header values cannot break the layout: controls and line breaks become spaces")
    func hostileHeaders() {
        let heading = MessageHeading(subject: "Line\nbreak\u{1B}[2J", from: [EmailAddress(name: "Eve\r\n=== 9/9", address: "eve@x.test")],
                                     date: nil)
        let text = MessageRenderer.render(ConversationMessage(heading: heading, body: .texts(plain: "x", html: nil), fileName: nil))
        #expect(text == "Subject: Line break [2J\nFrom: Eve === 9/9 <eve@x.test>\nDate: unknown date\n\nx\n")
    }

    @Test("a single message shows its whole heading")
    func singleMessage() {
        let message = Self.message("Alice <alice@example.com>", date: "Mon, 2 Nov 2026 14:32:00 +0000", body: "Hi\r\n", file: "m.eml")
        #expect(MessageRenderer.render(message) == """
            Subject: Budget 2027
            From: Alice <alice@example.com>
            To: team@example.com
            Date: 2026-11-02 14:32 UTC
            File: m.eml

            Hi

            """)
    }
}
