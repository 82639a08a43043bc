import Foundation
import TestSupport
import Testing

/// One account of a test IMAP server in the config of a write-back mount (IMAP only).
struct WriteBackAccount: MountAccount {
    /// The account's name and the server's user (alice, bob, carol, gmail, gmailv; one of `kind.users`).
    var user = "alice"
    var kind = IMAPServerKind.dovecot
    /// nil: the kind's IMAPS port; `WriteBack.noMovePort` for the Dovecot without MOVE.
    var imapPort: Int?
    var deleteGuard: Int?
    var retryDelaySeconds: Int?
    /// The config's `trash_folder` (unprefixed, as the tree shows it).
    var trashFolder: String?

    var toml: String {
        get throws {
            try #require(try kind.users.contains(user), "\(kind.rawValue) has no user \(user)")
            let prefix = user.uppercased()
            var lines = [
                "[accounts.\(user)]",
                "address = \"\(try TestServers.env("\(prefix)_EMAIL"))\"",
                "username = \"\(user)\"",
                "password_command = \"printenv MAILFS_TEST_\(prefix)_PASSWORD\"",
                "ca_file = \"\(try TestServers.env("CA_FILE"))\"",
            ]
            // gmailv: Gmail's layout with an All Mail that holds only what some folder holds.
            if ["gmail", "gmailv"].contains(user) { lines.append("provider = \"gmail\"") }
            if let deleteGuard { lines.append("delete_guard = \(deleteGuard)") }
            if let retryDelaySeconds { lines.append("retry_delay_seconds = \(retryDelaySeconds)") }
            if let trashFolder { lines.append("trash_folder = \"\(trashFolder)\"") }
            lines += ["", "[accounts.\(user).imap]", "host = \"127.0.0.1\"", "port = \(try imapPort ?? kind.port)", ""]
            return lines.joined(separator: "\n")
        }
    }
}

/// A message a write-back test puts on the server: unique subject and Message-ID, and the
/// stable name it gets in every directory of the mount.
struct Letter: Hashable {
    let subject: String
    /// The Message-ID without its angle brackets.
    let id: String
    /// CRLF lines.
    var body = "write-back test\r\n"
    /// The Message-ID it answers, without angle brackets: a reply joins its thread.
    var inReplyTo: String?

    init(_ prefix: String) {
        let unique = UUID().uuidString.prefix(8).lowercased()
        subject = "\(prefix) \(unique)"
        id = "wb-\(UUID().uuidString.lowercased())@example.test"
    }

    /// With its angle brackets, as seed.py takes and prints it.
    var messageID: String { "<\(id)>" }

    /// `count` letters; `bodyLines` > 0 gives each a body of that many 60-byte lines.
    static func many(_ prefix: String, _ count: Int, bodyLines: Int = 0) -> [Letter] {
        (0..<count).map { n in
            var letter = Letter("\(prefix) " + String(format: "%04d", n))
            if bodyLines > 0 {
                letter.body = String(repeating: "line of letter \(String(format: "%04d", n)) " + String(repeating: "x", count: 38) + "\r\n",
                                     count: bodyLines)
            }
            return letter
        }
    }

    var fileName: String { "2026-11-21 1200 Ann - \(subject).eml" }

    var raw: String {
        TestMessage(from: "Ann <ann@example.test>", subject: subject, date: "Sat, 21 Nov 2026 12:00:00 +0000",
                    messageID: id, inReplyTo: inReplyTo, body: body).text
    }
}

/// A message as `seed.py list` shows it.
struct ServerMessage {
    var uid: Int
    var flags: Set<String>
    var messageID: String
    var subject: String
}

/// The server side of the write-back tests: "a second client" (seed.py) that seeds folders
/// and checks what the mount did on a server of the matrix (`on:`, Dovecot unless named;
/// mailbox names unprefixed and `/`-separated, as seed.py takes and prints them), and the
/// no-MOVE Dovecot's record of what clients sent.
enum WriteBack {
    static func unique(_ prefix: String) -> String {
        "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
    }

    /// seed.py `COMMAND ARGS…` on the kind's server.
    static func seed(_ arguments: [String], on kind: IMAPServerKind = .dovecot) async throws -> Shell.Result {
        try await TestServers.seedResult(Array(arguments.prefix(1)) + kind.seedArguments + arguments.dropFirst())
    }

    static var noMovePort: Int {
        get throws { try TestServers.port("IMAPS_NOMOVE_PORT") }
    }

