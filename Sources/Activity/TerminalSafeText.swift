/// Text from servers, files and users as `.log` and `.status` may print it: `cat .log` in a
/// terminal must not run a terminal's escape sequences (`\u{1B}[2J` clears the screen), and
/// each event or value must stay one line. Control characters (C0, DEL, C1) become a visible
/// `\xHH`; everything else, non-ASCII letters included, stays as it is.
public enum TerminalSafeText {
    public static func escaped(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = ""
        result.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            if isControl(scalar) {
                let hex = String(scalar.value, radix: 16, uppercase: true)
                result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            } else {
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }
}
