import Foundation
@testable import Store
import Testing

/// Every transition of a send-queue row, without a store or a server.
@Suite("Send state machine")
struct SendStateMachineTests {
    let machine = SendStateMachine(retryDelays: [30, 120, 480], maxQueueAge: 24 * 3600)
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    /// A row created an hour ago, due now unless told otherwise.
    func item(_ state: SendState, attempts: Int = 0, age: TimeInterval = 3600, dueIn: TimeInterval = 0,
              error: String? = nil, to recipients: [String] = ["bob@example.org"], delivered: [String] = []) -> OutboxItem {
        OutboxItem(id: 1, accountId: 1, fileName: "hi.eml", state: state, envelopeFrom: "alice@example.org",
                   envelopeTo: recipients.joined(separator: "\n"), deliveredTo: delivered.joined(separator: "\n"),
                   createdAt: now.addingTimeInterval(-age),
                   notBefore: now.addingTimeInterval(dueIn), attempts: attempts, lastError: error, acceptedAt: nil,
                   sizeBytes: 10)
    }

    func decide(_ item: OutboxItem, _ event: SendStateMachine.Event) -> SendStateMachine.Decision {
        machine.decide(item, event: event, now: now)
    }

    @Test("draft -> queued after the undo delay, with a fresh budget; an abandoned draft is removed")
    func submit() {
        #expect(decide(item(.draft), .submit(undoDelay: 10))
                == .update(state: .queued, attempts: 0, notBefore: now.addingTimeInterval(10), error: nil, createdAt: now))
        #expect(decide(item(.draft), .abandon) == .remove)
        #expect(decide(item(.queued), .abandon) == .ignore)
        #expect(decide(item(.queued), .submit(undoDelay: 0)) == .ignore)
    }

    @Test("queued -> sending when due; waits for its time otherwise (and holds the queue)")
    func claim() {
        let due = item(.queued, attempts: 1, error: "421 busy")
        #expect(decide(due, .claim) == .update(state: .sending, attempts: 1, notBefore: due.notBefore,
                                               error: "421 busy", createdAt: due.createdAt))
        #expect(decide(item(.queued, dueIn: 30), .claim) == .wait(until: now.addingTimeInterval(30)))
        #expect(decide(item(.failed), .claim) == .ignore)
    }

    @Test("queued for more than 24 h: failed with \"send timeout\", even before its retry time")
    func timeout() {
        let old = item(.queued, age: 25 * 3600, dueIn: 60)
        #expect(decide(old, .claim) == .update(state: .failed, attempts: 0, notBefore: old.notBefore,
                                               error: "send timeout: queued for more than 24 hours",
                                               createdAt: old.createdAt))
    }

    static let recipients = ["bob@example.org", "carol@example.org", "dave@example.org"]

    static func refusal(_ address: String, _ code: Int) -> RecipientRefusal {
        RecipientRefusal(address: address, reply: "\(code) no", isTransient: code < 500)
    }

    @Test("sending -> accepted once every recipient is reached or refused for good, with the refusals as note")
    func accepted() {
        let sent = item(.sending, to: Self.recipients, delivered: ["bob@example.org", "dave@example.org"])
        #expect(decide(sent, .answered(refused: [Self.refusal("carol@example.org", 550)]))
                == .accept(note: "not delivered to carol@example.org: 550 no", at: now))
        let all = item(.sending, to: Self.recipients, delivered: Self.recipients)
        #expect(decide(all, .answered(refused: [])) == .accept(note: nil, at: now))
        #expect(decide(item(.queued), .answered(refused: [])) == .ignore)
    }

    @Test("recipients refused for now are tried again later, and only they; the reason says how far it got")
    func partlyDelivered() {
        let sent = item(.sending, to: Self.recipients, delivered: ["bob@example.org"])
        let decision = decide(sent, .answered(refused: [Self.refusal("carol@example.org", 550),
                                                        Self.refusal("dave@example.org", 452)]))
        #expect(decision == .update(state: .queued, attempts: 1, notBefore: now.addingTimeInterval(30),
                                    error: "not yet delivered to dave@example.org: 452 no; not delivered to carol@example.org: 550 no "
                                        + "(delivered to 1 of 3 recipients)",
                                    createdAt: sent.createdAt))
        let cut = decide(sent, .transient("the SMTP connection closed unexpectedly"))
        guard case .update(.queued, 1, _, let reason?, _) = cut else {
            Issue.record("not retried: \(cut)")
            return
        }
        #expect(reason == "the SMTP connection closed unexpectedly (delivered to 1 of 3 recipients)")
    }

    @Test("every recipient refused: failed; for good at once, for now after the retries")
    func everyRecipientRefused() {
        let sent = item(.sending, to: ["bob@example.org", "carol@example.org"])
        #expect(decide(sent, .answered(refused: [Self.refusal("bob@example.org", 550), Self.refusal("carol@example.org", 554)]))
                == .update(state: .failed, attempts: 0, notBefore: sent.notBefore,
                           error: "every recipient was refused: bob@example.org: 550 no; carol@example.org: 554 no",
                           createdAt: sent.createdAt))
        let last = item(.sending, attempts: 3, to: ["bob@example.org"])
        guard case .update(.failed, 3, _, let reason?, _) = decide(last, .answered(refused: [Self.refusal("bob@example.org", 450)])) else {
            Issue.record("not failed")
            return
        }
        #expect(reason == "not yet delivered to bob@example.org: 450 no (gave up after 4 attempts)")
    }

    @Test("a long list of refusals is cut to three and a count")
    func longRefusalList() {
        let recipients = (1...500).map { "r\($0)@example.org" }
        let sent = item(.sending, to: recipients, delivered: Array(recipients.prefix(100)))
        let refused = recipients.dropFirst(100).map { Self.refusal($0, 452) }
        guard case .update(.queued, _, _, let reason?, _) = decide(sent, .answered(refused: refused)) else {
            Issue.record("not retried")
            return
        }
        #expect(reason == "not yet delivered to r101@example.org: 452 no; r102@example.org: 452 no; r103@example.org: 452 no "
                + "and 397 more (delivered to 100 of 500 recipients)")
    }

    @Test("the Sent copy: accepted -> filing before its APPEND, then removed once filed")
    func filing() {
        #expect(decide(item(.accepted), .appendingCopy)
                == .update(state: .filing, attempts: 0, notBefore: now, error: nil, createdAt: now.addingTimeInterval(-3600)))
        #expect(decide(item(.filing), .appendingCopy) == .ignore)
        #expect(decide(item(.accepted), .filed) == .remove)
        #expect(decide(item(.filing), .filed) == .remove)
        #expect(decide(item(.queued), .filed) == .ignore)
        #expect(decide(item(.sending), .appendingCopy) == .ignore)
    }

    @Test("at start-up, a message the acceptance log shows reached every recipient is accepted; others are not")
    func deliveredBeforeRestart() {
        #expect(decide(item(.sending, to: Self.recipients, delivered: Self.recipients), .deliveredBeforeRestart)
                == .accept(note: nil, at: now))
        #expect(decide(item(.sending, to: Self.recipients, delivered: ["bob@example.org"]), .deliveredBeforeRestart) == .ignore)
        #expect(decide(item(.queued, to: Self.recipients, delivered: Self.recipients), .deliveredBeforeRestart) == .ignore)
    }

    @Test("a transient failure is retried after 30 s, 2 min and 8 min, then fails saying how often it was tried")
    func transient() {
        for (attempts, delay) in [(0, 30.0), (1, 120.0), (2, 480.0)] {
            let sending = item(.sending, attempts: attempts)
            #expect(decide(sending, .transient("421 busy"))
                    == .update(state: .queued, attempts: attempts + 1, notBefore: now.addingTimeInterval(delay),
                               error: "421 busy", createdAt: sending.createdAt))
        }
        let last = item(.sending, attempts: 3)
        #expect(decide(last, .transient("421 busy"))
                == .update(state: .failed, attempts: 3, notBefore: last.notBefore,
                           error: "421 busy (gave up after 4 attempts)", createdAt: last.createdAt))
    }

    @Test("the delays follow the configuration (send_retry_delay_seconds scales them)")
    func scaledDelays() {
        let quick = SendStateMachine(retryDelays: [1, 4, 16], maxQueueAge: machine.maxQueueAge)
        #expect(quick.decide(item(.sending, attempts: 1), event: .transient("x"), now: now)
                == .update(state: .queued, attempts: 2, notBefore: now.addingTimeInterval(4), error: "x",
                           createdAt: now.addingTimeInterval(-3600)))
        let never = SendStateMachine(retryDelays: [], maxQueueAge: machine.maxQueueAge)
        #expect(never.decide(item(.sending), event: .transient("x"), now: now)
                == .update(state: .failed, attempts: 0, notBefore: now, error: "x (gave up after 1 attempts)",
                           createdAt: now.addingTimeInterval(-3600)), "no retry delays: the first failure is final")
    }

    @Test("a permanent failure fails at once with the server's text")
    func permanent() {
        let sending = item(.sending, attempts: 1)
        #expect(decide(sending, .permanent("550 no such user"))
                == .update(state: .failed, attempts: 1, notBefore: sending.notBefore, error: "550 no such user",
                           createdAt: sending.createdAt))
    }

    @Test("touch queues a failed message again with fresh attempts and age; nothing else")
    func retry() {
        #expect(decide(item(.failed, attempts: 3, age: 30 * 3600, error: "gave up"), .retry)
                == .update(state: .queued, attempts: 0, notBefore: now, error: nil, createdAt: now))
        for state in [SendState.draft, .queued, .sending, .accepted] {
            #expect(decide(item(state), .retry) == .ignore)
        }
    }

    @Test("rm removes drafts, queued and failed messages, refuses one being sent, ignores accepted ones")
    func discard() {
        for state in [SendState.draft, .queued, .failed] {
            #expect(decide(item(state), .discard) == .remove)
        }
        #expect(decide(item(.sending), .discard) == .refuse)
        #expect(decide(item(.accepted), .discard) == .ignore)
        #expect(decide(item(.filing), .discard) == .ignore)
    }

    @Test("rm of a message that reached some recipients accepts it as it is, so its Sent copy is filed")
    func discardPartlyDelivered() {
        for state in [SendState.queued, .failed] {
            #expect(decide(item(state, to: Self.recipients, delivered: ["carol@example.org"]), .discard)
                    == .accept(note: "not delivered to bob@example.org; dave@example.org: removed from outbox/ first", at: now))
        }
    }

    @Test("found sending at start-up: queued again as it was; failed, accepted and drafts stay")
    func restarted() {
        let sending = item(.sending, attempts: 2, dueIn: -5, error: "421 busy")
        #expect(decide(sending, .restarted) == .update(state: .queued, attempts: 2, notBefore: sending.notBefore,
                                                       error: "421 busy", createdAt: sending.createdAt))
        for state in [SendState.draft, .failed, .accepted, .filing, .held] {
            #expect(decide(item(state), .restarted) == .ignore)
        }
    }

    @Test("queued in its undo delay at start-up: held, never sent on its own; touch queues it, rm discards it")
    func heldAfterCrashInUndoWindow() {
        // Submitted an hour ago with a 5 s undo delay, never attempted.
        let inUndo = item(.queued, age: 3600, dueIn: -3595)
        guard case .update(.held, 0, _, let error?, _) = decide(inUndo, .restarted) else {
            Issue.record("not held: \(decide(inUndo, .restarted))")
            return
        }
        #expect(error.contains("undo delay"))
        // Already attempted (waiting for a retry), or queued with no undo delay: sent as before.
        #expect(decide(item(.queued, attempts: 1, dueIn: 30), .restarted) == .ignore)
        #expect(decide(item(.queued, age: 10, dueIn: -10), .restarted) == .ignore)
        #expect(decide(item(.held), .retry) == .update(state: .queued, attempts: 0, notBefore: now, error: nil, createdAt: now))
        #expect(decide(item(.held), .discard) == .remove)
        #expect(decide(item(.held), .claim) == .ignore)
    }

    @Test("failed and accepted rows ignore the sender's events")
    func terminal() {
        for state in [SendState.failed, .accepted, .filing] {
            for event in [SendStateMachine.Event.claim, .transient("x"), .permanent("x"), .answered(refused: [])] {
                #expect(decide(item(state), event) == .ignore)
            }
        }
    }
}
