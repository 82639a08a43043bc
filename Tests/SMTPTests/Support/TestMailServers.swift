import Foundation
import SMTP
import TestSupport
import Transport

/// The real Postfix (and Dovecot behind it) that `./test` starts with
/// `.ci/servers/with-servers.sh` (see `TestServerEnvironment`).
enum TestMailServers {
    static func env(_ name: String) throws -> String {
        try TestServerEnvironment.value(name)
    }

    /// An endpoint on the test Postfix; `port` names the variable (`SMTPS_PORT`, …).
    static func endpoint(_ port: String, _ security: SMTPSecurity) throws -> SMTPEndpoint {
        guard let number = Int(try env(port)) else { throw TestServerEnvironment.Missing(name: port) }
        return SMTPEndpoint(host: try env("HOST"), port: number, security: security,
                            tls: TLSOptions(extraCAFile: try env("CA_FILE")))
    }

    static func alicePassword() throws -> SMTPCredential {
        .password(user: try env("ALICE_EMAIL"), password: try env("ALICE_PASSWORD"))
    }

    /// A message from alice with a unique Message-ID, to `recipients` (bob when nil).
    static func submission(id: String, body: String = "Hello from the SMTP tests.\n",
                           recipients: [String]? = nil) throws -> SMTPSubmission {
        let from = try env("ALICE_EMAIL")
        let to = try recipients ?? [env("BOB_EMAIL")]
        let text = """
            From: Alice <\(from)>
            To: \(to.joined(separator: ", "))
            Subject: SMTP test \(id)
            Message-ID: <\(id)>
            MIME-Version: 1.0
            Content-Type: text/plain; charset=utf-8
            Content-Transfer-Encoding: 8bit

            \(body)
            """
        return SMTPSubmission(envelopeFrom: from, recipients: to, data: Array(text.utf8))
    }

    static func uniqueID() -> String { "smtp-\(UUID().uuidString)@mailfs.test" }

    /// The message with Message-ID `id` as delivered into `user`'s Maildir (line breaks
    /// as LF), waiting up to `timeout` for LMTP delivery.
    static func delivered(_ id: String, to user: String = "bob", timeout: Duration = .seconds(20)) async throws -> String {
        let maildir = URL(fileURLWithPath: try env("MAIL_DIR")).appendingPathComponent(user).appendingPathComponent("Maildir")
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
