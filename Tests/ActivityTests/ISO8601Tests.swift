import Foundation
import Activity
import Testing

@Suite("ISO 8601 timestamps of .status and .log")
struct ISO8601Tests {
    @Test("UTC, seconds, a Z", arguments: [
        (0.0, "1970-01-01T00:00:00Z"),
        (1_795_316_942.9, "2026-11-22T03:09:02Z"),
        (951_782_400, "2000-02-29T00:00:00Z"),
        (4_102_444_799, "2099-12-31T23:59:59Z"),
    ])
    func format(_ seconds: Double, _ expected: String) {
        #expect(ISO8601.format(Date(timeIntervalSince1970: seconds)) == expected)
    }
}
