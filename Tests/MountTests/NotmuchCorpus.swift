import Foundation
import TestSupport

/// A generated Maildir++ for comparing mailfs's search with notmuch's: people, topics,
/// replies (threads), attachments, HTML alternatives, inline images, flags, messages in two
/// folders, and dates from today back over a year. Seeded; dates are relative to now.
struct NotmuchCorpus {
    struct Message {
        var id: String
        /// Maildir++ folders holding it: "" (the inbox), ".Work", ".Work.Reports", ".Sent".
        var folders: [String]
        var flags: String?
        var raw: String
        /// Everything both indexes read as text, lower-cased: subject, addresses, body,
        /// attachment names.
        var text: String

        var tokens: [String] { text.split { !$0.isLetter && !$0.isNumber }.map(String.init) }

        var words: Set<String> { Set(tokens) }

        /// Whether `phrase` occurs as consecutive words.
        func contains(_ phrase: [String]) -> Bool {
            let tokens = tokens
            guard tokens.count >= phrase.count else { return false }
            return (0...(tokens.count - phrase.count)).contains { Array(tokens[$0..<($0 + phrase.count)]) == phrase }
        }
    }

    static let people = [
        ("Alice Smith", "alice@example.com"), ("Bob Brown", "bob@example.org"), ("Carol Jones", "carol@example.net"),
        ("Dave Miller", "dave@example.net"), ("Erin Clark", "erin@corp.example"),
    ]
    static let me = ("You Self", "you@corpus.example")
    static let topics = ["Budget", "Invoice", "Lunch", "Project deadline", "Quarterly report", "Travel plans",
                         "Server backup", "Garden party", "Contract renewal", "Coffee"]
    static let bodyWords = ["budget", "budgets", "invoice", "invoices", "lunch", "giraffe", "meeting", "meetings",
                            "planning", "numbers", "running", "coffee", "deadline", "hotel", "flight", "contract",
                            "backup", "garden", "review", "team"]
    static let phrases = ["quarterly report", "quarterly reports", "travel plans for the team"]
    static let attachments = [("report.pdf", "application/pdf"), ("invoice.pdf", "application/pdf"),
                              ("data.csv", "text/csv"), ("photo.png", "image/png")]
    static let dayOffsets = [0, 1, 2, 3, 5, 6, 8, 10, 13, 15, 20, 35, 40, 60, 75, 100, 130, 200, 300, 400, 500]

    let messages: [Message]

    init(count: Int, now: Date, calendar: Calendar) {
        var generator = SeededGenerator(state: 0x6E6F_746D_7563_68)
        var messages: [Message] = []
        for index in 0..<count {
            messages.append(Self.message(index, parents: messages, now: now, calendar: calendar, using: &generator))
        }
        self.messages = messages
    }

