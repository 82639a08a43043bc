import Synchronization

/// Wakes an account's sync loop early (`.control` "sync", new mail) or lets it sleep
/// until the poll interval. Triggers that arrive while a sync runs coalesce into one.
final class SyncTrigger: Sendable {
    private struct State {
        var pending = false
        var waiter: CheckedContinuation<Void, Never>?
        var generation = 0
    }

    private let state = Mutex(State())

    func fire() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard let waiter = state.waiter else {
                state.pending = true
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }

    /// Returns at the next trigger (at once if one is pending) or after `interval`.
    func wait(upTo interval: Duration) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let generation = state.withLock { state -> Int? in
                if state.pending {
                    state.pending = false
                    return nil
                }
                state.generation += 1
                state.waiter = continuation
                return state.generation
            }
            guard let generation else { return continuation.resume() }
            Task {
                try? await Task.sleep(for: interval)
                self.expire(generation)
            }
        }
    }

    private func expire(_ generation: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard state.generation == generation, let waiter = state.waiter else { return nil }
            state.waiter = nil
            return waiter
        }
        waiter?.resume()
    }
}
