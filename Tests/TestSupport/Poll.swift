import Foundation

public enum Poll {
    /// Checks `condition` every `interval` until it holds (true) or `seconds` pass, then
    /// once more (false if it still does not hold): a test descheduled for the whole wait
    /// still sees what happened meanwhile. It sleeps, never blocks: see `ChildProcess.run`.
    public static func until(seconds: Double, every interval: Duration = .milliseconds(200),
                             _ condition: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await condition() { return true }
            try await Task.sleep(for: interval)
        }
        return try await condition()
    }
}
