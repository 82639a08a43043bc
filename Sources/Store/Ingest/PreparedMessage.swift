import Foundation
import MailCore

/// A message parsed and turned into rows, ready to write. Built outside the write
/// transaction so parsing (the slow part) never holds the database lock.
struct PreparedMessage: Sendable {
    var incoming: IncomingMessage
    var parsed: ParsedMessage
    var dedupKey: String
    var searchBody: String

    init(_ incoming: IncomingMessage) {
        self.incoming = incoming
        parsed = MessageParser.parse(incoming.raw)
        if let id = parsed.messageID, !id.isEmpty {
            dedupKey = "<\(id)>"
        } else {
            dedupKey = "digest:\(ContentDigest.hex(of: incoming.raw))"
        }
        let body = parsed.bodyPlain ?? parsed.bodyHTML ?? ""
        searchBody = String(body.prefix(Self.maxIndexedCharacters))
    }

    /// The full-text index keeps the first megabyte of text of a message: enough for
    /// search, bounded for hostile giants.
    static let maxIndexedCharacters = 1 << 20

    func emailRecord(accountId: Int64, fileName: String) -> EmailRecord {
        let from = parsed.from.first
        let flags = incoming.flags
        return EmailRecord(
            id: nil, accountId: accountId, threadId: nil, dedupKey: dedupKey,
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
            sizeBytes: Int64(incoming.raw.count),
            bodyPlain: parsed.bodyPlain, bodyHTML: parsed.bodyHTML,
            snippet: String((parsed.bodyPlain ?? parsed.subject).prefix(100)),
            hasAttachments: !parsed.attachments.isEmpty, fileName: fileName)
    }

    /// The name shown in listings: date, sender, subject (DESIGN.md §2).
    var baseFileName: String {
        FileNamer.messageFileName(date: parsed.date ?? incoming.arrival,
                                  from: FileNamer.senderName(parsed.from.first), subject: parsed.subject)
    }

    var searchAddresses: String {
        AddressFormatter.format(parsed.from + parsed.to + parsed.cc)
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
