import Foundation
@testable import Store
import Testing

/// The instant record of a server's acceptance, and its use at start-up.
@Suite("Acceptance log")
struct AcceptanceLogTests {
    @Test("a message accepted just before a crash (state still sending) is marked accepted at start-up, never queued again")
    func recovery() throws {
        let temp = try TemporaryStore()
        let account = try temp.account()
        var ids: [Int64] = []
        for name in ["a.eml", "b.eml"] {
            let draft = try #require(try temp.store.createDraft(accountId: account, fileName: name))
            let message = OutgoingMessage(fileName: name, data: Array("To: b@example.org\r\n\r\nhi\r\n".utf8),
                                          envelopeFrom: "a@example.org", recipients: ["b@example.org"])
            #expect(try temp.store.enqueue(draft: draft.id, message, undoDelay: 0))
            // A second later: dates are stored to the millisecond, rounded.
            try temp.store.transition(send: draft.id, .claim, now: Date().addingTimeInterval(1))
            ids.append(draft.id)
        }
        // The server took a.eml; the process died before SQLite heard of it.
        temp.store.noteAccepted(send: ids[0])
        #expect(try temp.store.recoverAcceptedSends() == 1)
        #expect(try temp.store.outboxItem(id: ids[0])?.state == .accepted)
        let requeued = try temp.store.recoverInterruptedSends(accountId: account, machine: SendStateMachine())
        let states = try temp.store.outboxItems(accountId: account).map { "\($0.fileName) \($0.state)" }
        #expect(requeued == 1, "\(states)")
        #expect(try temp.store.outboxItem(id: ids[1])?.state == .queued)
        // The log is emptied: a second start-up finds nothing.
        #expect(try temp.store.recoverAcceptedSends() == 0)
    }
}
