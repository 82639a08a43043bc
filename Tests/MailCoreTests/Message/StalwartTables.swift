import Foundation
import Testing
@testable import MailCore

/// The header-level tables of stalwart-mail-parser: JSON arrays of
/// `{ "header": raw value as it follows the colon, "expected": ... }`.
enum StalwartTables {
    struct Case: Sendable, CustomTestStringConvertible {
        var index: Int
        var header: String
        /// The expected value as JSON text (JSON objects are not Sendable).
        var expectedJSON: String

        var testDescription: String { "#\(index) \(header.debugDescription)" }

        /// The expected value as JSONSerialization gives it; nil for JSON null.
        var expected: Any? {
            let value = try? JSONSerialization.jsonObject(with: Data(expectedJSON.utf8), options: [.fragmentsAllowed])
            return value is NSNull ? nil : value
        }
    }

    static func cases(_ table: String) -> [Case] {
        guard let array = CorpusFiles.json("stalwart-mail-parser/\(table).json") as? [[String: Any]] else { return [] }
        return array.enumerated().map { index, entry in
            let expected = entry["expected"] ?? NSNull()
            let data = (try? JSONSerialization.data(withJSONObject: expected, options: [.fragmentsAllowed])) ?? Data()
            return Case(index: index, header: entry["header"] as? String ?? "",
                        expectedJSON: String(decoding: data, as: UTF8.self))
        }
    }

    /// The unfolded value our header parser makes of `raw` as a field body
    /// (what every header-level parser receives in mailfs).
    static func fieldValue(_ raw: String) -> String {
        let block = HeaderBlock.parse(Array("X: \(raw)".utf8)[...])
        return block.fields.first?.rawValue ?? ""
    }
}
