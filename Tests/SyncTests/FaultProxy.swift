import Foundation
import TestSupport

/// `.ci/servers/faultproxy.py` between the sync engine and the test Dovecot: the first
/// `faultyConnections` meet `fault` once the server has sent `afterBytes` to the client,
/// later ones pass through. TLS goes through it as bytes, so the client still verifies the real server.
final class FaultProxy: Sendable {
    enum Fault: String, Sendable {
        /// The client gets the bytes, then an orderly close (FIN).
        case cut
        /// The client gets the bytes, then a TCP reset.
        case reset
        /// The client gets the bytes, then nothing, with the connection left open.
        case stall
    }

    /// A connection's record in the proxy's events file.
    struct Event: Equatable {
        var connection: Int
        /// open, cut, reset, stall, end
        var kind: String
        var serverBytes: Int
    }

    let port: Int
    private let process: ChildProcess
    private let eventsFile: URL

    /// Starts the proxy in front of `targetPort` and waits (at most 10 s) until it listens.
    init(to targetPort: Int, fault: Fault, afterBytes: Int, faultyConnections: Int = 1, in directory: URL) async throws {
        let portFile = directory.appendingPathComponent("faultproxy-\(UUID().uuidString).port")
        eventsFile = URL(fileURLWithPath: portFile.path + ".events")
        let script = URL(fileURLWithPath: try TestServers.env("SEED")).deletingLastPathComponent()
            .appendingPathComponent("faultproxy.py").path
        process = try ChildProcess("/usr/bin/python3", [script, portFile.path, "\(targetPort)", fault.rawValue, "\(afterBytes)",
                                                           "\(faultyConnections)"],
                                   captureOutput: false)
        var port: Int?
        let process = process
        _ = try await Poll.until(seconds: 10, every: .milliseconds(50)) {
            port = (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) }
            return port != nil || !process.isRunning
        }
        guard let port else {
            process.signal(SIGKILL)
            await process.terminated()
            throw NotStarted()
        }
        self.port = port
    }

    struct NotStarted: Error, CustomStringConvertible {
        var description: String { "faultproxy.py did not start listening within 10 s" }
    }

    /// What happened to each connection so far, in order.
    var events: [Event] {
        let text = (try? String(contentsOf: eventsFile, encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 3, let connection = Int(fields[0]), let bytes = Int(fields[2]) else { return nil }
            return Event(connection: connection, kind: String(fields[1]), serverBytes: bytes)
        }
    }

    /// Ends the proxy (it keeps no state) and every connection through it.
    func stop() async {
        process.signal(SIGKILL)
        await process.terminated()
    }
}
