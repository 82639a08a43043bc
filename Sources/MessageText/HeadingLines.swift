import Foundation
import MailCore

/// The header lines a rendering prints: addresses, dates and sizes as a reader reads them,
/// each value on one line with its controls removed.
enum HeadingLines {
    /// `Subject:`, `From:`, `To:`, `Cc:` and `Date:` of an attached message.
    static func attachedMessage(_ heading: MessageHeading) -> String {
        lines([("Subject", heading.subject), ("From", addresses(heading.from)), ("To", addresses(heading.to)),
               ("Cc", addresses(heading.cc)), ("Date", date(heading.date))])
    }

    /// `Name <address>` lines joined by `, `; fields with no value are left out by `lines`.
    static func addresses(_ list: [EmailAddress]) -> String {
        list.map(address).joined(separator: ", ")
    }

    static func address(_ address: EmailAddress) -> String {
        let mailbox = ReadableText.oneLine(address.address)
        guard let name = address.name.map(ReadableText.oneLine), !name.isEmpty, name != mailbox else { return mailbox }
        return "\(name) <\(mailbox)>"
    }

    /// `2026-11-21 10:00 UTC`, in UTC as the tree's file names are.
    static func date(_ date: Date?) -> String {
        guard let date else { return "unknown date" }
        let stamp = UTCStamp(date)
        return "\(stamp.day) \(stamp.hourMinute) UTC"
    }

    /// `532 bytes`, `12 KB`, `1.4 MB` (powers of 1024).
    static func size(_ bytes: Int) -> String {
        switch bytes {
        case ..<1024: return bytes == 1 ? "1 byte" : "\(bytes) bytes"
        case ..<(1024 * 1024): return "\((bytes + 512) / 1024) KB"
        default:
            let tenths = (bytes * 10 + 512 * 1024) / (1024 * 1024)
            return "\(tenths / 10).\(tenths % 10) MB"
        }
    }

    /// `File:` and the attachments of a message in the tree.
    static func fileAndAttachments(_ message: ConversationMessage) -> String {
        var text = message.fileName.map { "File: \(ReadableText.oneLine($0))\n" } ?? ""
        for attachment in message.attachments {
            var line = "Attachment: \(ReadableText.oneLine(attachment.name)) (\(attachment.mimeType), \(size(attachment.size)))"
            if let path = attachment.path { line += " \(ReadableText.oneLine(path))" }
            text += line + "\n"
        }
        return text
    }

    /// `Name: value` lines for the fields that have a value.
    static func lines(_ fields: [(String, String)]) -> String {
        fields.compactMap { name, value in
            let shown = ReadableText.oneLine(value)
            return shown.isEmpty ? nil : "\(name): \(shown)\n"
        }.joined()
    }
}
