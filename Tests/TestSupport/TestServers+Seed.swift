import Foundation

/// seed.py (`.ci/servers/seed.py`), "a second client": changes a test server's mail the way
/// another mail program would, and reports what the server holds.
extension TestServers {
    /// Runs seed.py `COMMAND ARGS…` and returns its exit status and output, whatever they are:
    /// for tests that expect a refusal or treat "no such mailbox" as an answer.
    public static func seedResult(_ arguments: [String]) async throws -> ChildProcess.Result {
        try await ChildProcess.run("/usr/bin/python3", [try env("SEED")] + arguments)
    }

    /// Runs seed.py `COMMAND ARGS…` and returns its output; throws `SeedFailed` unless it
    /// exits 0.
    @discardableResult
    public static func seed(_ arguments: [String]) async throws -> String {
        let result = try await seedResult(arguments)
        guard result.status == 0 else { throw SeedFailed(output: result.output, arguments: arguments) }
        return result.output
    }

    public struct SeedFailed: Error, CustomStringConvertible {
        public var output: String
        public var arguments: [String]

        public init(output: String, arguments: [String]) {
            self.output = output
            self.arguments = arguments
        }

        public var description: String { "seed.py \(arguments.joined(separator: " ")) failed: \(output)" }
    }
}
