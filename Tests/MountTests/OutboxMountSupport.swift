import Foundation
import TestSupport
import Testing

/// One account of the test servers in a mount's config: IMAP over implicit TLS, SMTP on
/// the port and security given (a test server's, or a local port that never answers).
struct OutboxAccount: MountAccount {
    /// The account's name and the test servers' user (alice, carol).
    var user: String
    var smtpPort: Int
    var security = "tls"
    /// nil: the test Dovecot's IMAPS port.
    var imapPort: Int?
    var undoSeconds = 0
    var sendRetryDelaySeconds = 30

    /// SMTP on the test Postfix port named by `portVariable` (SMTPS_PORT, SUBMISSION_PORT).
    static func on(_ portVariable: String, user: String = "alice", security: String = "tls") throws -> OutboxAccount {
        OutboxAccount(user: user, smtpPort: try TestServers.port(portVariable), security: security)
    }

    var toml: String {
        get throws {
            let prefix = user.uppercased()
            return """
                [accounts.\(user)]
                address = "\(try TestServers.env("\(prefix)_EMAIL"))"
                username = "\(user)"
                password_command = "printenv MAILFS_TEST_\(prefix)_PASSWORD"
                ca_file = "\(try TestServers.env("CA_FILE"))"
                undo_seconds = \(undoSeconds)
                send_retry_delay_seconds = \(sendRetryDelaySeconds)

                [accounts.\(user).imap]
                host = "127.0.0.1"
                port = \(try imapPort ?? TestServers.port("IMAPS_PORT"))

                [accounts.\(user).smtp]
                host = "127.0.0.1"
                port = \(smtpPort)
                security = "\(security)"

                """
        }
    }
}

extension MountedMailfs {

    /// Writes `text` to a file named `name` outside the mount; returns its path.
    func draft(_ name: String, _ text: String) throws -> String {
        let work = root.appendingPathComponent("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        let file = work.appendingPathComponent(name)
        try text.write(to: file, atomically: true, encoding: .utf8)
        return file.path
    }

    /// The file `name` of `OutboxMountTests.invalidFile`, written outside the mount.
    func invalidDraft(_ name: String) async throws -> String {
        let subject = OutboxServers.uniqueSubject("Refused")
        switch name {
        case "empty.eml":
            return try draft(name, "")
        case "garbage.eml":
            let path = try draft(name, "")
            #expect(try await Shell.run("/bin/sh", ["-c", "head -c 4096 /dev/urandom > \"$0\"", path]).status == 0)
            return path
        case "picture.eml":
            let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52,
                                0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0, 0x1F, 0x15, 0xC4, 0x89]
            let path = try draft(name, "")
            try Data(png).write(to: URL(fileURLWithPath: path))
            return path
        case "norecipient.eml":
            return try draft(name, "Subject: \(subject)\n\nTo whom?\n")
        case "foreign.eml":
            return try draft(name, OutboxServers.message(subject: subject, from: "mallory@evil.test"))
        case "injection.eml":
            return try draft(name, "To: bob@example.test\nSubject: =?utf-8?q?x=0D=0ABcc:_evil@example.test?=\n\nhi\n")
        case "longto.eml":
            // 1,707 addresses: one token more than Postfix keeps of an address header.
            let addresses = try RecipientCopies.addresses(1707).joined(separator: ",\n ")
            return try draft(name, OutboxServers.message(subject: subject, to: addresses))
        default:
            throw MountError(message: "no invalid draft is named \(name)")
        }
    }

    /// The extended attribute's value; nil when the file or attribute is missing.
    func xattr(_ name: String, of relative: String) -> String? {
        try? attribute(path(relative), name).get()
    }

    /// The send state of a file in outbox/ (draft, queued, sending, failed); nil once gone.
    func sendState(_ relative: String) -> String? {
        xattr("user.mailfs.state", of: relative)
    }

