import Foundation
import Testing
@testable import MailCore

@Suite("date: ranges, resolved as notmuch's parse-time-string rounds them")
struct DateRangeTests {
    /// Tuesday 2026-11-24 06:41:22 UTC.
    static let now = Date(timeIntervalSince1970: 1_795_502_482)

    static func calendar(_ zone: String = "UTC") -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone) ?? .gmt
        return calendar
    }

    static func iso(_ date: Date?) -> String {
        guard let date else { return "open" }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = .gmt
        return formatter.string(from: date)
    }

    static func resolved(_ value: String, zone: String = "UTC", now: Date = now) throws -> String {
        guard case .term(.date(let range)) = try SearchParser.parse("date:" + value) else { return "not a date" }
        let bounds = range.resolved(now: now, calendar: calendar(zone))
        return "\(iso(bounds.lower)) \(iso(bounds.upper))"
    }

    @Test("a bound covers the whole unit it names; SINCE takes its start, UNTIL its end", arguments: [
        ("today", "2026-11-24T00:00:00Z 2026-11-25T00:00:00Z"),
        ("yesterday", "2026-11-23T00:00:00Z 2026-11-24T00:00:00Z"),
        ("0d", "2026-11-24T00:00:00Z 2026-11-25T00:00:00Z"),
        ("7d..", "2026-11-17T00:00:00Z open"),
        ("..2d", "open 2026-11-23T00:00:00Z"),
        ("2w", "2026-11-08T00:00:00Z 2026-11-15T00:00:00Z"),
        ("3M..", "2026-08-01T00:00:00Z open"),
        ("1y", "2025-01-01T00:00:00Z 2026-01-01T00:00:00Z"),
        ("1h..", "2026-11-24T05:00:00Z open"),
        ("30m..", "2026-11-24T06:11:00Z open"),
        ("1M2d", "2026-10-22T00:00:00Z 2026-10-23T00:00:00Z"),
        ("now", "2026-11-24T06:41:22Z 2026-11-24T06:41:23Z"),
        ("2026", "2026-01-01T00:00:00Z 2027-01-01T00:00:00Z"),
        ("2026-10", "2026-10-01T00:00:00Z 2026-11-01T00:00:00Z"),
        ("2026-10-01..2026-10-31", "2026-10-01T00:00:00Z 2026-11-01T00:00:00Z"),
        ("2024-2-29", "2024-02-29T00:00:00Z 2024-03-01T00:00:00Z"),
        ("@0..@59", "1970-01-01T00:00:00Z 1970-01-01T00:01:00Z"),
        ("..", "open open"),
    ])
    func bounds(value: String, expected: String) throws {
        #expect(try Self.resolved(value) == expected)
    }

    @Test("dates are read in the local time zone, as notmuch reads them")
    func timeZone() throws {
        #expect(try Self.resolved("2026-10-01", zone: "Europe/Paris") == "2026-09-30T22:00:00Z 2026-10-01T22:00:00Z")
        #expect(try Self.resolved("today", zone: "America/New_York") == "2026-11-24T05:00:00Z 2026-11-25T05:00:00Z")
    }

    @Test("months and days out of range roll over as mktime(3) rolls them")
    func rollOver() throws {
        // 2026-03-31: a month back is February; the 29th of February 2026 is the 1st of March.
        let endOfMarch = Date(timeIntervalSince1970: 1_774_958_400)
        #expect(try Self.resolved("1M", now: endOfMarch) == "2026-02-01T00:00:00Z 2026-03-01T00:00:00Z")
        #expect(try Self.resolved("1M2d", now: endOfMarch) == "2026-03-01T00:00:00Z 2026-03-02T00:00:00Z")
        #expect(try Self.resolved("3M", now: endOfMarch) == "2025-12-01T00:00:00Z 2026-01-01T00:00:00Z")
    }

    @Test("a query reads the clock when one of its dates is relative", arguments: [
        ("date:today", true), ("budget OR NOT date:7d..", true), ("date:..now", true), ("date:2026-10", false),
        ("date:@0..@9", false), ("budget tag:unread", false), ("*", false),
    ])
    func readsClock(query: String, expected: Bool) throws {
        #expect(try SearchParser.parse(query).readsClock == expected)
    }
}
