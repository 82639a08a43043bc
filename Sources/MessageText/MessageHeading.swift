import Foundation
import MailCore

/// The envelope fields a rendering shows above a message's text: who, to whom, when, what.
/// The tree fills it from the store; `init(parsed:)` from a message parsed here.
public struct MessageHeading: Sendable, Hashable {
    /// Decoded (RFC 2047), unfolded; "" when the message has none.
    public var subject: String
    public var from: [EmailAddress]
    public var to: [EmailAddress]
    public var cc: [EmailAddress]
    /// The Date header; nil when absent or unreadable.
    public var date: Date?

    public init(subject: String, from: [EmailAddress], to: [EmailAddress] = [], cc: [EmailAddress] = [],
                date: Date?) {
        self.subject = subject
        self.from = from
        self.to = to
        self.cc = cc
        self.date = date
    }

    public init(parsed: ParsedMessage) {
        self.init(subject: parsed.subject, from: parsed.from, to: parsed.to, cc: parsed.cc, date: parsed.date)
    }
}
