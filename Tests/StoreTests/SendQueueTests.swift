import Foundation
@testable import Store
import Testing

/// The durable send queue behind outbox/: states, names, FIFO, crash recovery.
@Suite("Send queue")
struct SendQueueTests {
    /// The sender's machine: a retry 30 s after the first transient failure.
    let sender = SendStateMachine(retryDelays: [30, 120, 480], maxQueueAge: 24 * 3600)

    func message(_ name: String) -> OutgoingMessage {
        OutgoingMessage(fileName: name, data: Array("To: bob@example.org\r\n\r\nhi\r\n".utf8),
                        envelopeFrom: "alice@example.org", recipients: ["bob@example.org", "carol@example.org"])
    }

    /// A draft created and queued under `name`, as close() of a new outbox file does.
    func queued(_ temp: TemporaryStore, _ account: Int64, _ name: String, undoDelay: TimeInterval = 0) throws -> OutboxItem {
        let draft = try #require(try temp.store.tree.createDraft(accountId: account, fileName: name))
        #expect(try temp.store.sync.enqueue(draft: draft.id, message(name), undoDelay: undoDelay))
        return try #require(try temp.store.sync.outboxItem(id: draft.id))
    }

    /// The sender takes `item`, a second later: dates are stored to the millisecond, rounded,
    /// so a claim in the same millisecond as the enqueue could find it not yet due.
    func claim(_ temp: TemporaryStore, _ item: OutboxItem) throws {
        guard case .update(.sending, _, _, _, _) = try temp.store.sync.transition(send: item.id, .claim, now: Date().addingTimeInterval(1)) else {
            Issue.record("\(item.fileName) was not claimed")
            return
        }
    }

