/// The few CSS declarations of a `style` attribute that decide whether a reader sees an
/// element: `display:none`, `visibility:hidden`, Outlook's `mso-hide:all`, and the width
/// and height of an image (a 1x1 pixel).
struct InlineStyle {
    private(set) var isHidden = false
    private(set) var width: Int?
    private(set) var height: Int?

    init(_ style: String) {
        for declaration in style.split(separator: ";") {
            guard let colon = declaration.firstIndex(of: ":") else { continue }
            let property = Self.trimmed(declaration[..<colon]).lowercased()
            var value = Self.trimmed(declaration[declaration.index(after: colon)...]).lowercased()
            if value.hasSuffix("!important") { value = Self.trimmed(value.dropLast("!important".count)) }
            switch property {
            case "display": isHidden = isHidden || value == "none"
            case "visibility": isHidden = isHidden || value == "hidden" || value == "collapse"
            case "mso-hide": isHidden = isHidden || value == "all"
            case "width", "max-width": if let pixels = Self.pixels(value) { width = min(pixels, width ?? .max) }
            case "height", "max-height": if let pixels = Self.pixels(value) { height = min(pixels, height ?? .max) }
            default: break
            }
        }
    }

    /// A length in CSS pixels or an HTML dimension attribute (`1`, `1px`); nil for
    /// anything relative (`50%`, `2em`, `auto`).
    static func pixels<Text: StringProtocol>(_ value: Text) -> Int? {
        let digits = value.prefix(while: { $0.isASCII && $0.isNumber })
        guard !digits.isEmpty, digits.count <= 6 else { return nil }
        let unit = value.dropFirst(digits.count).drop(while: { $0 == "." || ($0.isASCII && $0.isNumber) })
        guard unit.isEmpty || unit == "px" else { return nil }
        return Int(digits)
    }

    private static func trimmed<Text: StringProtocol>(_ text: Text) -> String {
        String(text.drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" })
            .reversed().drop(while: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }).reversed())
    }
}
