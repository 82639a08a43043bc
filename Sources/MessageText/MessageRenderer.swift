/// One message as readable text: its heading (Subject, From, To, Cc, Date, its file and
/// attachments), a blank line, then its text (`MessageBody`). What `mailfs show` prints for
/// a message file.
///
///     Subject: Lunch plans
///     From: Alice Smith <alice@example.com>
///     To: bob@example.com
///     Date: 2026-11-20 14:32 UTC
///     File: 2026-11-20 1432 Alice Smith - Lunch plans.eml
///
///     Noon at the usual place?
public enum MessageRenderer {
    public static func render(_ message: ConversationMessage) -> String {
        let heading = message.heading
        return HeadingLines.lines([("Subject", heading.subject), ("From", HeadingLines.addresses(heading.from)),
                                   ("To", HeadingLines.addresses(heading.to)),
                                   ("Cc", HeadingLines.addresses(heading.cc)),
                                   ("Date", HeadingLines.date(heading.date))])
            + HeadingLines.fileAndAttachments(message) + "\n" + text(of: message)
    }

    /// The text under a message's heading, ending with a line feed.
    static func text(of message: ConversationMessage) -> String {
        switch message.body {
        case .raw(let bytes):
            return BodyRenderer.text(ofMessage: bytes)
        case .texts(let plain, let html):
            return BodyRenderer.text(plain: plain, html: html)
        case .notStored:
            let file = message.fileName.map { "read \"\(ReadableText.oneLine($0))\", which downloads it" }
                ?? "read its .eml file, which downloads it"
            return "[the text of this message is not stored locally: \(file)]\n"
        }
    }
}
