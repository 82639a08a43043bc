/// resp-text and its bracketed response codes.
extension ResponseReader {
    /// resp-text = ["[" resp-text-code "]" SP] text
    ///
    /// Liberal: no text, no space after `]`, an unclosed `[` (then it is all text), and
    /// Gmail's code after the text (`OK Success [THROTTLED]`).
    mutating func readResponseText(_ status: Status) -> ResponseState {
        skipSpaces()
        var code: ResponseCode?
        if peek() == Byte.openBracket {
            let start = position
            if let content = try? readBracketed() {
                code = responseCode(in: content.startIndex..<content.endIndex)
                skipSpaces()
            } else {
                position = start
            }
        }
        let text = readRest()
        return ResponseState(status: status, code: code ?? trailingCode(of: text), text: text)
    }

    /// A code written after the text: `Success [THROTTLED]`; only a bare keyword.
    private func trailingCode(of text: String) -> ResponseCode? {
        guard text.hasSuffix("]"), let open = text.lastIndex(of: "[") else { return nil }
        let name = text[text.index(after: open)..<text.index(before: text.endIndex)]
        let isKeyword = !name.isEmpty && name.unicodeScalars.allSatisfy {
            ("A"..."Z").contains($0) || $0 == "-"
        }
        return isKeyword ? .other(name: String(name), text: nil) : nil
    }

    /// The code in `range` (the bracket's content). A known code that does not parse,
    /// and every unknown code, becomes `.other`: codes never fail a response.
    func responseCode(in range: Range<Int>) -> ResponseCode {
        var reader = self
        reader.position = range.lowerBound
        reader.end = range.upperBound
        let name = (try? reader.readKeyword(stop: UInt8(ascii: "="))) ?? ""
        let afterName = reader.position
        if let known = try? reader.readKnownCode(name) { return known }
        reader.position = afterName
        reader.skipSpaces()
        return .other(name: name, text: reader.isAtEnd ? nil : reader.readRest())
    }

    /// resp-text-code = "ALERT" / "PARSE" / "PERMANENTFLAGS" SP flag-list / "READ-ONLY" /
    ///     "READ-WRITE" / "TRYCREATE" / "UIDNEXT" SP nz-number / "UIDVALIDITY" SP nz-number /
    ///     "UNSEEN" SP nz-number / capability-data / "HIGHESTMODSEQ" SP mod-sequence-value /
    ///     "NOMODSEQ" / "APPENDUID" SP nz-number SP append-uid /
    ///     "COPYUID" SP nz-number SP uid-set SP uid-set / "CLOSED"
    private mutating func readKnownCode(_ name: String) throws(IMAPParseError) -> ResponseCode? {
        skipSpaces()
        switch name {
        case "ALERT": return .alert
        case "PARSE": return .parse
        case "READ-ONLY": return .readOnly
        case "READ-WRITE": return .readWrite
        case "TRYCREATE": return .tryCreate
        case "NOMODSEQ": return .noModSeq
        case "CLOSED": return .closed
        case "UIDVALIDITY": return .uidValidity(try readUInt32())
        case "UIDNEXT": return .uidNext(try readUInt32())
        case "UNSEEN": return .unseen(try readUInt32())
        case "HIGHESTMODSEQ": return .highestModSeq(try readNumber())
        case "PERMANENTFLAGS": return .permanentFlags(try readFlagList())
        case "CAPABILITY": return .capability(readWords())
        case "APPENDUID": return try readAppendUID()
        case "COPYUID": return try readCopyUID()
        default: return nil
        }
    }

    private mutating func readAppendUID() throws(IMAPParseError) -> ResponseCode? {
        let validity = try readUInt32()
        skipSpaces()
        guard let first = try readSequenceSet().ranges.first else { return nil }
        return .appendUID(uidValidity: validity, uid: first.lowerBound)
    }

    private mutating func readCopyUID() throws(IMAPParseError) -> ResponseCode {
        let validity = try readUInt32()
        skipSpaces()
        let source = try readSequenceSet()
        skipSpaces()
        let destination = try readSequenceSet()
        return .copyUID(uidValidity: validity, source: source, destination: destination)
    }

    /// sequence-set = (seq-number / seq-range) ["," sequence-set]
    mutating func readSequenceSet() throws(IMAPParseError) -> UIDSet {
        let start = position
        let bytes = try readAtomBytes(stop: Byte.closeBracket)
        guard let set = UIDSetSyntax.parse(bytes) else {
            throw IMAPParseError(.malformed, "bad sequence set", at: start)
        }
        return set
    }
}
