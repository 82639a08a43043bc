/// Shape checks for the strings of an account. They catch typos and hostile text (control
/// characters, spaces, header-breaking characters), not every RFC corner.
enum ValueRules {
    /// `local@domain`: exactly one `@` between non-empty parts, no blanks, controls or `<>,;"()`.
    static func isMailAddress(_ text: String) -> Bool {
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        let forbidden: Set<Unicode.Scalar> = ["<", ">", ",", ";", "\"", "(", ")"]
        return text.utf8.count <= 254
            && parts.count == 2 && parts.allSatisfy { !$0.isEmpty }
            && hasNoControlOrBlank(text)
            && !text.unicodeScalars.contains(where: forbidden.contains)
    }

    /// A DNS name or IP address: ASCII letters, digits, `-`, `.`, `_`, and `:` for IPv6.
    static func isHost(_ text: String) -> Bool {
        guard !text.isEmpty, text.utf8.count <= 253 else { return false }
        return text.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", ".", "_", ":": true
            default: false
            }
        }
    }

    /// True when `text` has no control character (a command or user name is one line of text).
    static func hasNoControlCharacters(_ text: String) -> Bool {
        !text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    private static func hasNoControlOrBlank(_ text: String) -> Bool {
        hasNoControlCharacters(text) && !text.unicodeScalars.contains { $0.properties.isWhitespace }
    }
}
