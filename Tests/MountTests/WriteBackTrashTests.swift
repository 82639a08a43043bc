import Foundation
import TestSupport
import Testing

/// Issue 42 points 1 and 5 on real servers: rm never expunges on an account whose Trash
/// mailfs cannot find, a Trash found by name or named in the config takes the message, and
/// a personal namespace prefix (`INBOX.`) is neither shown nor lost on mkdir.
///
/// The Dovecot tests run everywhere; the others run on each server kind .ci/servers starts
/// (cyrus, cyrusalt, courier, listed in `MAILFS_TEST_IMAP_SERVERS`): they fail when a kind
/// is missing from that list, and are reported as skipped, with the reason, only where the
/// servers' scripts know no kind but Dovecot (the variable is unset).
@Suite("Write-back: Trash and namespaces on each server", .serialized)
struct WriteBackTrashTests {
    typealias Server = WriteBack

    @Test("rm on an account with no Trash is refused with EPERM, said in .log, and nothing leaves the server")
    func refusedWithoutTrash() async throws {
        try await SharedServers.shared {
            let letter = Letter("No trash")
            let folder = Server.unique("NoTrash")
            try await Server.createMailbox("alice", folder)
            try await Server.append([letter], user: "alice", mailbox: folder)
            // A trash_folder the server does not have: the account has no Trash at all.
            let account = ServerAccount(user: "alice", trashFolder: Server.unique("missing"))
            let mount = try MountedMailfs.configured([account])
            try await mount.startAndWait(for: ["alice/\(folder)": [letter]])
            #expect(try await !mount.listing("alice").contains("trash"))

            let rm = try await mount.sh("rm 'alice/\(folder)/\(letter.fileName)'")
            #expect(rm.status != 0 && rm.output.contains("Operation not permitted"), "\(rm.output)")
            #expect(try await mount.listing("alice/\(folder)") == [letter.fileName])
            #expect(mount.text("alice/.log").contains("rm \(letter.fileName) refused"), "\(mount.text("alice/.log"))")
            #expect(mount.pendingChanges("alice") == 0)
            _ = try await mount.sh("echo sync > alice/.control")
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await Server.locate(letter, user: "alice") == [folder])
        }
    }

    @Test("trash_folder names the Trash: rm moves the message there, not to the \\Trash folder")
    func configuredTrash() async throws {
        try await SharedServers.shared {
            let letter = Letter("To the bin")
            let (folder, bin) = (Server.unique("Keep"), Server.unique("Bin"))
            try await Server.createMailbox("alice", folder, bin)
            try await Server.append([letter], user: "alice", mailbox: folder)
            let mount = try MountedMailfs.configured([ServerAccount(user: "alice", trashFolder: bin)])
            try await mount.startAndWait(for: ["alice/\(folder)": [letter]])
            #expect(try await mount.waitForDirectory("alice/Trash (folder)"), "the \\Trash folder is an ordinary one now")

            let rm = try await mount.sh("rm 'alice/\(folder)/\(letter.fileName)'")
            #expect(rm.status == 0, "\(rm.output)")
            let moved = try await Server.waitUntil(letter, user: "alice", isIn: [bin])
            let places = await Server.places(letter, user: "alice")
            #expect(moved, "\(places)")
            #expect(try await mount.waitForFiles([letter.fileName], in: "alice/trash"))
        }
    }

    @Test("a server without SPECIAL-USE or with a prefix: roles by name, no INBOX (folder)/, rm to its Trash",
          ServerKind.matrixExists, arguments: ServerKind.others)
    func trashByNameAndPrefix(kind: ServerKind) async throws {
        try await kind.requireStarted()
        try await SharedServers.shared {
            let letter = Letter("Named trash \(kind.name)")
            let folder = Server.unique("Work")
            try await kind.seed("create-mailbox", user: "alice", [folder])
            try await kind.append([letter], user: "alice", mailbox: folder)
            let mount = try MountedMailfs.configured([ServerAccount(user: "alice", kind: kind)])
            try await mount.startAndWait(for: ["alice/\(folder)": [letter]])
            let top = try await mount.listing("alice")
            #expect(Set(["inbox", "sent", "drafts", "trash", "spam"]).isSubset(of: top), "\(top)")
            #expect(!top.contains { $0.hasPrefix("INBOX") }, "\(top)")

            let rm = try await mount.sh("rm 'alice/\(folder)/\(letter.fileName)'")
            #expect(rm.status == 0, "\(rm.output)")
            #expect(try await Poll.until(seconds: 30) { try await kind.locate(letter, user: "alice") == ["Trash"] },
                    "\(mount.text("alice/.log"))")
        }
    }

    @Test("mkdir under a personal prefix creates the prefixed folder and its child; no display suffix reaches the server",
          ServerKind.matrixExists, arguments: ServerKind.others)
    func mkdirUnderPrefix(kind: ServerKind) async throws {
        try await kind.requireStarted()
        try await SharedServers.shared {
            let name = Server.unique("Made")
            let mount = try MountedMailfs.configured([ServerAccount(user: "alice", kind: kind)])
            try await mount.start()
            #expect(try await mount.waitForIdle("alice"))
            let made = try await mount.sh("mkdir 'alice/\(name)' 'alice/\(name)/2026' 'alice/sent (folder)'")
            #expect(made.status == 0, "\(made.output)")
            let wanted = [name, "\(name)/2026", "sent"]
            #expect(try await Poll.until(seconds: 30) {
                var found = 0
                for mailbox in wanted where try await kind.exists(user: "alice", mailbox) { found += 1 }
                return found == wanted.count
            }, "\(mount.text("alice/.log"))")
            #expect(try await mount.waitForApplied("alice"), "\(mount.text("alice/.log"))")
            #expect(try await !kind.exists(user: "alice", "sent (folder)"))
            _ = try await mount.sh("echo sync > alice/.control")
            #expect(try await mount.waitForIdle("alice"))
            #expect(try await mount.listing("alice/\(name)") == ["2026"])
        }
    }

    @Test("Courier: no Trash at all refuses rm; a Trash named Deleted Items takes it", ServerKind.matrixExists)
    func courierUsers() async throws {
        let kind = ServerKind(name: "courier")
        try await kind.requireStarted()
        try await SharedServers.shared {
            for (user, expected) in [("notrash", nil), ("deleteditems", "Deleted Items")] as [(String, String?)] {
                let letter = Letter("Courier \(user)")
                let folder = Server.unique("Box")
                try await kind.seed("create-mailbox", user: user, [folder])
                try await kind.append([letter], user: user, mailbox: folder)
                let mount = try MountedMailfs.configured([ServerAccount(user: user, kind: kind)])
                try await mount.startAndWait(for: ["\(user)/\(folder)": [letter]], account: user)
                let rm = try await mount.sh("rm '\(user)/\(folder)/\(letter.fileName)'")
                if let expected {
                    #expect(rm.status == 0, "\(rm.output)")
                    #expect(try await Poll.until(seconds: 30) { try await kind.locate(letter, user: user) == [expected] })
                } else {
                    #expect(rm.status != 0 && rm.output.contains("Operation not permitted"), "\(rm.output)")
                    #expect(try await kind.locate(letter, user: user) == [folder])
                }
                await mount.stop()
            }
        }
    }
}

