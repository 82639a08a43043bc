import Foundation
import TestSupport
import Testing

/// An IMAP server of .ci/servers a mount test runs against (its port, delimiter, users,
/// seed.py and ctl.sh arguments; seed.py adds the personal prefix): the main Dovecot, Cyrus with
/// Debian's namespace (`INBOX.`, `.`), Cyrus with upstream's (no prefix, `/`) and Courier
/// (`INBOX.`, `.`, no MOVE, no SPECIAL-USE, no CONDSTORE). A test parameterized by kind
/// (`arguments: IMAPServerKind.allCases`) is the same test on every server of the matrix:
/// it asserts what the user and a second client see, which must not differ by kind, so
/// the kinds' capabilities are the servers' business (.ci/servers/README.md), not the tests'.
///
/// The arguments are every kind CI starts, not the kinds the environment lists: a kind
/// missing from `MAILFS_TEST_IMAP_SERVERS` is then a failing test case (`requireStarted`),
/// never one silently left out; without the servers at all every case fails, as every test
/// needing the servers does (TestServers).
enum IMAPServerKind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case dovecot, cyrus, cyrusalt, courier

    /// The kinds that differ from Dovecot in namespace or capabilities.
    static let others = allCases.filter { $0 != .dovecot }

    var testDescription: String { rawValue }

    /// Fails the test, with the reason, when .ci/servers did not start this kind.
    func requireStarted() throws {
        guard let started = ProcessInfo.processInfo.environment["MAILFS_TEST_IMAP_SERVERS"] else {
            throw TestServers.Missing(name: "IMAP_SERVERS")
        }
        try #require(started.split(separator: " ").contains { $0 == rawValue },
                     "\(rawValue) is not in MAILFS_TEST_IMAP_SERVERS (\(started)): .ci/servers did not start it")
    }

    /// Runs `body` sharing this server with the other tests (SharedServers), after checking
    /// that it runs at all.
    func shared<T>(_ body: () async throws -> T) async throws -> T {
        try requireStarted()
        return try await SharedServers.shared(rawValue, body)
    }

    /// Runs `body` alone on this server: for a test that takes it down.
    func exclusive<T>(_ body: () async throws -> T) async throws -> T {
        try requireStarted()
        return try await SharedServers.exclusive(rawValue, body)
    }

    var port: Int {
        get throws { try TestServers.port(self == .dovecot ? "IMAPS_PORT" : "\(rawValue.uppercased())_IMAPS_PORT") }
    }

    /// The hierarchy delimiter, `.` or `/`.
    var delimiter: String {
        get throws { try TestServers.env("\(rawValue.uppercased())_DELIMITER") }
    }

    /// The users this server has (each has INBOX, Sent, Drafts, Trash, Junk, Archive unless
    /// its name says otherwise: Courier's `deleteditems` and `notrash`).
    var users: [String] {
        get throws { try TestServers.env("\(rawValue.uppercased())_USERS").split(separator: " ").map(String.init) }
    }

    /// seed.py's `--server` argument.
    var seedArguments: [String] { ["--server", rawValue] }

    /// A unique folder name for this server: seed.py and the mount write it unprefixed, and
    /// it must not hold the server's delimiter (it would be a path of two folders there).
    func unique(_ label: String) throws -> String {
        let name = WriteBack.unique(label)
        try #require(!name.contains(try delimiter), "\(name) holds \(rawValue)'s delimiter")
        return name
    }

    /// `ctl.sh STATE stop|kill|start KIND`: the server down (cleanly or SIGKILL) or up again;
    /// start returns once it accepts connections. Its exit status.
    @discardableResult
    func control(_ action: String) async throws -> Int32 {
        try await TestServers.control(action, rawValue)
    }
}
