import Foundation

/// Blocking work (a child process, SQLite's calls) run on a thread of its own and awaited:
/// Swift's cooperative pool has one thread per core, and a call that blocks must not hold
/// one while every account syncs and sends on it.
enum OffPool {
    static func run<T: Sendable, E: Error>(_ body: @escaping @Sendable () -> Result<T, E>) async -> Result<T, E> {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}