    static func createMailbox(_ user: String, _ names: String..., on kind: IMAPServerKind = .dovecot) async throws {
        let result = try await seed(["create-mailbox", "--user", user] + names, on: kind)
        #expect(result.status == 0, "create-mailbox \(names) on \(kind.rawValue): \(result.output)")
    }

    /// Appends the letters to `mailbox` in one IMAP session (seed.py append DIR).
    static func append(_ letters: [Letter], user: String, mailbox: String, flags: String? = nil,
                       on kind: IMAPServerKind = .dovecot) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("wb-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (index, letter) in letters.enumerated() {
            try letter.raw.write(to: dir.appendingPathComponent(String(format: "%06d.eml", index)),
                                 atomically: false, encoding: .utf8)
        }
        let result = try await seed(["append", "--user", user, "--mailbox", mailbox] + (flags.map { ["--flags", $0] } ?? [])
                              + [dir.path], on: kind)
        #expect(result.status == 0, "append to \(mailbox) on \(kind.rawValue): \(result.output)")
    }

    /// The messages of a mailbox; nil when the mailbox does not exist (or the server is down).
    static func list(_ user: String, _ mailbox: String, on kind: IMAPServerKind = .dovecot) async throws -> [ServerMessage]? {
        let result = try await seed(["list", "--user", user, "--mailbox", mailbox], on: kind)
        guard result.status == 0 else { return nil }
        return result.lines.compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 4, let uid = Int(fields[0]) else { return nil }
            return ServerMessage(uid: uid, flags: Set(fields[1].split(separator: " ").map(String.init)),
                                 messageID: fields[2], subject: fields[3])
        }
    }

    /// The message of a mailbox with that Message-ID (the first, if the mailbox has several).
    static func message(_ letter: Letter, user: String, mailbox: String,
                        on kind: IMAPServerKind = .dovecot) async throws -> ServerMessage? {
        try await list(user, mailbox, on: kind)?.first { $0.messageID == letter.messageID }
    }

    /// Every mailbox of the account that holds the letter, once per copy, sorted.
    static func locate(_ letter: Letter, user: String, on kind: IMAPServerKind = .dovecot) async throws -> [String] {
        let result = try await seed(["locate", "--user", user, "--message-id", letter.messageID], on: kind)
        #expect(result.status == 0, "locate on \(kind.rawValue): \(result.output)")
        return result.lines.compactMap { $0.split(separator: "\t").first.map(String.init) }.sorted()
    }

    /// Where the letter is, for failure messages (never throws).
    static func places(_ letter: Letter, user: String, on kind: IMAPServerKind = .dovecot) async -> String {
        (try? await locate(letter, user: user, on: kind)).map { "\($0)" } ?? "(locate failed)"
    }

    /// How many messages the mailbox has, for failure messages (never throws).
    static func describeCount(_ user: String, _ mailbox: String, on kind: IMAPServerKind = .dovecot) async -> String {
        (try? await count(user, mailbox, on: kind)).flatMap { $0 }.map(String.init) ?? "(no count)"
    }

    /// How many messages the mailbox has; nil when it does not exist.
    static func count(_ user: String, _ mailbox: String, on kind: IMAPServerKind = .dovecot) async throws -> Int? {
        let result = try await seed(["count", "--user", user, "--mailbox", mailbox], on: kind)
        return result.status == 0 ? Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) : nil
    }

    static func exists(_ user: String, _ mailbox: String, on kind: IMAPServerKind = .dovecot) async throws -> Bool {
        try await count(user, mailbox, on: kind) != nil
    }

    /// Whether each mailbox exists, in order.
    static func existing(_ user: String, _ mailboxes: [String], on kind: IMAPServerKind = .dovecot) async throws -> [Bool] {
        var answers: [Bool] = []
        for mailbox in mailboxes { answers.append(try await exists(user, mailbox, on: kind)) }
        return answers
    }

    /// How many copies of each letter each of `mailboxes` holds: [Message-ID: [mailbox]].
    static func census(_ user: String, _ mailboxes: [String], on kind: IMAPServerKind = .dovecot) async throws -> [String: [String]] {
        var places: [String: [String]] = [:]
        for mailbox in mailboxes {
            for message in try await list(user, mailbox, on: kind) ?? [] { places[message.messageID, default: []].append(mailbox) }
        }
        return places
    }

    /// Waits until the letter is exactly in `mailboxes` (sorted, one entry per copy).
    static func waitUntil(_ letter: Letter, user: String, isIn mailboxes: [String], seconds: Double = 30,
                          on kind: IMAPServerKind = .dovecot) async throws -> Bool {
        try await Poll.until(seconds: seconds) { try await locate(letter, user: user, on: kind) == mailboxes.sorted() }
    }

    /// The commands clients sent to the no-MOVE Dovecot as `user` (rawlog-nomove/*.in), one
    /// list per session, each command as its words after the tag, upper-cased:
    /// ["UID", "COPY", "7", "\"B\""]. Dovecot writes a session's log out when it ends.
    static func noMoveSessions(_ user: String) throws -> [[[String]]] {
        let dir = URL(fileURLWithPath: try TestServers.env("MAIL_DIR"))
            .appendingPathComponent(user).appendingPathComponent("rawlog-nomove")
        return try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasSuffix(".in") }.sorted().map { name in
            let data = (try? Data(contentsOf: dir.appendingPathComponent(name))) ?? Data()
            return String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline).compactMap { line in
                // "1795493347.441829 TAG COMMAND ARGS…", CRLF-terminated (one Character: isNewline)
                let words = line.split(separator: " ").map { $0.uppercased() }
                return words.count >= 3 && Double(words[0]) != nil ? Array(words.dropFirst(2)) : nil
            }
        }
    }
}

