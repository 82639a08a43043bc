import FuzzDriver
import MailCore

/// A whole message through the parser that fills the store: headers, envelope, MIME tree,
/// bodies and attachments, then each attachment's decoded content and its file name as the
/// mount would show it. Checks what the tree relies on.
fuzz { raw in
    let message = MessageParser.parse(raw)
    precondition(MessageParser.headerBlockEnd(raw) <= raw.count)
    precondition(!message.subject.contains("\n"), "subject with a line break")
    for attachment in message.attachments {
        let content = MessageParser.decodedContent(ofPart: attachment.partID, in: raw)
        precondition(content?.count == attachment.size, "attachment size differs from its content")
        let name = FileNamer.sanitize(attachment.filename ?? "")
        precondition(!name.contains("/") && !name.contains("\0") && !name.hasPrefix("."), "unsafe name")
        precondition(name.utf8.count <= FileNamer.maxNameBytes, "name too long")
    }
    let subjectName = FileNamer.messageFileName(date: message.date ?? .distantPast,
                                                from: FileNamer.senderName(message.from.first),
                                                subject: message.subject)
    precondition(!subjectName.contains("/") && subjectName.utf8.count <= FileNamer.maxNameBytes, "unsafe name")
    for body in [message.bodyPlain, message.bodyHTML].compactMap({ $0 }) {
        precondition(body.utf8.count <= MessageParser.maxBodyBytes * 3 + 100, "body unbounded")
        precondition(!body.contains("\r\n"), "body keeps CR LF")
    }
}
