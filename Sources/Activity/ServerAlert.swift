import Foundation

extension AccountActivity {
    /// A server's `[ALERT]` (RFC 3501 §7.1: it MUST be shown to the user): `.status` shows
    /// the last one as `server_alert`, and `.log` records each new text once, not at every
    /// connection that repeats it. The text is the server's: its control characters are
    /// escaped (`TerminalSafeText`) and its length is bounded.
    public func recordServerAlert(_ text: String) {
        let shown = Self.printable(text)
        let isNew = snapshot.serverAlert != shown
        record(.serverAlert(shown))
        if isNew { log.record("server alert: \(shown)", level: .warning) }
    }

    static let alertLengthLimit = 500

    static func printable(_ text: String) -> String {
        let line = TerminalSafeText.escaped(text).trimmingCharacters(in: .whitespaces)
        guard line.count > alertLengthLimit else { return line.isEmpty ? "(empty alert)" : line }
        return String(line.prefix(alertLengthLimit)) + "…"
    }
}
