import Foundation
import SMTP
import TestSupport
import Transport

/// What the SMTP tests send through the real Postfix (and Dovecot behind it) that `./test`
/// starts with `.ci/servers/with-servers.sh` (see `TestServers`), and where it arrives.
enum TestMailServers {
    /// An endpoint on the test Postfix; `port` names the variable (`SMTPS_PORT`, …).
    static func endpoint(_ port: String, _ security: SMTPSecurity) throws -> SMTPEndpoint {
        SMTPEndpoint(host: try TestServers.env("HOST"), port: try TestServers.port(port), security: security,
                     tls: TLSOptions(extraCAFile: try TestServers.env("CA_FILE")))
    }

    static func alicePassword() throws -> SMTPCredential {
        .password(user: try TestServers.env("ALICE_EMAIL"), password: try TestServers.env("ALICE_PASSWORD"))
    }

    /// A message from alice with a unique Message-ID, to `recipients` (bob when nil).
    static func submission(id: String, body: String = "Hello from the SMTP tests.\n",
                           recipients: [String]? = nil) throws -> SMTPSubmission {
        let from = try TestServers.env("ALICE_EMAIL")
        let to = try recipients ?? [TestServers.env("BOB_EMAIL")]
        let message = TestMessage(from: "Alice <\(from)>", to: to.joined(separator: ", "), subject: "SMTP test \(id)",
                                  date: nil, messageID: id,
                                  headers: TestMessage.plainText + ["Content-Transfer-Encoding: 8bit"],
                                  body: body, lineEnding: .lf)
        return SMTPSubmission(envelopeFrom: from, recipients: to, data: message.bytes)
    }

    static func uniqueID() -> String { "smtp-\(UUID().uuidString)@mailfs.test" }

    /// The message with Message-ID `id` as delivered into `user`'s Maildir (line breaks
    /// as LF), waiting up to `timeout` for LMTP delivery.
    static func delivered(_ id: String, to user: String = "bob", timeout: Duration = .seconds(20)) async throws -> String {
        let maildir = URL(fileURLWithPath: try TestServers.env("MAIL_DIR")).appendingPathComponent(user).appendingPathComponent("Maildir")
        func find() -> String? {
            for folder in ["new", "cur"] {
                let dir = maildir.appendingPathComponent(folder)
                let names = (try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []
                for name in names {
                    guard let data = FileManager.default.contents(atPath: dir.appendingPathComponent(name).path) else { continue }
                    let text = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
                    if text.contains("Message-ID: <\(id)>") { return text }
                }
            }
            return nil
        }
        // Poll.until looks once more after the deadline, for a test kept off the pool meanwhile.
        var found: String?
        _ = try await Poll.until(seconds: Double(timeout.components.seconds), every: .milliseconds(100)) {
            found = find()
            return found != nil
        }
        guard let found else { throw NotDelivered(id: id, user: user) }
        return found
    }

    struct NotDelivered: Error, CustomStringConvertible {
        var id: String
        var user: String
        var description: String { "<\(id)> did not reach \(user)'s Maildir" }
    }
}
