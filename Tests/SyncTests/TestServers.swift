import Activity
import Config
import Foundation
import Logging
import Store
import StoreTestSupport
@testable import Sync
import TestSupport
import Testing

/// The real Dovecot (and Postfix) that `./test` starts (.ci/servers/start.sh), described
/// by MAILFS_TEST_* variables (see `TestServerEnvironment`).
enum TestServers {
    static func env(_ name: String) throws -> String {
        try TestServerEnvironment.value(name)
    }

    static func password(_ user: String) throws -> String { try env("\(user.uppercased())_PASSWORD") }

    /// Runs `.ci/servers/seed.py` (a second IMAP client) and returns its output.
    @discardableResult
    static func seed(_ arguments: [String]) async throws -> String {
        let result = try await ChildProcess.run("/usr/bin/python3", [try env("SEED")] + arguments)
        guard result.status == 0 else { throw SeedFailed(output: result.output, arguments: arguments) }
        return result.output
    }

    /// How many messages `mailbox` of `user` holds on the server (STATUS MESSAGES).
    static func count(user: String, mailbox: String) async throws -> Int {
        let output = try await seed(["count", "--user", user, "--mailbox", mailbox])
        guard let count = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SeedFailed(output: output, arguments: ["count", mailbox])
        }
        return count
    }

    struct SeedFailed: Error, CustomStringConvertible {
        var output: String
        var arguments: [String]
        var description: String { "seed.py \(arguments.joined(separator: " ")) failed: \(output)" }
    }

    /// `ctl.sh STATE stop|start dovecot`: stop or restart a server mid-test.
    static func control(_ action: String, _ server: String) async throws {
        let script = URL(fileURLWithPath: try env("SEED")).deletingLastPathComponent().appendingPathComponent("ctl.sh").path
        // Not captured: a daemon started by ctl.sh would hold the pipe open forever.
        let status = try await ChildProcess("/bin/bash", [script, try env("STATE_DIR"), action, server],
                                            captureOutput: false).terminated()
        #expect(status == 0, "ctl.sh \(action) \(server) failed")
    }

    /// A config for `user` on the test Dovecot; the password comes from the environment
    /// through `password_command`, so it is on no disk this test writes.
    static func accountTOML(name: String, user: String, port: String = "IMAPS_PORT", security: String = "tls",
                            passwordVariable: String? = nil, xoauth2: Bool = false,
                            extra: String = "") throws -> String {
        let credentialKey = xoauth2 ? "auth = \"xoauth2\"\ntoken_command" : "password_command"
        return """
        [accounts.\(name)]
        address = "\(try env("\(user.uppercased())_EMAIL"))"
        username = "\(user)"
        \(credentialKey) = "printenv \(passwordVariable ?? "MAILFS_TEST_\(user.uppercased())_PASSWORD")"
        ca_file = "\(try env("CA_FILE"))"
        retry_delay_seconds = 0
        \(extra)

        [accounts.\(name).imap]
        host = "127.0.0.1"
        port = \(try env(port))
        security = "\(security)"

        """
    }

    static func config(_ toml: String) throws -> MailfsConfig {
        try MailfsConfig.parse(text: toml, path: "test-config.toml")
    }

    /// A message file with a unique Message-ID, written to a temp file for seed.py.
    static func messageFile(id: String, subject: String, body: String = "Hello from the test.\n",
                            extraHeaders: String = "", in dir: URL) throws -> URL {
        let text = """
            From: Tester <tester@example.test>\r
            To: alice@example.test\r
            Subject: \(subject)\r
            Date: \(DateFormatter.rfc5322.string(from: Date()))\r
            Message-ID: <\(id)>\r
            \(extraHeaders)MIME-Version: 1.0\r
            Content-Type: text/plain; charset=utf-8\r
            \r
            \(body.replacingOccurrences(of: "\n", with: "\r\n"))
            """
        let url = dir.appendingPathComponent("\(id).eml")
        try Data(text.utf8).write(to: url)
        return url
    }
}

