import Logging
import Synchronization

/// Collects every log line (message and metadata) at trace level, so tests can check
/// that no secret ever reaches a log.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var text: String { lines.withLock { $0.joined(separator: "\n") } }

    func append(_ line: String) {
        lines.withLock { $0.append(line) }
    }

    var logger: Logger {
        var logger = Logger(label: "capture") { _ in CapturingLogHandler(capture: self) }
        logger.logLevel = .trace
        return logger
    }
}

struct CapturingLogHandler: LogHandler {
    let capture: LogCapture
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        capture.append("\(event.level) \(event.message) \(metadata) \(event.metadata ?? [:])")
    }
}
