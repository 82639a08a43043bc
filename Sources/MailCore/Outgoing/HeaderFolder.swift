/// Writes a header field, folded (RFC 5322 §2.2.3) so lines stay within 78
/// characters where the value has blanks to break at.
///
/// A fold is a CR LF put before an existing blank, so unfolding gives back
/// exactly the value (this holds inside quoted strings and comments too). A
/// word longer than a line stays whole; the caller checks the 998 limit.
enum HeaderFolder {
    static let preferredLineLength = 78

    /// `Name: value` with its final CR LF.
    static func field(name: String, value: String) -> [UInt8] {
        var output = Array(name.utf8)
        output.append(ASCII.colon)
        var column = output.count
        for (index, piece) in pieces(Array(value.utf8)).enumerated() {
            let blank: ArraySlice<UInt8> = index == 0 && piece.blank.isEmpty ? [ASCII.space] : piece.blank
            if index > 0, column + blank.count + piece.word.count > preferredLineLength {
                output += crlf
                column = 0
            }
            output += blank
            output += piece.word
            column += blank.count + piece.word.count
        }
        return output + crlf
    }

    static let crlf: [UInt8] = [ASCII.cr, ASCII.lf]

    /// The value cut into words, each with the run of blanks before it.
    private static func pieces(_ bytes: [UInt8]) -> [(blank: ArraySlice<UInt8>, word: ArraySlice<UInt8>)] {
        var result: [(blank: ArraySlice<UInt8>, word: ArraySlice<UInt8>)] = []
        var index = 0
        while index < bytes.count {
            let blankStart = index
            while index < bytes.count, ASCII.isBlank(bytes[index]) { index += 1 }
            let wordStart = index
            while index < bytes.count, !ASCII.isBlank(bytes[index]) { index += 1 }
            guard wordStart < index else { break }
            result.append((bytes[blankStart..<wordStart], bytes[wordStart..<index]))
        }
        return result
    }
}