extension DateFormatter {
    static let rfc5322: DateFormatter = {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter
    }()
}

/// A store and a coordinator for one test, with the account's live state at hand.
final class SyncHarness: Sendable {
    let store: MailStore
    let directory: URL
    let coordinator: SyncCoordinator
    let config: MailfsConfig
    private let activities: AccountActivities

    /// `timing` replaces every account's timing from its settings (a short response
    /// timeout, which the config cannot set).
    init(_ toml: String, timing: SyncTiming? = nil) throws {
        (store, directory) = try MailStore.temporary()
        config = try TestServers.config(toml)
        activities = AccountActivities(profiles: config.accounts.map(AccountProfile.init))
        coordinator = SyncCoordinator(config: config, store: store, activities: activities, timing: timing)
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func sync(_ account: String) async {
        _ = await coordinator.syncOnce(account: account)
    }

    func state(_ account: String) -> AccountActivity.State { activity(account).snapshot }

    /// Logs out of the account's pooled connections, so the next work opens a fresh one
    /// (as after the server closed idle sessions).
    func dropPooledConnections(_ account: String) async throws {
        await (try #require(coordinator.accounts[account])).synchronizer.pool.drain()
    }
    func log(_ account: String) -> String { activity(account).log.rendered() }

    /// Whether the last sync failed nowhere, or only in folders other than `mine`: alice's
    /// account is shared by suites running in parallel, and a message another test expunges
    /// between a sync's SEARCH and FETCH fails in that test's folder (to be retried there at
    /// the next sync, as it should), which is no failure of the folders under test.
    func failedOnlyElsewhere(_ account: String, mine folders: [String] = []) -> Bool {
        guard let error = state(account).lastError else { return true }
        return error.contains("folders failed:") && !folders.contains { error.contains("\($0):") }
    }
    private func activity(_ account: String) -> AccountActivity { activities.activity(named: account, address: "") }

    func accountId(_ name: String) throws -> Int64 {
        try #require(try store.account(named: name)?.id)
    }

    func folder(_ account: String, _ path: String) throws -> FolderRecord {
        try #require(try store.folders(accountId: accountId(account)).first { $0.path == path })
    }

    func messages(_ account: String, _ path: String) throws -> [MessageEntry] {
        try store.messages(inFolder: folder(account, path).id ?? -1)
    }

    /// Files listed in the folder, their distinct names and its `.status` count.
    func counts(_ account: String, _ path: String) throws -> ListingInvariant.Counts {
        try ListingInvariant.counts(store, account: account, folder: path)
    }

    /// One folder's sync on a connection of its own, as the account's sync runs it.
    func syncFolder(_ account: String, _ path: String, widenWindowBy days: Int = 0) async throws -> FolderSynchronizer.Result {
        let settings = try #require(config.accounts.first { $0.name == account })
        let logger = Logger(label: "test.folder")
        let connection = try await AccountConnector(account: settings, timing: SyncTiming(), logger: logger).open(phase: { _ in })
        let synchronizer = FolderSynchronizer(
            store: store, accountId: try accountId(account), windowDays: settings.settings.syncWindowDays + days,
            rawStoreMaxBytes: settings.settings.rawStoreMaxBytes, log: EventLog(), progress: { _, _ in }, logger: logger)
        do {
            let result = try await synchronizer.sync(try folder(account, path), over: connection)
            await connection.logout()
            return result
        } catch {
            await connection.close()
            throw error
        }
    }

    /// Issue 11, "no message is ever hidden": the messages `user`'s server mailbox holds,
    /// the files the folder lists and its `.status` count agree. `mailbox` defaults to
    /// the folder's path (custom folders).
    func expectAgreement(_ account: String, user: String, folder path: String, mailbox: String? = nil,
                         sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let source = try await TestServers.count(user: user, mailbox: mailbox ?? path)
        #expect(try counts(account, path) == .agreeing(on: source), "\(log(account))", sourceLocation: sourceLocation)
    }
}
