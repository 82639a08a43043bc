import Foundation

/// Runs `password_command` / `token_command` and returns its standard output, the way
/// mbsync's PassCmd and msmtp's passwordeval do. The secret lives only in memory: it is
/// never logged, never stored, and errors never quote the command's output.
public enum SecretCommand {
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public var reason: String
        public var description: String { reason }
    }

    /// Runs `command` with `/bin/sh -c`; the first line of stdout, without its newline,
    /// is the secret. Bounded by `timeout` so a command waiting for a passphrase prompt
    /// cannot stall a sync forever. The wait happens off the cooperative pool (`OffPool`): a
    /// command that takes seconds (a gpg-agent prompt) must not hold one of its threads.
    public static func run(_ command: String, timeout: TimeInterval = 30) async throws(Failure) -> String {
        try await OffPool.run { Result { () throws(Failure) in try runBlocking(command, timeout: timeout) } }.get()
    }

    private static func runBlocking(_ command: String, timeout: TimeInterval) throws(Failure) -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw Failure(reason: "could not run the credential command")
        }
        // A secret fits the pipe's buffer, so waiting before reading cannot deadlock. Polled,
        // on this thread of its own: a `terminationHandler` makes Foundation's Process keep a
        // reference cycle (about 1.6 KB a run, found by AddressSanitizer), and a mount runs
        // the command at every login.
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning {
            guard Date() < deadline else {
                process.terminate()
                throw Failure(reason: "the credential command did not finish within \(Int(timeout)) s")
            }
            Thread.sleep(forTimeInterval: 0.005)
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        guard process.terminationStatus == 0 else {
            throw Failure(reason: "the credential command failed with exit status \(process.terminationStatus)")
        }
        let text = String(decoding: data, as: UTF8.self)
        let secret = text.split(separator: "\n", omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let trimmed = secret.hasSuffix("\r") ? String(secret.dropLast()) : secret
        guard !trimmed.isEmpty else { throw Failure(reason: "the credential command printed nothing") }
        return trimmed
    }
}
