/// RFC 2047 encoding of fields made of addresses or phrases (From, To, Cc,
/// Reply-To, Sender, Keywords, ...): only display names, group names and
/// comments are encoded (§5(2), §5(3)); addresses stay as written, since an
/// encoded word there would change the address (a non-ASCII address needs
/// SMTPUTF8 instead), and the list's punctuation stays byte for byte.
///
///     "Müller, Jürgen" <j@x.de>, Équipe: a@x;
///     -> =?utf-8?q?M=C3=BCller=2C_J=C3=BCrgen?= <j@x.de>, =?utf-8?q?=C3=89quipe?=: a@x;
///
/// A display name is a run of words (atoms, quoted strings) and blanks, none
/// of them part of an address: a word holding `@`, or glued to one that does
/// (`"jö"@x.de`), is an address.
enum PhraseFieldText {
    static func encoded(_ text: String) -> String {
        let segments = PhraseSegment.scan(Array(text.utf8))
        let isAddress = addressWords(segments)
        var output = ""
        var index = 0
        while index < segments.count {
            let segment = segments[index]
            if case .word = segment.kind, !isAddress[index] {
                let end = runEnd(segments, isAddress, from: index)
                output += encodedRun(segments[index..<end])
                index = end
                continue
            }
            if case .comment(let content) = segment.kind, !segment.raw.utf8.allSatisfy({ $0 < 0x80 }) {
                output += "(" + EncodedWordEncoder.encode(EncodedWord.decode(content)).joined(separator: " ") + ")"
            } else {
                output += segment.raw
            }
            index += 1
        }
        return output
    }

    /// For each segment, whether it is a word that belongs to an address.
    private static func addressWords(_ segments: [PhraseSegment]) -> [Bool] {
        var result = [Bool](repeating: false, count: segments.count)
        var start = 0
        while start < segments.count {
            guard case .word = segments[start].kind else {
                start += 1
                continue
            }
            var end = start
            while end < segments.count, case .word = segments[end].kind { end += 1 }
            let glued = segments[start..<end].contains { $0.raw.utf8.contains(ASCII.at) }
            for index in start..<end { result[index] = glued }
            start = end
        }
        return result
    }

    /// The end of the display name starting at `start`: the last of its words, plus one.
    private static func runEnd(_ segments: [PhraseSegment], _ isAddress: [Bool], from start: Int) -> Int {
        var end = start + 1
        var probe = end
        while probe < segments.count {
            switch segments[probe].kind {
            case .blank: probe += 1
            case .word where !isAddress[probe]:
                probe += 1
                end = probe
            default: return end
            }
        }
        return end
    }

    /// A display name as written when ASCII, else as encoded words.
    private static func encodedRun(_ run: ArraySlice<PhraseSegment>) -> String {
        let raw = run.map(\.raw).joined()
        guard !raw.utf8.allSatisfy({ $0 < 0x80 }) else { return raw }
        let display = run.map { segment -> String in
            if case .word(let display) = segment.kind { return display }
            return segment.raw
        }.joined()
        return EncodedWordEncoder.encode(EncodedWord.decode(display)).joined(separator: " ")
    }
}
