import Foundation
import GRDB
import GRDBSQLite
import MailCore

/// A date column as listings and rethreading read it, a message's two dates at a time: the
/// text GRDB stores ("2026-11-20 14:32:05.123", UTC) turned into a `Date` by arithmetic,
/// where GRDB goes through `DateComponents` and a `Calendar`, which was a tenth of the CPU
/// of a daemon's first listing of a 10,000-message folder. Any other form of date (another text format, a number) is
/// left to GRDB's own decoding. Gives the same `Date` as GRDB, bit for bit (a test compares
/// them): a message's mtime must not differ between a listing and another read.
struct StoredDate: DatabaseValueConvertible, StatementColumnConvertible {
    let date: Date

    init(_ date: Date) {
        self.date = date
    }

    init?(sqliteStatement: SQLiteStatement, index: CInt) {
        if sqlite3_column_type(sqliteStatement, index) == SQLITE_TEXT, let text = sqlite3_column_text(sqliteStatement, index),
           let date = Self.parse(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(sqliteStatement, index)))) {
            self.date = date
            return
        }
        guard let date = Date(sqliteStatement: sqliteStatement, index: index) else { return nil }
        self.date = date
    }

    var databaseValue: DatabaseValue { date.databaseValue }

    static func fromDatabaseValue(_ value: DatabaseValue) -> StoredDate? {
        if case .string(var text) = value.storage,
           let date = text.withUTF8({ parse($0) }) {
            return StoredDate(date)
        }
        return Date.fromDatabaseValue(value).map(StoredDate.init)
    }

    /// "YYYY-MM-DD HH:MM:SS.SSS", exactly: nil for anything else, or a field out of range.
    static func parse(_ text: UnsafeBufferPointer<UInt8>) -> Date? {
        guard text.count == 23, text[4] == UInt8(ascii: "-"), text[7] == UInt8(ascii: "-"),
              text[10] == UInt8(ascii: " "), text[13] == UInt8(ascii: ":"), text[16] == UInt8(ascii: ":"),
              text[19] == UInt8(ascii: "."),
              let year = number(text, 0, 4), let month = number(text, 5, 2), let day = number(text, 8, 2),
              let hour = number(text, 11, 2), let minute = number(text, 14, 2), let second = number(text, 17, 2),
              let millisecond = number(text, 20, 3),
              (1...12).contains(month), (1...CivilCalendar.daysInMonth(year: year, month: month)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let days = CivilCalendar.daysSince1970(year: year, month: month, day: day)
        return date(daysSince1970: days, secondsInDay: hour * 3_600 + minute * 60 + second, millisecond: millisecond)
    }

    /// Foundation's Gregorian calendar, through which GRDB builds its dates, adds the fraction
    /// to the seconds of the day, then that to the day's midnight: two roundings, and the
    /// same ones here. Adding the fraction to the whole seconds since 2001 instead differs by
    /// one unit in the last place for about one date in 20,000 (2001-01-03 15:44:23.458).
    private static func date(daysSince1970 days: Int, secondsInDay: Int, millisecond: Int) -> Date {
        let midnight = Double((days - 11_323) * 86_400)  // 11,323 days from 1970 to 2001
        return Date(timeIntervalSinceReferenceDate: midnight + (Double(secondsInDay) + Double(millisecond) / 1_000))
    }

    private static func number(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Int? {
        var value = 0
        for byte in text[start..<start + length] {
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            value = value * 10 + Int(byte &- UInt8(ascii: "0"))
        }
        return value
    }
}
