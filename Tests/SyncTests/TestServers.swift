import Activity
import Config
import Foundation
import Logging
import Store
import StoreTestSupport
@testable import Sync
import TestSupport
import Testing

/// What the sync tests add to the real servers (`TestServers`): account configs on the test
/// Dovecot, message counts, and messages as another client appends them.
extension TestServers {
    static func password(_ user: String) throws -> String { try env("\(user.uppercased())_PASSWORD") }

    /// How many messages `mailbox` of `user` holds on the server (STATUS MESSAGES).
    static func count(user: String, mailbox: String) async throws -> Int {
        let output = try await seed(["count", "--user", user, "--mailbox", mailbox])
        guard let count = Int(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw SeedFailed(output: output, arguments: ["count", mailbox])
        }
        return count
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

    /// A plain-text message from Tester to alice, dated now: inside every sync window.
    static func message(id: String?, subject: String, body: String, headers: [String] = []) -> TestMessage {
        TestMessage(subject: subject, date: MessageDate.rfc5322(Date()), messageID: id,
                    headers: headers + TestMessage.plainText, body: body)
    }

    /// `message` written to `dir` for seed.py, named after its id; the body's LF become CR LF.
    static func messageFile(id: String, subject: String, body: String = "Hello from the test.\n",
                            headers: [String] = [], in dir: URL) throws -> URL {
        let url = dir.appendingPathComponent("\(id).eml")
        try message(id: id, subject: subject, body: body.replacingOccurrences(of: "\n", with: "\r\n"), headers: headers)
            .write(to: url)
        return url
    }
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
        coordinator = SyncCoordinator(config: config, store: store.sync, activities: activities, timing: timing)
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
        try store.tree.messages(inFolder: folder(account, path).id ?? -1)
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
            store: store.sync, accountId: try accountId(account), windowDays: settings.settings.syncWindowDays + days,
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