    /// Writes the Maildir++ under `root`.
    func write(to root: URL) throws {
        for folder in ["", ".Work", ".Work.Reports", ".Sent"] {
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(at: root.appendingPathComponent(folder).appendingPathComponent(sub),
                                                        withIntermediateDirectories: true)
            }
        }
        for (index, message) in messages.enumerated() {
            for folder in message.folders {
                let name = message.flags.map { "cur/\(index).corpus:2,\($0)" } ?? "new/\(index).corpus"
                try message.raw.write(to: root.appendingPathComponent(folder).appendingPathComponent(name),
                                      atomically: false, encoding: .utf8)
            }
        }
    }

    private static func message(_ index: Int, parents: [Message], now: Date, calendar: Calendar,
                                using generator: inout SeededGenerator) -> Message {
        let folder = ["", "", "", "", "", ".Work", ".Work", ".Work.Reports", ".Sent", ""].randomElement(using: &generator) ?? ""
        let sender = folder == ".Sent" ? me : people.randomElement(using: &generator) ?? me
        let recipient = folder == ".Sent" ? people.randomElement(using: &generator) ?? me : me
        let copied = people.randomElement(using: &generator).flatMap { Int.random(in: 0..<4, using: &generator) == 0 ? $0 : nil }
        let parent = index > 10 && Int.random(in: 0..<10, using: &generator) < 3 ? parents.randomElement(using: &generator) : nil
        let sent = MessageDate.rfc5322(date(now: now, calendar: calendar, using: &generator))
        let subject = parent.map { "Re: " + ($0.subject) } ?? "\(topics.randomElement(using: &generator) ?? "Note") number \(index)"
        var body = (0..<Int.random(in: 6...14, using: &generator)).compactMap { _ in bodyWords.randomElement(using: &generator) }
        if Int.random(in: 0..<4, using: &generator) == 0, let phrase = phrases.randomElement(using: &generator) {
            body.insert(phrase, at: Int.random(in: 0...body.count, using: &generator))
        }
        let text = body.joined(separator: " ") + "."
        let (mime, names) = content(text, using: &generator)
        let raw = TestMessage(from: "\(sender.0) <\(sender.1)>", to: "\(recipient.0) <\(recipient.1)>", subject: subject,
                              date: sent, messageID: "corpus-\(index)@corpus.example", inReplyTo: parent?.id,
                              references: parent.map { [$0.id] } ?? [],
                              headers: (copied.map { ["Cc: \($0.0) <\($0.1)>"] } ?? []) + mime.headers,
                              body: mime.body.map { $0 + "\n" }.joined(), lineEnding: .lf).text
        let flags = ["S", "S", "S", "S", "S", "S", "FS", "", "F", nil].randomElement(using: &generator) ?? "S"
        let indexed = ([subject, sender.0, sender.1, recipient.0, recipient.1, copied?.0 ?? "", copied?.1 ?? "", text] + names)
            .joined(separator: " ").lowercased()
        var folders = [folder]
        if index % 37 == 5, folder != ".Work" { folders.append(".Work") }
        return Message(id: "corpus-\(index)@corpus.example", folders: folders, flags: flags, raw: raw, text: indexed)
    }

    /// The MIME part of a message (its header lines and body lines) and the names of its
    /// attachments. Every text is the same in its plain and HTML forms.
    private static func content(_ text: String, using generator: inout SeededGenerator)
        -> ((headers: [String], body: [String]), [String]) {
        switch Int.random(in: 0..<10, using: &generator) {
        case 0, 1:
            let (name, type) = attachments.randomElement(using: &generator) ?? ("a.bin", "application/octet-stream")
            return ((["MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=b1"],
                     ["--b1", "Content-Type: text/plain", "", text, "--b1", "Content-Type: \(type); name=\"\(name)\"",
                      "Content-Disposition: attachment; filename=\"\(name)\"", "Content-Transfer-Encoding: base64", "",
                      "SGVsbG8gd29ybGQ=", "--b1--"]), [name])
        case 2:
            return ((["MIME-Version: 1.0", "Content-Type: multipart/alternative; boundary=b2"],
                     ["--b2", "Content-Type: text/plain", "", text, "--b2", "Content-Type: text/html", "",
                      "<html><body><p>\(text)</p></body></html>", "--b2--"]), [])
        case 3:
            return ((["MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=b3"],
                     ["--b3", "Content-Type: text/plain", "", text, "--b3", "Content-Type: image/png",
                      "Content-Disposition: inline", "Content-Transfer-Encoding: base64", "",
                      "iVBORw0KGgo=", "--b3--"]), [])
        default:
            return (([], [text]), [])
        }
    }

    /// Noon of a day some days back (today: half way since midnight), so no date sits on a
    /// boundary that the two clocks could read differently.
    private static func date(now: Date, calendar: Calendar, using generator: inout SeededGenerator) -> Date {
        let days = dayOffsets.randomElement(using: &generator) ?? 0
        let midnight = calendar.startOfDay(for: now)
        guard days > 0 else { return midnight.addingTimeInterval(now.timeIntervalSince(midnight) / 2) }
        let day = calendar.date(byAdding: .day, value: -days, to: midnight) ?? midnight
        return day.addingTimeInterval(12 * 3600)
    }
}

extension NotmuchCorpus.Message {
    var subject: String {
        raw.split(separator: "\n").first { $0.hasPrefix("Subject: ") }.map { String($0.dropFirst(9)) } ?? ""
    }
}
