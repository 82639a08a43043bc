/// A full key in the config document, such as `accounts.work.imap.port`, as TOML components.
struct ConfigKey: Hashable, Sendable, CustomStringConvertible {
    let components: [String]

    init(_ components: [String] = []) {
        self.components = components
    }

    func appending(_ component: String) -> ConfigKey {
        ConfigKey(components + [component])
    }

    /// The key as the user would write it in TOML: bare components where possible, else quoted
    /// (`accounts."../x"`), with control characters escaped so a message cannot carry them.
    var description: String {
        components.map(Self.render).joined(separator: ".")
    }

    private static func render(_ component: String) -> String {
        let isBare = !component.isEmpty && component.unicodeScalars.allSatisfy(isBareKeyScalar)
        return isBare ? component : quoted(component)
    }

    static func isBareKeyScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
        default: false
        }
    }

    /// A TOML basic string literal for `text`.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case _ where scalar.properties.generalCategory == .control:
                result += "\\u" + fourHexDigits(scalar.value)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// `value` as at least four upper-case hex digits, for `\uXXXX` escapes of control characters.
    private static func fourHexDigits(_ value: UInt32) -> String {
        let hex = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
