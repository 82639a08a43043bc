import Synchronization

/// The test mail servers are shared by every suite of the test process, and suites run in
/// parallel: a test that stops or restarts a server takes them exclusively, the others
/// share them. Waiting is polling, bounded by the callers' own timeouts.
public enum SharedServers {
    private struct State {
        var users = 0
        var exclusive = false
    }

    private static let state = Mutex(State())

    /// Runs `body` while no test holds the servers exclusively.
    public static func shared<T>(_ body: () async throws -> T) async throws -> T {
        while !state.withLock({ state in
            guard !state.exclusive else { return false }
            state.users += 1
            return true
        }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        defer { state.withLock { $0.users -= 1 } }
        return try await body()
    }

    /// Runs `body` alone: no other test uses the servers meanwhile.
    public static func exclusive<T>(_ body: () async throws -> T) async throws -> T {
        while !state.withLock({ state in
            guard !state.exclusive else { return false }
            state.exclusive = true
            return true
        }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        defer { state.withLock { $0.exclusive = false } }
        while state.withLock({ $0.users }) > 0 {
            try await Task.sleep(for: .milliseconds(50))
        }
        return try await body()
    }
}
