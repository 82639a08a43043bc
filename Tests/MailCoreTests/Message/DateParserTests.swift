import Foundation
import Testing
import TestSupport
@testable import MailCore

@Suite("RFC 5322 dates, modern and obsolete")
struct DateParserTests {
    /// The instant of a wall-clock time at a UTC offset, via Foundation (an
    /// independent computation from the parser's own calendar arithmetic).
    static func instant(_ year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int,
                        offsetMinutes: Int = 0) -> Date? {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(secondsFromGMT: offsetMinutes * 60) ?? .gmt
        return calendar.date(from: DateComponents(year: year, month: month, day: day,
                                                  hour: hour, minute: minute, second: second))
    }

    @Test("reads the forms mail really carries", arguments: [
        ("Tue, 1 Jul 2003 10:52:37 +0200", instant(2003, 7, 1, 10, 52, 37, offsetMinutes: 120)),
        ("1 Jul 2003 10:52 +0200", instant(2003, 7, 1, 10, 52, 0, offsetMinutes: 120)),
        ("Tue 1 jul 03 10:52:37 GMT", instant(2003, 7, 1, 10, 52, 37)),
        ("Wed, 11 Feb 98 11:51 CST", instant(1998, 2, 11, 11, 51, 0, offsetMinutes: -360)),
        ("Mon, 21 Aug 95 13:30:57 -600", instant(1995, 8, 21, 13, 30, 57, offsetMinutes: -360)),
        ("Thu, 1 Jan 104 00:00:00 +0000", instant(2004, 1, 1, 0, 0, 0)),
        ("Wed 29 May 2019 06:09:22 PM EDT", instant(2019, 5, 29, 18, 9, 22, offsetMinutes: -240)),
        ("Tue, 17 Jul 2012 22:23:35.882 0000", instant(2012, 7, 17, 22, 23, 35)),
        ("01 Jan 2001 00:01+0000", instant(2001, 1, 1, 0, 1, 0)),
        ("Wed, 15 Feb 1995 09:38:18", instant(1995, 2, 15, 9, 38, 18)),
        ("Thu, 6 Jun 1996 15:50:39 +0400 (MOW DST)", instant(1996, 6, 6, 15, 50, 39, offsetMinutes: 240)),
        ("Fri, 6 Apr 2001 09:23:06 -0800 (GMT-0800)", instant(2001, 4, 6, 9, 23, 6, offsetMinutes: -480)),
        ("Sun, 27 Oct 2002 23:57:07 z", instant(2002, 10, 27, 23, 57, 7)),
        ("Mon Jan  5 10:00:00 2004", instant(2004, 1, 5, 10, 0, 0)),
        ("5 January 2004 10:00:00 PST", instant(2004, 1, 5, 10, 0, 0, offsetMinutes: -480)),
        ("Sat, 5 Jan. 2004 10.00.00 +0100", instant(2004, 1, 5, 10, 0, 0, offsetMinutes: 60)),
        ("05.01.2004 10:00 +0100", instant(2004, 1, 5, 10, 0, 0, offsetMinutes: 60)),
        ("Thu, 29 Feb 2024 23:59:60 +0000", instant(2024, 3, 1, 0, 0, 0)),
        ("from mx by x; Mon, 10 Oct 2022 10:31:15 -0700 (PDT)", instant(2022, 10, 10, 10, 31, 15, offsetMinutes: -420)),
    ])
    func readsForms(raw: String, expected: Date?) {
        #expect(DateParser.parse(raw) == expected)
    }

    @Test("out-of-range or incomplete dates are nil", arguments: [
        "", "Whenever", "Thu Jan 01 00:00:10 +0000", "32 Jan 2003 10:00:00 +0000", "29 Feb 2023 10:00:00 +0000",
        "1 Jan 2003 24:00:00 +0000", "1 Jan 2003 10:60:00 +0000", "1 Jan 2003 10:00:61 +0000",
        "1 Jan 2003 10:00:00 +2400", "1 Jan 2003 10:00:00 +0160", "1 Foo 2003 10:00:00", "1 13 2003 10:00:00",
        "1 Jan 99999 10:00:00", "1 Jan 0000 10:00:00", "99999999999999999999 Jan 2003 10:00",
        "1 Jan 2003 99999999999999999999:00",
    ])
    func rejectsInvalid(raw: String) {
        #expect(DateParser.parse(raw) == nil)
    }

    /// Where stalwart's expectation differs and we judge ours right.
    static let divergences: [Int: String] = [
        // RFC 5322 §3.3: the time of day needs ':' between hour, minute and second;
        // a run of bare numbers is not a date.
        12: "stalwart reads '4 8 15 16 23 42' as a date",
    ]

    @Test("stalwart date table", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)), arguments: StalwartTables.cases("date"))
    func stalwartDates(_ entry: StalwartTables.Case) {
        let ours = DateParser.parse(StalwartTables.fieldValue(entry.header))
        if Self.divergences[entry.index] != nil {
            #expect(ours == nil)
            return
        }
        guard let fields = entry.expected as? [String: Any] else {
            #expect(ours == nil)
            return
        }
        func field(_ name: String) -> Int { fields[name] as? Int ?? -1 }
        let offset = (field("tz_hour") * 60 + field("tz_minute")) * (fields["tz_before_gmt"] as? Bool == true ? -1 : 1)
        let expected = Self.instant(field("year"), field("month"), field("day"), field("hour"), field("minute"),
                                    field("second"), offsetMinutes: offset)
        #expect(ours == expected)
    }
}