/// An IMAP server kind of .ci/servers: `dovecot` (the main instance) or one of
/// `MAILFS_TEST_IMAP_SERVERS` (cyrus, cyrusalt, courier).
struct ServerKind: Sendable, CustomTestStringConvertible {
    let name: String

    static let others = ["cyrus", "cyrusalt", "courier"].map { ServerKind(name: $0) }

    /// Skips a test where .ci/servers starts Dovecot alone (it sets no kinds list).
    static let matrixExists = Testing.ConditionTrait.enabled(
        if: ProcessInfo.processInfo.environment["MAILFS_TEST_IMAP_SERVERS"] != nil,
        "MAILFS_TEST_IMAP_SERVERS is unset: these .ci/servers start no server but Dovecot")

    var testDescription: String { name }

    var isStarted: Bool {
        let kinds = ProcessInfo.processInfo.environment["MAILFS_TEST_IMAP_SERVERS"] ?? "dovecot"
        return kinds.split(separator: " ").contains { $0 == name }
    }

    /// Fails the test (never passes it) when the kind did not start, with the reason.
    func requireStarted() async throws {
        try #require(isStarted, "\(name) is not in MAILFS_TEST_IMAP_SERVERS: .ci/servers did not start it")
    }

    var port: Int {
        get throws {
            let variable = name == "dovecot" ? "IMAPS_PORT" : "\(name.uppercased())_IMAPS_PORT"
            guard let port = Int(try TestServerEnvironment.value(variable)) else { throw TestServerEnvironment.Missing(name: variable) }
            return port
        }
    }

    /// seed.py on this kind; mailbox names unprefixed and "/"-separated (seed.py translates).
    func seed(_ command: String, user: String, _ arguments: [String]) async throws {
        let result = try await SyncedMountTests.seed([command] + serverArguments + ["--user", user] + arguments)
        #expect(result.status == 0, "\(command) \(arguments): \(result.output)")
    }

    func append(_ letters: [Letter], user: String, mailbox: String) async throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trash-seed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (index, letter) in letters.enumerated() {
            try letter.raw.write(to: dir.appendingPathComponent("\(index).eml"), atomically: false, encoding: .utf8)
        }
        try await seed("append", user: user, ["--mailbox", mailbox, dir.path])
    }

    /// The mailboxes holding the letter, unprefixed, sorted.
    func locate(_ letter: Letter, user: String) async throws -> [String] {
        let result = try await SyncedMountTests.seed(["locate"] + serverArguments
                                                     + ["--user", user, "--message-id", letter.messageID])
        return result.lines.compactMap { $0.split(separator: "\t").first.map(String.init) }.sorted()
    }

    /// Whether the account has the mailbox (unprefixed, "/"-separated).
    func exists(user: String, _ mailbox: String) async throws -> Bool {
        try await SyncedMountTests.seed(["count"] + serverArguments + ["--user", user, "--mailbox", mailbox]).status == 0
    }

    private var serverArguments: [String] { name == "dovecot" ? [] : ["--server", name] }
}

/// An account of a test server in a mount's config, with the Trash keys under test.
struct ServerAccount: MountAccount {
    var user: String
    var kind = ServerKind(name: "dovecot")
    var trashFolder: String?

    var toml: String {
        get throws {
            let prefix = user.uppercased()
            var lines = [
                "[accounts.\(user)]",
                "address = \"\(try SyncedMountTests.env("\(prefix)_EMAIL"))\"",
                "username = \"\(user)\"",
                "password_command = \"printenv MAILFS_TEST_\(prefix)_PASSWORD\"",
                "ca_file = \"\(try SyncedMountTests.env("CA_FILE"))\"",
            ]
            if let trashFolder { lines.append("trash_folder = \"\(trashFolder)\"") }
            lines += ["", "[accounts.\(user).imap]", "host = \"127.0.0.1\"", "port = \(try kind.port)", ""]
            return lines.joined(separator: "\n")
        }
    }
}
