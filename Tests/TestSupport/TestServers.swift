import Foundation

/// The real servers `.ci/servers/with-servers.sh` starts for the tests (Dovecot, Postfix,
/// Cyrus, Courier), as the MAILFS_TEST_* variables of its env file describe them, and
/// ctl.sh, which stops and starts them. Without the variables the tests that need the
/// servers fail: they are never skipped and counted as passed. seed.py, the second client
/// that changes their mail, is `TestServers+Seed.swift`.
public enum TestServers {
    /// The value of `MAILFS_TEST_<name>`.
    public static func env(_ name: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment["MAILFS_TEST_\(name)"], !value.isEmpty else {
            throw Missing(name: name)
        }
        return value
    }

    /// `MAILFS_TEST_<name>` as a port number.
    public static func port(_ name: String) throws -> Int {
        guard let port = Int(try env(name)) else { throw Missing(name: name) }
        return port
    }

    /// `ctl.sh STATE stop|kill|start SERVER` (a kind of `MAILFS_TEST_IMAP_SERVERS`, or
    /// "postfix"); start returns once the server accepts connections. Its exit status.
    public static func control(_ action: String, _ server: String) async throws -> Int32 {
        // Not captured: a daemon started by ctl.sh would hold the pipe open forever.
        try await ChildProcess("/bin/bash", [try env("CTL"), try env("STATE_DIR"), action, server],
                               captureOutput: false).terminated()
    }

    public struct Missing: Error, CustomStringConvertible {
        public var name: String

        public init(name: String) {
            self.name = name
        }

        public var description: String {
            "MAILFS_TEST_\(name) is not set (or not a port where one is needed): run ./test (or the tests "
                + "under .ci/servers/with-servers.sh), which starts Dovecot and Postfix for these tests"
        }
    }
}
