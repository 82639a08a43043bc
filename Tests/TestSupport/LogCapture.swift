import Logging
import Synchronization

/// Keeps every log line (message and metadata) at trace level, so a test can check that
/// no secret reaches a log.
public final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    public init() {}

    public var text: String { lines.withLock { $0.joined(separator: "\n") } }

    public var logger: Logger {
        var logger = Logger(label: "capture") { _ in Handler(capture: self) }
        logger.logLevel = .trace
        return logger
    }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.lines.withLock { $0.append("\(event.level) \(event.message) \(metadata) \(event.metadata ?? [:])") }
        }
    }
}
