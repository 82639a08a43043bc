import Foundation
import Logging

/// Log lines for systemd's journal: when mailfs runs as a service its stderr is a journal
/// stream (JOURNAL_STREAM is set), and a `<N>` prefix (sd-daemon(3)) gives each line its
/// syslog priority, so `journalctl --user -u mailfs -p warning` filters them. No
/// timestamp: the journal adds its own.
struct JournalLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    /// `stderrIsJournal()` for this process, asked once: stderr does not change under it.
    static let stderrIsJournalStream = stderrIsJournal()

    /// Whether stderr is the journal's stream: systemd sets JOURNAL_STREAM to its
    /// "device:inode", which must be stderr's own (a child may inherit the variable
    /// with another stderr).
    static func stderrIsJournal(environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        guard let value = environment["JOURNAL_STREAM"] else { return false }
        var status = stat()
        guard fstat(STDERR_FILENO, &status) == 0 else { return false }
        return value == "\(status.st_dev):\(status.st_ino)"
    }

    /// The sd-daemon(3) priority of a level: 2 critical … 7 debug.
    static func priority(of level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// One journal line: `<4>mailfs.sync.work: message account=work`.
    static func line(level: Logger.Level, label: String, message: Logger.Message, metadata: Logger.Metadata) -> String {
        let fields = metadata.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        let text = "\(message)".replacingOccurrences(of: "\n", with: " ")
        return "<\(priority(of: level))>\(label): \(text)" + (fields.isEmpty ? "" : " \(fields)")
    }

    func log(event: LogEvent) {
        let merged = metadata.merging(event.metadata ?? [:]) { _, new in new }
        let line = Self.line(level: event.level, label: label, message: event.message, metadata: merged)
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }
}
