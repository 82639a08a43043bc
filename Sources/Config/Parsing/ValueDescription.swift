import TOMLKit

/// How a value the user wrote is shown in an error: short, and with control characters escaped
/// so a message can never carry terminal escapes.
enum ValueDescription {
    static let maximumLength = 60

    /// `"abc"`, `993`, `true`, or the kind of value for tables, arrays and dates.
    static func of(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: ConfigKey.quoted(shortened(value.string ?? ""))
        case .int: value.int.map(String.init) ?? kind(of: value)
        case .double: value.double.map { String($0) } ?? kind(of: value)
        case .bool: value.bool.map(String.init) ?? kind(of: value)
        default: kind(of: value)
        }
    }

    /// `a string`, `an integer`, `a table`, …, without the value itself.
    static func kind(of value: TOMLValueConvertible) -> String {
        switch value.type {
        case .int: "an integer"
        case .array: "an array"
        default: "a \(value.type)"
        }
    }

    private static func shortened(_ text: String) -> String {
        text.count > maximumLength ? String(text.prefix(maximumLength)) + "…" : text
    }
}
