import Foundation
import MailCore

/// The UID an appended message got (UIDPLUS `APPENDUID`).
public struct AppendedUID: Sendable, Equatable {
    public var uidValidity: UInt32
    public var uid: UInt32

    public init(uidValidity: UInt32, uid: UInt32) {
        self.uidValidity = uidValidity
        self.uid = uid
    }
}

extension IMAPConnection {
    /// Above this size an APPEND waits for the server's `+` even under LITERAL+, so a
    /// server that refuses the message says so before megabytes are sent
    /// (docs/IMAP-QUIRKS.md §3.9).
    public static let synchronizingAppendThreshold = 100 * 1024

    /// APPEND `message` (RFC 5322 bytes) to a mailbox by raw name, with optional flags and
    /// internal date. Bare LFs and CRs go as CR LF (`LineEnds`: RFC 3501 §6.3.11; Cyrus
    /// refuses them), and the mailbox is closed first if it is open on this connection
    /// (`MailboxSelection`: Courier refuses an APPEND to the mailbox it has EXAMINEd).
    /// Returns the new UID when the server sends APPENDUID; nil otherwise (even under
    /// UIDPLUS some servers omit it): find the message by a unique header then.
    @discardableResult
    public func append(
        mailbox: String, flags: [String] = [], date: Date? = nil, message: [UInt8]
    ) async throws(IMAPError) -> AppendedUID? {
        try CommandText.requireFlags(flags)
        try await leave(mailbox)
        let message = LineEnds.crlf(message)
        let result = try await execute("APPEND") { command in
            command.raw("APPEND")
            command.string(mailbox)
            if !flags.isEmpty { command.raw("(\(flags.joined(separator: " ")))") }
            if let date { command.raw(IMAPDate.dateTime(date)) }
            command.literal(message, synchronizing: message.count > Self.synchronizingAppendThreshold)
        }
        guard case .appendUID(let validity, let uid)? = result.state.code else { return nil }
        return AppendedUID(uidValidity: validity, uid: uid)
    }
}