    /// A file of the mount read to its end ("" when unreadable), the way `cat` does: `.log`
    /// and `.status` grow while their size in the kernel's attribute cache does not. A
    /// direct read: these virtual files are answered from memory, at once.
    func text(_ relative: String) -> String {
        let fd = open(path(relative), O_RDONLY)
        guard fd >= 0 else { return "" }
        defer { close(fd) }
        var bytes = [UInt8]()
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 { bytes += buffer[..<count]; continue }
            if count < 0 && errno == EINTR { continue }
            break
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A crash: SIGKILL, then the lazy unmount a dead FUSE server needs. Returns whether the
    /// mount was still running: one that had ended by itself crashed on its own.
    @discardableResult
    func crash() async -> Bool {
        let wasRunning = process?.isRunning == true
        process?.signal(SIGKILL)
        await waitForExit(seconds: 5)
        _ = try? await Shell.run("/bin/fusermount3", ["-uz", mountPoint.path])
        return wasRunning
    }

    /// `rounds` times: mount, let the last round's message go again (so that each message
    /// meets one kill), copy a new message to `recipients` into alice's outbox/, and kill
    /// the mount 0–300 ms later: before, during and after the SMTP transactions (loopback
    /// sends take tens of ms). Returns the messages' subjects and how many times the mount
    /// had ended by itself.
    func killAroundSending(rounds: Int, subject prefix: String, to recipients: String) async throws
        -> (subjects: [String], crashed: Int) {
        var generator = SystemRandomNumberGenerator()
        var subjects: [String] = []
        var crashed = 0
        for round in 0..<rounds {
            try await start()
            #expect(try await Poll.until(seconds: 30) { try await sh("ls -A alice/outbox/").output.isEmpty },
                    "\(text("alice/.log"))")
            let subject = OutboxServers.uniqueSubject("\(prefix) \(round)")
            subjects.append(subject)
            let file = try draft("kill\(round).eml", OutboxServers.message(subject: subject, to: recipients))
            #expect(try await sh("cp '\(file)' alice/outbox/").status == 0)
            try await Task.sleep(for: .milliseconds(Int.random(in: 0...300, using: &generator)))
            if await !crash() { crashed += 1 }
        }
        return (subjects, crashed)
    }

    /// Waits until the account's first sync is done, so its Sent folder is known.
    func waitForIdle(_ account: String) async throws -> Bool {
        try await Poll.until(seconds: 30) { try await sh("cat \(account)/.status").output.contains("phase: idle") }
    }
}

/// The outbox tests' side of the test mail servers: drafts and bob's INBOX.
enum OutboxServers {
    /// A message as a user types it: LF line ends, no Date or Message-ID, no From unless
    /// `from` (mailfs fills in the account's).
    static func message(subject: String, to recipient: String = "Bob <bob@example.test>", from: String? = nil) -> String {
        TestMessage(from: from, to: recipient, subject: subject, date: nil, body: "Noon at the usual place?\n",
                    lineEnding: .lf).text
    }

    /// How many messages with exactly this subject bob's INBOX holds.
    static func bobCount(_ subject: String) async throws -> Int {
        let listing = try await TestServers.seedResult(["list", "--user", "bob", "--mailbox", "INBOX"])
        #expect(listing.status == 0, "\(listing.output)")
        return listing.lines.count { $0.split(separator: "\t", omittingEmptySubsequences: false).last.map(String.init) == subject }
    }

    /// Waits (at most `seconds`) for the message to reach bob, then a little longer for a
    /// duplicate; returns how many copies he has.
    static func delivered(_ subject: String, within seconds: Double = 20) async throws -> Int {
        _ = try await Poll.until(seconds: seconds) { try await bobCount(subject) > 0 }
        try await Task.sleep(for: .milliseconds(1500))
        return try await bobCount(subject)
    }

    /// How many copies alice's Sent holds of each subject, once every one has arrived (at
    /// most `seconds`) and a little longer for a second copy.
    static func sentCopies(_ subjects: [String], within seconds: Double = 60) async throws -> [String: Int] {
        func count() async throws -> [String: Int] {
            let listing = try await TestServers.seedResult(["list", "--user", "alice", "--mailbox", "Sent"])
            let titles = listing.lines.compactMap { $0.split(separator: "\t", omittingEmptySubsequences: false).last.map(String.init) }
            return Dictionary(uniqueKeysWithValues: subjects.map { subject in (subject, titles.count { $0 == subject }) })
        }
        _ = try await Poll.until(seconds: seconds) { try await count().values.allSatisfy { $0 > 0 } }
        try await Task.sleep(for: .milliseconds(1500))
        return try await count()
    }

    static func uniqueSubject(_ prefix: String) -> String {
        "\(prefix) \(UUID().uuidString.prefix(8))"
    }
}

/// A TCP server on 127.0.0.1 that accepts connections and never says a word: an SMTP
/// client connecting to it with implicit TLS waits in the handshake.
final class SilentServer {
    let port: Int
    private let process: ChildProcess

    init(in directory: URL) async throws {
        let portFile = directory.appendingPathComponent("silent-\(UUID().uuidString).port")
        let script = """
            import os, socket, sys
            server = socket.socket()
            server.bind(('127.0.0.1', 0))
            server.listen(64)
            with open(sys.argv[1] + '.tmp', 'w') as f:
                f.write(str(server.getsockname()[1]))
            os.rename(sys.argv[1] + '.tmp', sys.argv[1])
            held = []
            while True:
                held.append(server.accept()[0])
            """
        process = try ChildProcess("/usr/bin/python3", ["-c", script, portFile.path], captureOutput: false)
        var port: Int?
        _ = try await Poll.until(seconds: 10) {
            port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
            return port != nil
        }
        guard let port else {
            process.signal(SIGKILL)
            process.wait()
            throw MountedMailfs.MountError(message: "the silent server did not start")
        }
        self.port = port
    }

    deinit {
        process.signal(SIGKILL)
        process.wait()
    }
}
