import Foundation
@testable import Store
import Testing

/// Every transition of a journal row, without a store or a server.
@Suite("Journal state machine")
struct ChangeStateMachineTests {
    let machine = ChangeStateMachine(retryDelays: [5, 15, 45], offlineBackoff: (2, 30))
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test("pending -> applying -> done")
    func happyPath() {
        guard case .update(.applying, 0, _, false, nil) = machine.decide(.pending, attempts: 0, interrupted: false,
                                                                          event: .claim, now: now) else {
            Issue.record("claim did not move to applying")
            return
        }
        #expect(machine.decide(.applying, attempts: 0, interrupted: false, event: .applied, now: now) == .finish)
    }

    @Test("a refusal is retried after 5, 15 and 45 s, then reverted with the reason")
    func refusals() {
        for (attempts, delay) in [(0, 5.0), (1, 15.0), (2, 45.0)] {
            let decision = machine.decide(.applying, attempts: attempts, interrupted: false, event: .refused("NO"), now: now)
            #expect(decision == .update(state: .pending, attempts: attempts + 1, notBefore: now.addingTimeInterval(delay),
                                        interrupted: false, error: "NO"))
        }
        #expect(machine.decide(.applying, attempts: 3, interrupted: false, event: .refused("NO"), now: now)
                == .revert(reason: "NO (gave up after 4 attempts)"))
    }

    @Test("an unreachable server never counts as a refusal: the change waits, backing off to 30 s")
    func offline() {
        for (failures, wait) in [(1, 2.0), (2, 4.0), (4, 16.0), (9, 30.0)] {
            #expect(machine.decide(.applying, attempts: 1, interrupted: false, event: .unreachable(failures: failures), now: now)
                    == .update(state: .pending, attempts: 1, notBefore: now.addingTimeInterval(wait), interrupted: false, error: nil))
        }
    }

    @Test("a row found applying at start-up is pending again and marked interrupted")
    func restart() {
        #expect(machine.decide(.applying, attempts: 2, interrupted: false, event: .restarted, now: now)
                == .update(state: .pending, attempts: 2, notBefore: now, interrupted: true, error: nil))
        #expect(machine.decide(.pending, attempts: 0, interrupted: false, event: .restarted, now: now) == .ignore)
    }

    @Test("held rows wait for the user: confirm makes them pending, cancel reverts them; nothing else moves them")
    func held() {
        #expect(machine.decide(.held, attempts: 0, interrupted: false, event: .confirm, now: now)
                == .update(state: .pending, attempts: 0, notBefore: now, interrupted: false, error: nil))
        #expect(machine.decide(.held, attempts: 0, interrupted: false, event: .cancel, now: now)
                == .revert(reason: "deletion cancelled"))
        #expect(machine.decide(.held, attempts: 0, interrupted: false, event: .claim, now: now) == .ignore)
        #expect(machine.decide(.done, attempts: 0, interrupted: false, event: .claim, now: now) == .ignore)
    }

    @Test("a batch is the head and the adjacent rows of the same kind and folders, in order")
    func batching() {
        func row(_ id: Int64, _ kind: ChangeKind, from: Int64 = 1, to: Int64 = 2) -> JournalChange {
            var change = JournalChange(accountId: 1, kind: kind, now: now)
            change.id = id
            change.folderId = from
            change.targetFolderId = to
            return change
        }
        let rows = [row(1, .move), row(2, .move), row(3, .move, to: 3), row(4, .move)]
        #expect(ChangeBatch.next(rows).map(\.id) == [1, 2])
        #expect(ChangeBatch.next([row(1, .append), row(2, .append)]).map(\.id) == [1])
        #expect(ChangeBatch.next([]).isEmpty)
    }
}

extension ChangeStateMachineTests {
    @Test("a refusal no retry can change is reverted at once, with the server's words")
    func permanentRefusal() {
        #expect(machine.decide(.applying, attempts: 0, interrupted: false, event: .refusedForGood("NO [TRYCREATE]"), now: now)
                == .revert(reason: "NO [TRYCREATE]"))
        #expect(machine.decide(.pending, attempts: 0, interrupted: false, event: .refusedForGood("NO"), now: now) == .ignore)
    }
}
