/// RFC 2047 encoding of unstructured header text (Subject, Comments, X-
/// fields): the words from the first to the last one holding non-ASCII become
/// encoded words; the ASCII words around them stay readable (`Re: ` stays).
/// Encoded words already in that span are decoded first, so they are not
/// encoded twice.
///
///     Re: Café à midi ?  ->  Re: =?utf-8?q?Caf=C3=A9_=C3=A0_midi?= ?
enum UnstructuredText {
    static func encoded(_ text: String) -> String {
        let pieces = BlankSeparated.pieces(text)
        guard let first = pieces.firstIndex(where: \.isNonASCII),
              let last = pieces.lastIndex(where: \.isNonASCII) else { return text }
        var lead = pieces[first].blank
        var span = pieces[first].word + BlankSeparated.joined(pieces[first...last].dropFirst())
        var tail = BlankSeparated.joined(pieces[(last + 1)...])
        // A blank between an encoded word and ours would vanish on decoding (RFC 2047 §6.2): carry it inside.
        if first > 0, EncodedWordAdjacency.swallowsBlank(after: pieces[first - 1].word) {
            span = lead + span
            lead = " "
        }
        if last + 1 < pieces.count, EncodedWordAdjacency.swallowsBlank(before: pieces[last + 1].word) {
            span += pieces[last + 1].blank
            tail = " " + BlankSeparated.joined(pieces[(last + 1)...]).drop { $0 == " " || $0 == "\t" }
        }
        let head = BlankSeparated.joined(pieces[..<first])
        let words = EncodedWordEncoder.encode(EncodedWord.decode(span)).joined(separator: " ")
        return head + lead + words + tail
    }
}

/// Text cut at runs of blanks, each word with the blanks before it.
enum BlankSeparated {
    struct Piece {
        var blank: String
        var word: String

        var isNonASCII: Bool { !word.utf8.allSatisfy { $0 < 0x80 } }
    }

    static func pieces(_ text: String) -> [Piece] {
        var result: [Piece] = []
        var piece = Piece(blank: "", word: "")
        for scalar in text.unicodeScalars {
            if scalar == " " || scalar == "\t" {
                if !piece.word.isEmpty {
                    result.append(piece)
                    piece = Piece(blank: "", word: "")
                }
                piece.blank.unicodeScalars.append(scalar)
            } else {
                piece.word.unicodeScalars.append(scalar)
            }
        }
        if !piece.word.isEmpty { result.append(piece) }
        return result
    }

    static func joined(_ pieces: ArraySlice<Piece>) -> String {
        pieces.map { $0.blank + $0.word }.joined()
    }
}

/// Whether the blank between a word and an encoded word is dropped when the
/// header is decoded, asked of the decoder itself so both always agree.
enum EncodedWordAdjacency {
    private static let probe = "=?utf-8?q?x?="

    static func swallowsBlank(after word: String) -> Bool {
        EncodedWord.decode(word + " " + probe) == EncodedWord.decode(word) + "x"
    }

    static func swallowsBlank(before word: String) -> Bool {
        EncodedWord.decode(probe + " " + word) == "x" + EncodedWord.decode(word)
    }
}
