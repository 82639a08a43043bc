import Foundation

/// What each recipient of a message received, read from a test Dovecot user's Maildir.
/// The test Postfix delivers one recipient per LMTP transaction, so each copy carries its
/// own `Delivered-To`; with its `recipient_delimiter`, `bob+7@example.test` is a distinct
/// recipient whose copies land in bob's INBOX (.ci/servers/postfix.sh).
public enum RecipientCopies {
    /// `count` distinct recipients that all deliver to `user`: `user+1@example.test` …
    public static func addresses(_ count: Int, of user: String = "bob") throws -> [String] {
        let domain = try TestServers.env("DOMAIN")
        return (1...count).map { "\(user)+\($0)@\(domain)" }
    }

    /// Copies per `Delivered-To` address of `user`'s messages with exactly this subject.
    public static func count(subject: String, user: String = "bob") throws -> [String: Int] {
        var copies: [String: Int] = [:]
        for message in try messages(subject: subject, user: user) {
            let header = message.components(separatedBy: "\n\n").first ?? ""
            guard let to = header.split(separator: "\n").first(where: { $0.hasPrefix("Delivered-To: ") }) else { continue }
            copies[String(to.dropFirst("Delivered-To: ".count)), default: 0] += 1
        }
        return copies
    }

    /// `user`'s messages with exactly this subject, as delivered (line breaks as LF). Files
    /// are matched by their bytes (Dovecot's Maildir has LF line ends), so a Maildir that
    /// other tests filled with large messages is still searched in a moment.
    public static func messages(subject: String, user: String = "bob") throws -> [String] {
        let maildir = URL(fileURLWithPath: try TestServers.env("MAIL_DIR"))
            .appendingPathComponent(user).appendingPathComponent("Maildir")
        let line = Data("\nSubject: \(subject)\n".utf8)
        var found: [String] = []
        for folder in ["new", "cur"] {
            let directory = maildir.appendingPathComponent(folder)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [] {
                guard let data = FileManager.default.contents(atPath: directory.appendingPathComponent(name).path),
                      let match = data.range(of: line),
                      data.range(of: Data("\n\n".utf8), in: data.startIndex..<match.lowerBound) == nil else { continue }
                found.append(String(decoding: data, as: UTF8.self))
            }
        }
        return found
    }

    /// Waits (at most `seconds`) until every recipient has a copy, then a little longer for
    /// a duplicate; returns the copies per recipient, those with none included as 0.
    public static func settled(subject: String, recipients: [String], user: String = "bob",
                               seconds: Double = 30) async throws -> [String: Int] {
        _ = try await Poll.until(seconds: seconds) {
            let copies = try count(subject: subject, user: user)
            return recipients.allSatisfy { copies[$0, default: 0] > 0 }
        }
        try await Task.sleep(for: .milliseconds(1500))
        let copies = try count(subject: subject, user: user)
        return Dictionary(uniqueKeysWithValues: recipients.map { ($0, copies[$0, default: 0]) })
    }
}
