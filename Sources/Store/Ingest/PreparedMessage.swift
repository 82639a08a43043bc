import Foundation
import MailCore

/// A message parsed and turned into rows, ready to write. Built outside the write
/// transaction so parsing (the slow part) never holds the database lock, and built in
/// full: an import or a sync prepares the next batch on other threads while one thread
/// writes, and that thread is the busy one (docs/DECISIONS.md, "Import: reading ahead,
/// statement journals in memory, page size").
struct PreparedMessage: Sendable {
    var incoming: IncomingMessage
    var parsed: ParsedMessage
    var fingerprint: MessageFingerprint
    /// The name shown in listings: date, sender, subject (docs/REQUIREMENTS.md §C2).
    let baseFileName: String
    /// What the full-text index keeps of the message, but for its id.
    let searchEntry: SearchEntry
    /// The message's row but for what the writer decides (its account and file name).
    /// Only the folder and UID of `incoming` change after `init`, and the row holds neither.
    let row: EmailInsertion

    /// The bytes to keep in the store; nil when only part of the message was fetched.
    var raw: [UInt8]?
    var size: Int

    init(_ incoming: IncomingMessage) {
        self.incoming = incoming
        switch incoming.content {
        case .raw(let bytes):
            raw = bytes
            size = bytes.count
            parsed = MessageParser.parse(bytes)
        case .partial(let partial):
            raw = nil
            size = partial.size
            parsed = MessageParser.parse(partial.header)
            parsed.bodyPlain = partial.bodyPlain
            parsed.bodyHTML = partial.bodyHTML
            parsed.attachments = partial.attachments
            // No MIME tree beyond the header's own type: the texts' and attachments' types.
            parsed.partTypes = Array(parsed.partTypes.prefix(1)) + (partial.bodyPlain == nil ? [] : ["text/plain"])
                + (partial.bodyHTML == nil ? [] : ["text/html"]) + partial.attachments.map(\.mimeType)
        }
        fingerprint = incoming.fingerprint ?? Self.fingerprint(of: incoming.content, reportedSize: incoming.reportedSize)
        baseFileName = FileNamer.messageFileName(date: parsed.date ?? incoming.arrival,
                                                 from: FileNamer.senderName(parsed.from.first), subject: parsed.subject)
        searchEntry = SearchEntry(parsed)
        row = EmailInsertion(Self.row(parsed, incoming: incoming, fingerprint: fingerprint, size: size,
                                      keepsTexts: raw == nil))
    }

    /// Without the server's word: local bytes as a server would report them; bytes a server
    /// sent whole, by the size it reported; a partial message from the header section and
    /// RFC822.SIZE it came with.
    private static func fingerprint(of content: IncomingMessage.Content, reportedSize: Int?) -> MessageFingerprint {
        switch content {
        case .raw(let bytes):
            return reportedSize.map { MessageFingerprint(reportedSize: $0, message: bytes) } ?? MessageFingerprint(message: bytes)
        case .partial(let partial): return MessageFingerprint(size: partial.size, header: partial.header)
        }
    }

    /// `keepsTexts`: whether the row holds the message's texts, which it does only when its
    /// bytes are not stored (`EmailRecord.bodyPlain`).
    private static func row(_ parsed: ParsedMessage, incoming: IncomingMessage,
                            fingerprint: MessageFingerprint, size: Int, keepsTexts: Bool) -> EmailRecord {
        let from = parsed.from.first
        let flags = incoming.flags
        return EmailRecord(
            id: nil, accountId: 0, threadId: nil, fingerprint: fingerprint.stored,
            messageId: parsed.messageID,
            inReplyTo: parsed.inReplyTo.joined(separator: " "),
            references: parsed.references.joined(separator: " "),
            fromAddress: from?.address ?? "", fromName: from?.name ?? "",
            toAddresses: AddressFormatter.format(parsed.to),
            ccAddresses: AddressFormatter.format(parsed.cc),
            bccAddresses: AddressFormatter.format(parsed.bcc),
            subject: parsed.subject, dateSent: parsed.date, dateReceived: incoming.arrival,
            isRead: flags.seen, isStarred: flags.flagged, isDraft: flags.draft,
            isAnswered: flags.answered, isDeleted: flags.deleted,
            sizeBytes: Int64(size),
            bodyPlain: keepsTexts ? parsed.bodyPlain : nil, bodyHTML: keepsTexts ? parsed.bodyHTML : nil,
            snippet: Snippet.make(plain: parsed.bodyPlain, html: parsed.bodyHTML,
                                  fallback: parsed.subject, limit: 100),
            hasAttachments: !parsed.attachments.isEmpty, fileName: "")
    }
}

enum AddressFormatter {
    /// `Name <addr>, addr2` — how address lists are stored and indexed.
    static func format(_ addresses: [EmailAddress]) -> String {
        addresses.map { address in
            guard let name = address.name, !name.isEmpty else { return address.address }
            return "\(name) <\(address.address)>"
        }.joined(separator: ", ")
    }
}
