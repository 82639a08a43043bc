import Foundation
import GRDB

extension SendQueueStore {
    /// Adds `recipients` (those the server took the message for in the attempt that ends
    /// with `event`) to the row's `deliveredTo`, then feeds `event` to the machine and
    /// carries out its decision, which it returns (for `.log` and errno), in one transaction.
    /// A row gone meanwhile is `.ignore`d. The tree's events and start-up's do not depend
    /// on the delays: `SendStateMachine.untimed` decides them when no machine is given.
    @discardableResult
    public func transition(send id: Int64, _ event: SendStateMachine.Event, deliveredTo recipients: [String] = [],
                           machine: SendStateMachine = .untimed, now: Date = Date()) throws -> SendStateMachine.Decision {
        try store.pool.write { db in
            try MailStore.addDelivered(recipients, to: id, db: db)
            return try MailStore.transition(send: id, event, machine: machine, now: now, db: db)
        }
    }
}
