import Foundation
import GRDB
import GRDBSQLite

/// A date column as the listings read it: the text GRDB stores ("2026-11-20 14:32:05.123",
/// UTC) turned into a `Date` by arithmetic, where GRDB goes through `DateComponents` and a
/// `Calendar`, which was a tenth of the CPU of a daemon's first listing of a 10,000-message
/// folder (two dates a message). Any other form of date (another text format, a number) is
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
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
        return date(secondsSince1970: seconds, millisecond: millisecond)
    }

    /// The whole seconds since 2001, then the fraction added: the same rounding as
    /// Foundation's Gregorian calendar, through which GRDB builds its dates.
    static func date(secondsSince1970 seconds: Int, millisecond: Int) -> Date {
        let sinceReference = Double(seconds - 978_307_200)
        return Date(timeIntervalSinceReferenceDate: sinceReference + Double(millisecond) / 1_000)
    }

    private static func number(_ text: UnsafeBufferPointer<UInt8>, _ start: Int, _ length: Int) -> Int? {
        var value = 0
        for byte in text[start..<start + length] {
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            value = value * 10 + Int(byte &- UInt8(ascii: "0"))
        }
        return value
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's days_from_civil).
    private static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}
