import Foundation
import GRDB
import MailCore

extension IngestingStore {
    /// Parses messages and turns them into rows, on every core, without touching the
    /// database: a caller may prepare one batch while the one before it is written.
    public func prepare(_ messages: [IncomingMessage]) -> PreparedBatch {
        PreparedBatch(messages: messages.parallelMap(PreparedMessage.init))
    }
}
