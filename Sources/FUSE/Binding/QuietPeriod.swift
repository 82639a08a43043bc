import Foundation

/// Tells when a mount has gone quiet after being busy: fed the session's request count
/// from time to time, it answers true once per burst of requests, when `length` seconds
/// have passed without a new one. A mount that was never asked anything is not "after a
/// burst", so the first answer waits for a request.
public struct QuietPeriod: Sendable {
    public let length: TimeInterval
    private var seen: UInt64
    private var lastRequest: Date
    private var burstPending = false

    public init(length: TimeInterval, requestCount: UInt64, now: Date = Date()) {
        self.length = length
        seen = requestCount
        lastRequest = now
    }

    /// Whether a burst of requests ended: true at most once per burst.
    public mutating func burstEnded(requestCount: UInt64, now: Date = Date()) -> Bool {
        if requestCount != seen {
            seen = requestCount
            lastRequest = now
            burstPending = true
            return false
        }
        guard burstPending, now.timeIntervalSince(lastRequest) >= length else { return false }
        burstPending = false
        return true
    }
}