    @Test("a draft becomes a queued message with its envelope; the name is taken while listed")
    func draftToQueued() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let item = try queued(temp, account, "hi.eml")
        #expect(item.state == .queued && item.recipients == ["bob@example.org", "carol@example.org"])
        #expect(item.sizeBytes == Int64(message("hi.eml").data.count))
        #expect(try temp.store.sync.outboxData(id: item.id) == message("hi.eml").data)
        #expect(try temp.store.tree.createDraft(accountId: account, fileName: "hi.eml") == nil)
        #expect(try temp.store.tree.outboxItems(accountId: account).map(\.fileName) == ["hi.eml"])
    }

    @Test("the oldest queued message goes first, even when it waits for a retry")
    func fifo() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let first = try queued(temp, account, "a.eml", undoDelay: 600)
        _ = try queued(temp, account, "b.eml")
        #expect(try temp.store.sync.oldestQueued(accountId: account)?.id == first.id)
    }

    @Test("acceptance hides the message and frees its name; the row stays for the Sent copy")
    func accepted() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let item = try queued(temp, account, "hi.eml")
        try claim(temp, item)
        let refused = RecipientRefusal(address: "carol@example.org", reply: "550", isTransient: false)
        try temp.store.sync.transition(send: item.id, .answered(refused: [refused]), deliveredTo: ["bob@example.org"])
        #expect(try temp.store.tree.outboxItems(accountId: account).isEmpty)
        #expect(try temp.store.sync.acceptedItems(accountId: account).map(\.id) == [item.id])
        #expect(try temp.store.sync.outboxItem(id: item.id)?.lastError == "not delivered to carol@example.org: 550")
        #expect(try temp.store.tree.createDraft(accountId: account, fileName: "hi.eml") != nil)
        // The Sent copy's APPEND under way: still accepted, still unlisted.
        #expect(try temp.store.sync.transition(send: item.id, .appendingCopy) != .ignore)
        #expect(try temp.store.sync.outboxItem(id: item.id)?.state == .filing)
        #expect(try temp.store.tree.outboxItems(accountId: account).map(\.state) == [.draft], "only the new hi.eml")
        #expect(try temp.store.sync.acceptedItems(accountId: account).map(\.id) == [item.id])
        #expect(try temp.store.sync.transition(send: item.id, .filed) == .remove)
        #expect(try temp.store.sync.outboxItem(id: item.id) == nil)
    }

    @Test("recipients reached are kept across attempts: a retry is for the others, in envelope order")
    func partialDelivery() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let item = try queued(temp, account, "hi.eml")
        let now = Date()
        try temp.store.sync.transition(send: item.id, .claim, now: now)
        let later = RecipientRefusal(address: "bob@example.org", reply: "452 4.5.3 too many recipients", isTransient: true)
        try temp.store.sync.transition(send: item.id, .answered(refused: [later]), deliveredTo: ["carol@example.org"],
                                   machine: sender, now: now)
        let waiting = try #require(try temp.store.sync.outboxItem(id: item.id))
        #expect(waiting.state == .queued && waiting.delivered == ["carol@example.org"])
        #expect(waiting.undelivered == ["bob@example.org"])
        try temp.store.sync.transition(send: item.id, .claim, now: waiting.notBefore)
        try temp.store.sync.transition(send: item.id, .answered(refused: []), deliveredTo: ["bob@example.org"])
        let done = try #require(try temp.store.sync.outboxItem(id: item.id))
        #expect(done.state == .accepted && done.deliveredTo == "bob@example.org\ncarol@example.org")
    }

    @Test("rm cannot discard a message being sent; events that do not apply change nothing")
    func guards() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let item = try queued(temp, account, "hi.eml")
        try claim(temp, item)
        #expect(try temp.store.sync.transition(send: item.id, .discard) == .refuse)
        #expect(try temp.store.sync.transition(send: item.id, .retry) == .ignore)
        #expect(try temp.store.sync.outboxItem(id: item.id)?.state == .sending)
        try temp.store.sync.transition(send: item.id, .permanent("550 no such user"))
        #expect(try temp.store.sync.outboxItem(id: item.id)?.lastError == "550 no such user")
        #expect(try temp.store.tree.outboxCounts(accountId: account) == (0, 0, 1))
        #expect(try temp.store.sync.transition(send: item.id, .discard) == .remove)
        #expect(try temp.store.sync.transition(send: item.id, .discard) == .ignore)
    }

    @Test("a transient failure writes the retry; touch of a failed message gives it a fresh budget")
    func retryAndTouch() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let item = try queued(temp, account, "hi.eml")
        let now = Date()
        try temp.store.sync.transition(send: item.id, .claim, now: now)
        try temp.store.sync.transition(send: item.id, .transient("421 busy"), machine: sender, now: now)
        let waiting = try #require(try temp.store.sync.outboxItem(id: item.id))
        #expect(waiting.state == .queued && waiting.attempts == 1 && waiting.lastError == "421 busy")
        #expect(abs(waiting.notBefore.timeIntervalSince(now) - 30) < 0.01)
        try temp.store.sync.transition(send: item.id, .claim, now: waiting.notBefore)
        try temp.store.sync.transition(send: item.id, .permanent("554 rejected"))
        let later = now.addingTimeInterval(3600)
        #expect(try temp.store.sync.transition(send: item.id, .retry, now: later)
                == .update(state: .queued, attempts: 0, notBefore: later, error: nil, createdAt: later))
        let touched = try #require(try temp.store.sync.outboxItem(id: item.id))
        #expect(touched.state == .queued && touched.attempts == 0 && touched.lastError == nil)
        #expect(abs(touched.createdAt.timeIntervalSince(later)) < 0.01)
    }

    @Test("after a crash: sending is queued again, drafts are dropped, queued messages stay")
    func recovery() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let sending = try queued(temp, account, "a.eml")
        let waiting = try queued(temp, account, "b.eml")
        _ = try temp.store.tree.createDraft(accountId: account, fileName: "c.eml")
        try claim(temp, sending)
        // A new process opens the same store.
        let reopened = try MailStore(directory: temp.directory)
        try reopened.tree.removeDrafts()
        #expect(try reopened.sync.recoverInterruptedSends(accountId: account, machine: .untimed) == 1)
        let items = try reopened.tree.outboxItems(accountId: account)
        #expect(items.map(\.fileName) == ["a.eml", "b.eml"] && items.allSatisfy { $0.state == .queued })
        #expect(items.last?.id == waiting.id)
    }

    @Test("rename keeps names unique among listed messages")
    func rename() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let first = try queued(temp, account, "a.eml")
        _ = try queued(temp, account, "b.eml")
        #expect(try !temp.store.tree.renameOutboxItem(id: first.id, to: "b.eml"))
        #expect(try temp.store.tree.renameOutboxItem(id: first.id, to: "c.eml"))
        #expect(try temp.store.sync.outboxItem(id: first.id)?.fileName == "c.eml")
    }
}
