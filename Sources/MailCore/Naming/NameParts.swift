/// A file name split into the part that may be shortened and the extension to keep.
///
/// The extension is what follows the last dot when it is 1 to 10 ASCII letters and
/// digits with at least one letter (`pdf`, `mp3`, `7z`) and something precedes the dot;
/// `v1.2`, `Re: Meeting at 5.30 pm` and `.bashrc` have none.
struct NameParts {
    static let maxExtensionLength = 10

    var stem: String
    /// `.pdf`, or "" when the name has no extension (or it is not to be kept).
    var extensionWithDot: String

    init(_ name: String, keepingExtension: Bool) {
        guard keepingExtension, let dot = name.lastIndex(of: "."), dot > name.startIndex else {
            stem = name
            extensionWithDot = ""
            return
        }
        let candidate = name[name.index(after: dot)...]
        if Self.isExtension(candidate) {
            stem = String(name[..<dot])
            extensionWithDot = String(name[dot...])
        } else {
            stem = name
            extensionWithDot = ""
        }
    }

    private static func isExtension(_ text: Substring) -> Bool {
        let bytes = text.utf8
        guard (1...maxExtensionLength).contains(bytes.count) else { return false }
        let isLetter: (UInt8) -> Bool = { (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0) }
        let isDigit: (UInt8) -> Bool = { (0x30...0x39).contains($0) }
        return bytes.allSatisfy { isLetter($0) || isDigit($0) } && bytes.contains(where: isLetter)
    }

    /// The longest prefix of `text` that fits in `limit` bytes of UTF-8, cut between
    /// grapheme clusters so no accent or emoji is split; when even the first cluster is
    /// too long (a crafted run of combining marks), cut between scalars instead.
    static func cut(_ text: String, toBytes limit: Int) -> String {
        guard limit > 0 else { return "" }
        guard text.utf8.count > limit else { return text }
        var used = 0
        var end = text.startIndex
        for character in text {
            let size = character.utf8.count
            guard used + size <= limit else { break }
            used += size
            end = text.index(after: end)
        }
        if end > text.startIndex { return String(text[..<end]) }
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard used + scalar.utf8.count <= limit else { break }
            used += scalar.utf8.count
            scalars.append(scalar)
        }
        return String(scalars)
    }
}
