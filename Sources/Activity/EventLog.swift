import Foundation
import MailCore
import Synchronization

/// The last `capacity` sync events of an account, in memory only (FR-SYNC-18: `.log`
/// never touches disk). Callers must never log secrets. Each message is made one line with
/// no control character (`TerminalSafeText`): much of it quotes servers and users.
public final class EventLog: Sendable {
    /// How much an event matters, as `.log` prints it.
    public enum Level: String, Sendable, Equatable {
        case info, warning, error
    }

    public struct Event: Sendable, Equatable {
        public var date: Date
        public var level: Level
        public var message: String
    }

    public let capacity: Int
    private let events: Mutex<[Event]>

    public init(capacity: Int = 500) {
        self.capacity = capacity
        events = Mutex([])
    }

    public func record(_ message: String, level: Level = .info, at date: Date = Date()) {
        let line = TerminalSafeText.escaped(message)
        events.withLock { events in
            events.append(Event(date: date, level: level, message: line))
            if events.count > capacity { events.removeFirst(events.count - capacity) }
        }
    }

    public var snapshot: [Event] { events.withLock { $0 } }

    /// `2026-11-21T23:20:00Z info sync finished` lines, oldest first.
    public func rendered() -> String {
        snapshot.map { "\(ISO8601.format($0.date)) \($0.level.rawValue) \($0.message)\n" }.joined()
    }
}

/// ISO 8601 UTC timestamps as `.status` and `.log` print them.
public enum ISO8601 {
    /// `2026-11-21T23:20:00Z`. Plain arithmetic (`UTCStamp`, as file names use): `.log`
    /// renders one per event on every read, and both a formatter made per call and
    /// `String(format:)` (Foundation's printf) were most of the mount's CPU while a script
    /// polled `.log`.
    public static func format(_ date: Date) -> String {
        UTCStamp(date).iso8601
    }
}
