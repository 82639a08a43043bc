import Foundation
@testable import Store
import Testing

/// The instant record of a server's acceptance, transaction by transaction, and its use at
/// start-up.
@Suite("Acceptance log")
struct AcceptanceLogTests {
    /// Messages queued and claimed (state `sending`), as a send under way leaves them.
    func sending(_ temp: TemporaryStore, _ account: Int64, _ names: [String], to recipients: [String]) throws -> [Int64] {
        try names.map { name in
            let draft = try #require(try temp.store.tree.createDraft(accountId: account, fileName: name))
            let message = OutgoingMessage(fileName: name, data: Array("To: b@example.org\r\n\r\nhi\r\n".utf8),
                                          envelopeFrom: "a@example.org", recipients: recipients)
            #expect(try temp.store.sync.enqueue(draft: draft.id, message, undoDelay: 0))
            // A second later: dates are stored to the millisecond, rounded.
            try temp.store.sync.transition(send: draft.id, .claim, now: Date().addingTimeInterval(1))
            return draft.id
        }
    }

    @Test("a message accepted just before a crash (state still sending) is marked accepted at start-up, never queued again")
    func recovery() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let ids = try sending(temp, account, ["a.eml", "b.eml"], to: ["b@example.org"])
        // The server took a.eml; the process died before SQLite heard of it.
        try temp.store.sync.noteDelivered(send: ids[0], to: ["b@example.org"])
        #expect(try temp.store.sync.recoverDeliveries() == 1)
        #expect(try temp.store.sync.outboxItem(id: ids[0])?.state == .accepted)
        let requeued = try temp.store.sync.recoverInterruptedSends(accountId: account, machine: .untimed)
        let states = try temp.store.tree.outboxItems(accountId: account).map { "\($0.fileName) \($0.state)" }
        #expect(requeued == 1, "\(states)")
        #expect(try temp.store.sync.outboxItem(id: ids[1])?.state == .queued)
        // The log is emptied: a second start-up finds nothing.
        #expect(try temp.store.sync.recoverDeliveries() == 0)
    }

    @Test("a crash between two transactions: the first one's recipients are kept, the message is queued for the others")
    func crashBetweenTransactions() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let recipients = ["r1@example.org", "r2@example.org", "r3@example.org", "r4@example.org"]
        let id = try #require(try sending(temp, account, ["many.eml"], to: recipients).first)
        try temp.store.sync.noteDelivered(send: id, to: ["r1@example.org", "r3@example.org"])
        let reopened = try MailStore(directory: temp.directory)
        #expect(try reopened.sync.recoverDeliveries() == 0, "two recipients are still to reach")
        #expect(try reopened.sync.recoverInterruptedSends(accountId: account, machine: .untimed) == 1)
        let item = try #require(try reopened.sync.outboxItem(id: id))
        #expect(item.state == .queued)
        #expect(item.delivered == ["r1@example.org", "r3@example.org"])
        #expect(item.undelivered == ["r2@example.org", "r4@example.org"])
    }

    @Test("every transaction recorded: accepted; a line cut by the crash is ignored; a line of an id alone is every recipient")
    func lines() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let ids = try sending(temp, account, ["a.eml", "b.eml", "c.eml"], to: ["r1@example.org", "r2@example.org"])
        try temp.store.sync.noteDelivered(send: ids[0], to: ["r1@example.org"])
        try temp.store.sync.noteDelivered(send: ids[0], to: ["r2@example.org"])
        let log = temp.directory.appendingPathComponent("accepted-sends")
        let handle = try FileHandle(forWritingTo: log)
        try handle.seekToEnd()
        // As written before a message could take several transactions; then a torn line.
        try handle.write(contentsOf: Data("\(ids[1])\n\(ids[2])\tr1@exa".utf8))
        try handle.close()
        #expect(try temp.store.sync.recoverDeliveries() == 2)
        #expect(try temp.store.sync.outboxItem(id: ids[0])?.state == .accepted)
        #expect(try temp.store.sync.outboxItem(id: ids[1])?.state == .accepted)
        let torn = try #require(try temp.store.sync.outboxItem(id: ids[2]))
        #expect(torn.state == .sending && torn.delivered.isEmpty)
    }

    @Test("an acceptance log that cannot be written or read says so instead of dropping the line")
    func unwritableLog() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let id = try #require(try sending(temp, account, ["a.eml"], to: ["b@example.org"]).first)
        // Root ignores modes: a directory where the file goes makes it unwritable for anyone.
        try FileManager.default.createDirectory(at: temp.directory.appendingPathComponent("accepted-sends"),
                                                withIntermediateDirectories: false)
        #expect(throws: AcceptanceLog.Failure.self) { try temp.store.sync.noteDelivered(send: id, to: ["b@example.org"]) }
        #expect(throws: AcceptanceLog.Failure.self) { try temp.store.sync.recoverDeliveries() }
        #expect(try temp.store.sync.outboxItem(id: id)?.state == .sending, "nothing decided on a log that cannot be read")
    }

    @Test("recipients recorded in the database instead of the log: the message found sending is accepted at start-up")
    func recordedInDatabase() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        let recipients = ["r1@example.org", "r2@example.org"]
        let ids = try sending(temp, account, ["all.eml", "half.eml"], to: recipients)
        try temp.store.sync.recordDelivered(send: ids[0], to: recipients)
        try temp.store.sync.recordDelivered(send: ids[1], to: ["r2@example.org"])
        let reopened = try MailStore(directory: temp.directory)
        #expect(try reopened.sync.recoverDeliveries() == 1)
        #expect(try reopened.sync.outboxItem(id: ids[0])?.state == .accepted)
        #expect(try reopened.sync.recoverInterruptedSends(accountId: account, machine: .untimed) == 1)
        let half = try #require(try reopened.sync.outboxItem(id: ids[1]))
        #expect(half.state == .queued && half.undelivered == ["r1@example.org"])
    }
}
