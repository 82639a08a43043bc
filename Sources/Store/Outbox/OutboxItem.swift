import Foundation
import GRDB

/// Where a message of `outbox/` is in FR-SYNC-07's life cycle.
public enum SendState: String, Codable, Sendable {
    /// Created in outbox/ and being written; becomes `queued` when closed and accepted.
    /// A draft left by a crash was never acknowledged to its writer and is dropped at start-up.
    case draft
    /// Waiting for its undo delay, its retry time or an older message of the account.
    case queued
    /// Being transmitted now. Found at start-up, it means the previous run died mid-send.
    case sending
    /// Given up (5xx, auth, 3 retries, 24 h): stays listed until `rm` or `touch`.
    case failed
    /// The server took it for every recipient it did not refuse for good: never sent
    /// again. Left only until the Sent copy is appended.
    case accepted
    /// Its Sent copy's APPEND was sent (or about to be): a run that finds it so looks for
    /// the copy in Sent before appending again, so a crash never files it twice.
    case filing
    /// Its undo delay was running when the mount stopped: kept, never sent on its own
    /// (docs/REQUIREMENTS.md, product spec §5.5.2); `touch` sends it, `rm` discards it.
    case held

    /// Accepted, its Sent copy filed or not: no longer listed in outbox/.
    public var isAccepted: Bool { self == .accepted || self == .filing }
}

/// One message of an account's send queue (table `sendQueue`), without its bytes.
public struct OutboxItem: Codable, Sendable, Equatable, FetchableRecord {
    public var id: Int64
    public var accountId: Int64
    public var fileName: String
    public var state: SendState
    public var envelopeFrom: String
    /// Recipients, one per line.
    public var envelopeTo: String
    /// The recipients the server has taken it for (a transaction it accepted), one per
    /// line: never sent to again, whatever happens to the rest.
    public var deliveredTo: String = ""
    public var createdAt: Date
    public var notBefore: Date
    public var attempts: Int
    public var lastError: String?
    public var acceptedAt: Date?
    public var sizeBytes: Int64

    public var recipients: [String] { envelopeTo.split(separator: "\n").map(String.init) }
    public var delivered: [String] { deliveredTo.split(separator: "\n").map(String.init) }

    /// The recipients still to send to, in envelope order.
    public var undelivered: [String] {
        let delivered = Set(delivered)
        return recipients.filter { !delivered.contains($0) }
    }

    /// The columns every query selects: all but the raw bytes.
    static let columns = """
        id, accountId, fileName, state, envelopeFrom, envelopeTo, deliveredTo, createdAt, notBefore, attempts,
        lastError, acceptedAt, length(raw) AS sizeBytes
        """
}

/// What `close()` of a new outbox file commits: the prepared bytes and their envelope.
public struct OutgoingMessage: Sendable {
    public var fileName: String
    public var data: [UInt8]
    public var envelopeFrom: String
    public var recipients: [String]

    public init(fileName: String, data: [UInt8], envelopeFrom: String, recipients: [String]) {
        self.fileName = fileName
        self.data = data
        self.envelopeFrom = envelopeFrom
        self.recipients = recipients
    }
}
