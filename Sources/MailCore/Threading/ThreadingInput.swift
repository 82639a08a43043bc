import Foundation

/// What threading needs to know of one message (FR-SYNC-06 step 1).
public struct ThreadingInput: Sendable, Hashable {
    /// The store's id of the message.
    public var id: Int64
    public var messageID: String?
    public var inReplyTo: [String]
    public var references: [String]
    /// The decoded subject (normalization happens inside threading).
    public var subject: String
    /// Date used for the 30-day subject window.
    public var date: Date

    public init(id: Int64, messageID: String?, inReplyTo: [String], references: [String],
                subject: String, date: Date) {
        self.id = id
        self.messageID = messageID
        self.inReplyTo = inReplyTo
        self.references = references
        self.subject = subject
        self.date = date
    }
}
