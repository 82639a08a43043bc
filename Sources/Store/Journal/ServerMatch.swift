import Foundation
import GRDB
import MailCore

/// How the journal applier tells its own message from others that share its Message-ID
/// on the server (after an interrupted COPY or APPEND, a move already done, a UIDVALIDITY
/// change): by the message's fingerprint, as the sync links copies (`SameMessage`). A row
/// stored before fingerprints, whose bytes were never stored whole, has only its size.
public struct ServerMatch: Sendable, Equatable {
    public var fingerprint: MessageFingerprint?
    public var size: Int

    public init(fingerprint: MessageFingerprint?, size: Int) {
        self.fingerprint = fingerprint
        self.size = size
    }

    /// Whether a server message with this fingerprint is this message.
    public func accepts(_ candidate: MessageFingerprint) -> Bool {
        guard let fingerprint else { return candidate.size == size }
        return candidate == fingerprint
    }
}

extension SyncStore {
    /// What the message looks like on the server; nil when it is no longer stored.
    public func serverMatch(emailId: Int64) throws -> ServerMatch? {
        try store.pool.read { db in
            guard let row = try Row.fetchOne(db, sql: "SELECT fingerprint, sizeBytes FROM email WHERE id = ?",
                                             arguments: [emailId]) else { return nil }
            let stored: String? = row["fingerprint"]
            return ServerMatch(fingerprint: stored.flatMap(MessageFingerprint.init(stored:)), size: row["sizeBytes"])
        }
    }
}
