import Foundation

/// What threading needs to know of one message (FR-SYNC-06 step 1), and what grouping and
/// the link keys both derive from it, derived once: a rethread of an import reads 50,000
/// of these, and normalizing each subject twice was a tenth of it.
public struct ThreadingInput: Sendable, Hashable {
    /// The store's id of the message.
    public let id: Int64
    public let messageID: String?
    public let inReplyTo: [String]
    public let references: [String]
    /// The decoded subject (normalization happens inside threading).
    public let subject: String
    /// Date used for the 30-day subject window.
    public let date: Date

    /// The cleaned own Message-ID, nil when absent or blank.
    let ownID: String?
    /// The cleaned, capped parent ids: In-Reply-To first, then References.
    let parentIDs: [String]
    /// The subject fallback's key (`SubjectNormalizer.threadingKey`); empty groups nothing.
    let threadingKey: String

    public init(id: Int64, messageID: String?, inReplyTo: [String], references: [String],
                subject: String, date: Date) {
        self.id = id
        self.messageID = messageID
        self.inReplyTo = inReplyTo
        self.references = references
        self.subject = subject
        self.date = date
        ownID = messageID.flatMap(Self.cleanID)
        parentIDs = Self.parentIDs(inReplyTo: inReplyTo, references: references)
        threadingKey = SubjectNormalizer.threadingKey(subject)
    }

    /// True when the message names no parent at all (neither In-Reply-To nor References
    /// holds a usable id): only such messages take part in the subject fallback.
    public var hasNoParentHeaders: Bool { parentIDs.isEmpty }
}
