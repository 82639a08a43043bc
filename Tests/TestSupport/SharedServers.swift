import Synchronization

/// The test mail servers are shared by every suite of the test process, and suites run in
/// parallel: a test that stops or restarts a server takes it exclusively, the others share
/// it. Each IMAP server of .ci/servers is its own resource, named by its kind ("dovecot",
/// "cyrus", "cyrusalt", "courier"): "dovecot", the default, stands for the main Dovecot and
/// the Postfix that delivers through it, so stopping Cyrus holds back no Dovecot test.
/// Waiting is polling, bounded by the callers' own timeouts.
public enum SharedServers {
    public static let main = "dovecot"

    private struct Use {
        var users = 0
        var exclusive = false
    }

    private static let state = Mutex([String: Use]())

    /// Runs `body` while no test holds `server` exclusively.
    public static func shared<T>(_ server: String = main, _ body: () async throws -> T) async throws -> T {
        while !state.withLock({ state in
            guard state[server]?.exclusive != true else { return false }
            state[server, default: Use()].users += 1
            return true
        }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        defer { state.withLock { $0[server, default: Use()].users -= 1 } }
        return try await body()
    }

    /// Runs `body` alone on `server`: no other test uses it meanwhile.
    public static func exclusive<T>(_ server: String = main, _ body: () async throws -> T) async throws -> T {
        while !state.withLock({ state in
            guard state[server]?.exclusive != true else { return false }
            state[server, default: Use()].exclusive = true
            return true
        }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        defer { state.withLock { $0[server, default: Use()].exclusive = false } }
        while state.withLock({ $0[server]?.users ?? 0 }) > 0 {
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await body()
    }
}
