import Foundation

extension DateRange {
    /// The instants the range covers, half open: `lower` is the first second `since` can
    /// mean, `upper` the first second after `until` (nil: that side is open). Dates are read
    /// in `calendar`'s time zone, as notmuch reads them in the local one.
    ///
    ///     date:2026-10-01..2026-10-31   [Oct 1 00:00, Nov 1 00:00)
    ///     date:3M..                      [the 1st of the month three months ago, open)
    public func resolved(now: Date, calendar: Calendar) -> (lower: Date?, upper: Date?) {
        let clock = DateClock(now: now, calendar: calendar)
        return (since.map { clock.interval(of: $0).start }, until.map { clock.interval(of: $0).end })
    }
}

extension SearchQuery {
    /// Whether what it finds changes with the time alone (`date:today`, `date:7d..`), so a
    /// listing of it goes stale without any change to the mail.
    public var readsClock: Bool {
        switch self {
        case .term(.date(let range)): [range.since, range.until].contains { $0?.isRelative == true }
        case .everything, .term: false
        case .not(let inner): inner.readsClock
        case .and(let operands), .or(let operands): operands.contains { $0.readsClock }
        }
    }
}

extension DateBound {
    var isRelative: Bool {
        switch self {
        case .calendar, .timestamp: false
        case .today, .yesterday, .now, .ago: true
        }
    }
}

/// What a `DateBound` means on a given clock: the interval from its first second to the
/// first second after it, rounded like notmuch's parse-time-string (a relative date keeps
/// the precision of its smallest unit; weeks start on Sunday).
struct DateClock {
    let now: Date
    let calendar: Calendar

    init(now: Date, calendar: Calendar) {
        self.now = Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down))
        self.calendar = calendar
    }

    func interval(of bound: DateBound) -> (start: Date, end: Date) {
        switch bound {
        case .timestamp(let seconds):
            let instant = Date(timeIntervalSince1970: Double(seconds))
            return (instant, instant + 1)
        case .now:
            return (now, now + 1)
        case .calendar(let year, let month, let day):
            let start = date(Fields(year: year, month: month ?? 1, day: day ?? 1))
            return interval(from: start, precision: day != nil ? .day : month != nil ? .month : .year)
        case .today:
            return ago(RelativeSpan([.day: 0]))
        case .yesterday:
            return ago(RelativeSpan([.day: 1]))
        case .ago(let span):
            return ago(span)
        }
    }

    /// Now minus the span, with every unit finer than its precision at its first value.
    private func ago(_ span: RelativeSpan) -> (start: Date, end: Date) {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: now)
        var fields = Fields(year: (parts.year ?? 1970) - span.count(.year),
                            month: (parts.month ?? 1) - span.count(.month),
                            day: (parts.day ?? 1) - span.count(.day) - 7 * span.count(.week),
                            hour: (parts.hour ?? 0) - span.count(.hour),
                            minute: (parts.minute ?? 0) - span.count(.minute),
                            second: (parts.second ?? 0) - span.count(.second))
        let precision = span.precision
        if precision > .second { fields.second = 0 }
        if precision > .minute { fields.minute = 0 }
        if precision > .hour { fields.hour = 0 }
        if precision > .week { fields.day = 1 }
        if precision > .month { fields.month = 1 }
        var start = date(fields)
        if precision == .week {
            let sinceSunday = calendar.component(.weekday, from: start) - 1
            start = calendar.date(byAdding: .day, value: -sinceSunday, to: start) ?? start
        }
        return interval(from: start, precision: precision)
    }

    private func interval(from start: Date, precision: RelativeSpan.Unit) -> (start: Date, end: Date) {
        let step: (Calendar.Component, Int) = switch precision {
        case .second: (.second, 1)
        case .minute: (.minute, 1)
        case .hour: (.hour, 1)
        case .day: (.day, 1)
        case .week: (.day, 7)
        case .month: (.month, 1)
        case .year: (.year, 1)
        }
        return (start, calendar.date(byAdding: step.0, value: step.1, to: start) ?? .distantFuture)
    }

    /// Calendar fields that may be out of range after subtracting a span (month 0, day -3):
    /// counted forward from January 1st of the year, as mktime(3) normalizes them.
    private struct Fields {
        var year: Int, month: Int, day: Int, hour = 0, minute = 0, second = 0
    }

    private func date(_ fields: Fields) -> Date {
        guard var date = calendar.date(from: DateComponents(year: fields.year, month: 1, day: 1)) else {
            return .distantPast
        }
        let steps: [(Calendar.Component, Int)] = [
            (.month, fields.month - 1), (.day, fields.day - 1),
            (.hour, fields.hour), (.minute, fields.minute), (.second, fields.second),
        ]
        for (component, value) in steps where value != 0 {
            date = calendar.date(byAdding: component, value: value, to: date) ?? date
        }
        return date
    }
}
