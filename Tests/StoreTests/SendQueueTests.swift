import Foundation
@testable import Store
import Testing

/// The durable send queue behind outbox/: states, names, FIFO, crash recovery.
@Suite("Send queue")
struct SendQueueTests {
    func message(_ name: String) -> OutgoingMessage {
        OutgoingMessage(fileName: name, data: Array("To: bob@example.org\r\n\r\nhi\r\n".utf8),
                        envelopeFrom: "alice@example.org", recipients: ["bob@example.org", "carol@example.org"])
    }

    /// A draft created and queued under `name`, as close() of a new outbox file does.
    func queued(_ temp: TemporaryStore, _ account: Int64, _ name: String, notBefore: Date = Date()) throws -> OutboxItem {
        let draft = try #require(try temp.store.createDraft(accountId: account, fileName: name))
        #expect(try temp.store.enqueue(draft: draft.id, message(name), notBefore: notBefore))
        return try #require(try temp.store.outboxItem(id: draft.id))
    }

    @Test("a draft becomes a queued message with its envelope; the name is taken while listed")
    func draftToQueued() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let item = try queued(temp, account, "hi.eml")
        #expect(item.state == .queued && item.recipients == ["bob@example.org", "carol@example.org"])
        #expect(item.sizeBytes == Int64(message("hi.eml").data.count))
        #expect(try temp.store.outboxData(id: item.id) == message("hi.eml").data)
        #expect(try temp.store.createDraft(accountId: account, fileName: "hi.eml") == nil)
        #expect(try temp.store.outboxItems(accountId: account).map(\.fileName) == ["hi.eml"])
    }

    @Test("the oldest queued message goes first, even when it waits for a retry")
    func fifo() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let first = try queued(temp, account, "a.eml", notBefore: Date().addingTimeInterval(600))
        _ = try queued(temp, account, "b.eml")
        #expect(try temp.store.oldestQueued(accountId: account)?.id == first.id)
    }

    @Test("acceptance hides the message and frees its name; the row stays for the Sent copy")
    func accepted() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let item = try queued(temp, account, "hi.eml")
        #expect(try temp.store.updateOutboxItem(id: item.id, from: [.queued], to: .sending))
        try temp.store.markAccepted(id: item.id, note: "not delivered to carol@example.org: 550")
        #expect(try temp.store.outboxItems(accountId: account).isEmpty)
        #expect(try temp.store.acceptedItems(accountId: account).map(\.id) == [item.id])
        #expect(try temp.store.createDraft(accountId: account, fileName: "hi.eml") != nil)
        #expect(try temp.store.removeOutboxItem(id: item.id, ifIn: [.accepted]))
    }

    @Test("rm cannot discard a message being sent; a state change guards against races")
    func guards() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let item = try queued(temp, account, "hi.eml")
        #expect(try temp.store.updateOutboxItem(id: item.id, from: [.queued], to: .sending))
        #expect(try !temp.store.removeOutboxItem(id: item.id, ifIn: [.draft, .queued, .failed]))
        #expect(try !temp.store.updateOutboxItem(id: item.id, from: [.failed], to: .queued))
        #expect(try temp.store.updateOutboxItem(id: item.id, from: [.sending], to: .failed, error: .some("550 no such user")))
        #expect(try temp.store.outboxItem(id: item.id)?.lastError == "550 no such user")
        #expect(try temp.store.outboxCounts(accountId: account) == (0, 0, 1))
    }

    @Test("after a crash: sending is queued again, drafts are dropped, queued messages stay")
    func recovery() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let sending = try queued(temp, account, "a.eml")
        let waiting = try queued(temp, account, "b.eml")
        _ = try temp.store.createDraft(accountId: account, fileName: "c.eml")
        #expect(try temp.store.updateOutboxItem(id: sending.id, from: [.queued], to: .sending))
        // A new process opens the same store.
        let reopened = try MailStore(directory: temp.directory)
        try reopened.removeDrafts()
        #expect(try reopened.requeueInterrupted(accountId: account) == 1)
        let items = try reopened.outboxItems(accountId: account)
        #expect(items.map(\.fileName) == ["a.eml", "b.eml"] && items.allSatisfy { $0.state == .queued })
        #expect(items.last?.id == waiting.id)
    }

    @Test("rename keeps names unique among listed messages")
    func rename() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let first = try queued(temp, account, "a.eml")
        _ = try queued(temp, account, "b.eml")
        #expect(try !temp.store.renameOutboxItem(id: first.id, to: "b.eml"))
        #expect(try temp.store.renameOutboxItem(id: first.id, to: "c.eml"))
        #expect(try temp.store.outboxItem(id: first.id)?.fileName == "c.eml")
    }
}
