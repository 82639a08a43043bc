import Synchronization

/// A counting semaphore for async code: `acquire()` suspends (never blocks a thread) when
/// no permit is free, and waiters are served first come, first served. Cancellation of a
/// waiter is not supported: waits are bounded by the callers' own timeouts.
public final class AsyncSemaphore: Sendable {
    private struct State {
        var available: Int
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state: Mutex<State>

    public init(permits: Int) {
        state = Mutex(State(available: permits))
    }

    public func acquire() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let granted = state.withLock { state -> Bool in
                if state.available > 0 {
                    state.available -= 1
                    return true
                }
                state.waiters.append(continuation)
                return false
            }
            if granted { continuation.resume() }
        }
    }

    public func release() {
        let next = state.withLock { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.available += 1
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }

    /// Permits free now and callers waiting, for `.status`.
    public var counts: (available: Int, waiting: Int) {
        state.withLock { ($0.available, $0.waiters.count) }
    }
}

extension AsyncSemaphore {
    /// Runs `body` holding one permit, released however `body` ends.
    func withPermit<T>(_ body: () async throws -> T) async rethrows -> T {
        await acquire()
        defer { release() }
        return try await body()
    }
}
