import Foundation

/// The MAILFS_TEST_* variables `.ci/servers/with-servers.sh` sets for the real Dovecot and
/// Postfix it starts. Without them the tests that need the servers fail: they are never
/// skipped and counted as passed.
public enum TestServerEnvironment {
    /// The value of `MAILFS_TEST_<name>`.
    public static func value(_ name: String) throws -> String {
        guard let value = ProcessInfo.processInfo.environment["MAILFS_TEST_\(name)"], !value.isEmpty else {
            throw Missing(name: name)
        }
        return value
    }

    public struct Missing: Error, CustomStringConvertible {
        public var name: String

        public init(name: String) {
            self.name = name
        }

        public var description: String {
            "MAILFS_TEST_\(name) is not set: run ./test (or the tests under .ci/servers/with-servers.sh), "
                + "which starts Dovecot and Postfix for these tests"
        }
    }
}
