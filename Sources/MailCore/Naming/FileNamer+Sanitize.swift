import Foundation

extension FileNamer {
    /// Makes untrusted text (a subject, a sender, an attachment's file name) one safe path
    /// component:
    /// - NFC, so names that look the same are the same bytes;
    /// - `/` and control characters (C0, DEL, C1, NUL) become `_`, except the whitespace
    ///   ones (tab, line breaks, NEL), which become spaces like every other space character;
    /// - invisible format characters are removed: bidi embeddings, overrides and isolates
    ///   (an RLO can make `exe.txt` display as `txt.exe`), zero-width spaces, BOMs, soft
    ///   hyphens, tag characters — all of Unicode's Cf except ZWJ and ZWNJ, which emoji
    ///   and several scripts need;
    /// - whitespace runs become one space, trimmed;
    /// - leading dots become `_` (no hidden files, never `.` or `..`), and so does a
    ///   leading `-` (a name that a shell glob would hand to a command as an option);
    /// - trailing dots and spaces are dropped;
    /// - the result is never empty (`_`) and at most `maxNameBytes` bytes of UTF-8, cut on
    ///   a grapheme boundary before the extension, which is kept (`keepingExtension`).
    public static func sanitize(_ component: String, keepingExtension: Bool = true) -> String {
        var name = cleanedScalars(of: component)
        name = protectingStart(of: name)
        name = droppingTrailingDotsAndSpaces(of: name)
        if name.isEmpty { return "_" }
        guard name.utf8.count > maxNameBytes else { return name }
        let parts = NameParts(name, keepingExtension: keepingExtension)
        let budget = maxNameBytes - parts.extensionWithDot.utf8.count
        let stem = droppingTrailingDotsAndSpaces(of: NameParts.cut(parts.stem, toBytes: budget))
        return (stem.isEmpty ? "_" : stem) + parts.extensionWithDot
    }

    /// Replaces or removes unsafe scalars and collapses whitespace.
    private static func cleanedScalars(of text: String) -> String {
        var cleaned = String.UnicodeScalarView()
        var pendingSpace = false
        // ASCII is its own NFC; Foundation's normalization costs a copy through ICU, which
        // was a tenth of preparing each imported message.
        let normalized = text.utf8.allSatisfy { $0 < 0x80 } ? text : text.precomposedStringWithCanonicalMapping
        for scalar in normalized.unicodeScalars {
            switch ScalarSafety.classify(scalar) {
            case .keep:
                if pendingSpace { cleaned.append(" ") }
                pendingSpace = false
                cleaned.append(scalar)
            case .replace:
                if pendingSpace { cleaned.append(" ") }
                pendingSpace = false
                cleaned.append("_")
            case .space:
                pendingSpace = !cleaned.isEmpty
            case .remove:
                continue
            }
        }
        return String(cleaned)
    }

    private static func protectingStart(of name: String) -> String {
        let dots = name.prefix { $0 == "." }.count
        var protected = String(repeating: "_", count: dots) + name.dropFirst(dots)
        if protected.hasPrefix("-") { protected = "_" + protected.dropFirst() }
        return protected
    }

    static func droppingTrailingDotsAndSpaces(of name: String) -> String {
        var end = name.endIndex
        while end > name.startIndex {
            let previous = name.index(before: end)
            guard name[previous] == "." || name[previous] == " " else { break }
            end = previous
        }
        return String(name[..<end])
    }
}

/// What `sanitize` does with one Unicode scalar.
enum ScalarSafety {
    case keep, replace, space, remove

    static func classify(_ scalar: Unicode.Scalar) -> ScalarSafety {
        scalar.isASCII ? classifyASCII(scalar) : classifyByProperties(scalar)
    }

    /// `classifyByProperties` for ASCII without Unicode's tables (a test checks they agree
    /// on all 128): White_Space is tab to carriage return and space; the rest below space,
    /// and DEL, are controls.
    private static func classifyASCII(_ scalar: Unicode.Scalar) -> ScalarSafety {
        switch scalar.value {
        case 0x09...0x0D, 0x20: return .space
        case 0x00...0x1F, 0x7F, 0x2F: return .replace
        default: return .keep
        }
    }

    static func classifyByProperties(_ scalar: Unicode.Scalar) -> ScalarSafety {
        if scalar == "/" { return .replace }
        let properties = scalar.properties
        if properties.isWhitespace { return .space }
        switch properties.generalCategory {
        case .control:
            return .replace
        case .format:
            return scalar == "\u{200C}" || scalar == "\u{200D}" ? .keep : .remove
        case .lineSeparator, .paragraphSeparator, .spaceSeparator:
            return .space
        default:
            return .keep
        }
    }
}
