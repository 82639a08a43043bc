import Foundation
import GRDB
import Testing
@testable import Store

@Suite("Dates read by listings")
struct StoredDateTests {
    /// Dates as the store writes them, decoded both ways from the statement (as a listing's
    /// cursor reads them) and from a copied row.
    private func decodeBoth(_ dates: [Date]) throws -> [(grdb: Date, stored: Date)] {
        let queue = try DatabaseQueue()
        return try queue.write { db in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY, d TEXT)")
            for date in dates { try db.execute(sql: "INSERT INTO t (d) VALUES (?)", arguments: [date]) }
            var decoded: [(grdb: Date, stored: Date)] = []
            let rows = try Row.fetchCursor(db, sql: "SELECT d, d FROM t ORDER BY id")
            while let row = try rows.next() {
                decoded.append((grdb: row[0] as Date, stored: (row[1] as StoredDate).date))
                decoded.append((grdb: row[0] as Date, stored: (row.copy()[1] as StoredDate).date))
            }
            return decoded
        }
    }

    @Test("a stored date decodes to the Date GRDB gives, bit for bit, from 1601 to 2400 and at every millisecond")
    func sameAsGRDB() throws {
        var generator = SystemRandomNumberGenerator()
        var dates = (0..<20_000).map { _ in
            Date(timeIntervalSince1970: Double(Int64.random(in: -11_644_473_600_000...13_569_465_600_000, using: &generator)) / 1000)
        }
        dates += (0..<1000).map { Date(timeIntervalSince1970: 1_764_000_000 + Double($0) / 1000) }
        dates += [Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: -1),
                  // A fraction added to the seconds since 2001 rounds this one differently.
                  Date(timeIntervalSinceReferenceDate: 229_463.458)]
        for (grdb, stored) in try decodeBoth(dates) {
            #expect(stored.timeIntervalSinceReferenceDate.bitPattern == grdb.timeIntervalSinceReferenceDate.bitPattern,
                    "\(grdb.timeIntervalSinceReferenceDate) != \(stored.timeIntervalSinceReferenceDate)")
        }
    }

    @Test("text that is not exactly the stored format is left to GRDB",
          arguments: ["2026-11-20 14:32:05", "2026-11-20T14:32:05.123", "2026-11-20 14:32:05.123Z", "2026-02-30 10:00:00.000",
                      "2026-13-01 10:00:00.000", "2026-11-20 24:00:00.000", "2026-1a-20 14:32:05.123"])
    func otherForms(text: String) throws {
        #expect(text.utf8CString.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: UInt8.self) { StoredDate.parse(UnsafeBufferPointer(rebasing: $0.dropLast())) }
        } == nil)
        let queue = try DatabaseQueue()
        let (grdb, stored) = try queue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT ?, ?", arguments: [text, text]))
            return (try? row.decode(Date?.self, atIndex: 0), try? row.decode(StoredDate?.self, atIndex: 1)?.date)
        }
        #expect(grdb == stored)
    }
}