extension MountedMailfs {
    /// A fresh folder of alice's on the kind's server (named after `label`) holding
    /// `letters`, and a started mount of alice's account that lists them.
    static func aliceFolder(_ label: String, holding letters: [Letter],
                            on kind: IMAPServerKind = .dovecot) async throws -> (MountedMailfs, String) {
        try await seededFolder(label, holding: letters, account: WriteBackAccount(kind: kind))
    }

    /// A fresh folder of the account's user on its server (named after `label`) holding
    /// `letters`, and a started mount of that account alone that lists them.
    static func seededFolder(_ label: String, holding letters: [Letter],
                             account: WriteBackAccount) async throws -> (MountedMailfs, String) {
        let folder = try account.kind.unique(label)
        try await WriteBack.createMailbox(account.user, folder, on: account.kind)
        try await WriteBack.append(letters, user: account.user, mailbox: folder, on: account.kind)
        let mount = try configured([account])
        try await mount.startAndWait(for: ["\(account.user)/\(folder)": letters], account: account.user)
        return (mount, folder)
    }

    /// `ls -A DIR` (nothing when the directory is missing).
    func listing(_ relative: String) async throws -> [String] {
        let result = try await sh("ls -A '\(relative)' 2>/dev/null")
        return result.status == 0 ? result.lines : []
    }

    /// Waits until every name is listed in the directory.
    func waitForFiles(_ names: [String], in relative: String, seconds: Double = 60) async throws -> Bool {
        try await Poll.until(seconds: seconds) { Set(try await listing(relative)).isSuperset(of: names) }
    }

    /// Waits until the directory exists (a folder the first sync brings).
    func waitForDirectory(_ relative: String, seconds: Double = 30) async throws -> Bool {
        try await Poll.until(seconds: seconds) { try await sh("test -d '\(relative)'").status == 0 }
    }

    /// Starts the mount and waits until the account's first sync is done and every letter is
    /// listed where it is expected: [directory: letters].
    func startAndWait(for expected: [String: [Letter]], account: String = "alice") async throws {
        try await start()
        #expect(try await waitForIdle(account), "\(text("\(account)/.status"))")
        for (directory, letters) in expected {
            try await expect(waitForFiles(letters.map(\.fileName), in: directory), orExplain: { "\(directory) lists \((try? await listing(directory))?.count ?? -1) of \(letters.count): \(text("\(account)/.log"))" })
        }
    }

    /// The value of `key:` in the account's `.status`; nil when the key is missing.
    func status(_ key: String, of account: String) -> String? {
        for line in text("\(account)/.status").split(separator: "\n") where line.hasPrefix("\(key): ") {
            return String(line.dropFirst(key.count + 2))
        }
        return nil
    }

    /// `pending_changes` of the account's `.status` as a number (nil: missing key).
    func pendingChanges(_ account: String) -> Int? {
        status("pending_changes", of: account).flatMap { Int($0) }
    }

    /// Waits until the account has no change left to apply on the server.
    func waitForApplied(_ account: String, seconds: Double = 30) async throws -> Bool {
        try await Poll.until(seconds: seconds) { pendingChanges(account) == 0 }
    }

    /// The inode number of a file of the mount.
    func inode(_ relative: String) async throws -> String {
        try await sh("stat -c %i '\(relative)'").output
    }
}
