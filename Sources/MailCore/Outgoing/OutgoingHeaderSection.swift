/// One header field of an outgoing file, as written.
struct OutgoingField {
    /// The name as written (blanks before an obsolete-style colon removed).
    var name: String
    var lowercasedName: String
    /// The physical lines of the field, without their line ends.
    var lines: [ArraySlice<UInt8>]
    /// The value unfolded (line ends before continuation blanks removed) and
    /// trimmed: what is checked, parsed and re-encoded.
    var text: String
}

/// The header section of a file dropped into `outbox/`, split strictly.
///
/// `HeaderBlock` reads received mail and forgives: it skips lines that are not
/// fields. A message we are about to send must be unambiguous, so here every
/// line must be a field or a continuation, bare CRs and control characters
/// are refused, and values must be UTF-8 (RFC 6532). A line of blanks ends the
/// section like an empty line (editors leave trailing blanks on the line that
/// was meant to separate header and body). It reuses `HeaderBlock`'s test of
/// what a field line is, so both readers agree on names.
struct OutgoingHeaderSection {
    var fields: [OutgoingField]
    /// Where the body starts in the input, and its 1-based line number.
    var bodyStart: Int
    var bodyFirstLine: Int

    static func parse(_ bytes: ArraySlice<UInt8>) throws(OutgoingRejection) -> OutgoingHeaderSection {
        var builder = FieldBuilder()
        var cursor = bytes.startIndex
        var lineNumber = 1
        while cursor < bytes.endIndex {
            let line = ByteSearch.line(startingAt: cursor, in: bytes)
            let content = bytes[cursor..<line.contentEnd]
            if content.contains(ASCII.cr) { throw .bareCarriageReturn(line: lineNumber) }
            if content.allSatisfy(ASCII.isBlank) {
                return OutgoingHeaderSection(fields: try builder.finish(), bodyStart: line.next,
                                             bodyFirstLine: lineNumber + 1)
            }
            try builder.take(content, lineNumber: lineNumber)
            if line.contentEnd - bytes.startIndex > HeaderBlock.maxInspectedBytes {
                throw .headerSectionTooLarge
            }
            cursor = line.next
            lineNumber += 1
        }
        return OutgoingHeaderSection(fields: try builder.finish(), bodyStart: bytes.endIndex, bodyFirstLine: lineNumber)
    }
}

/// Gathers lines into fields, rejecting what a sent message must not hold.
private struct FieldBuilder {
    private var fields: [OutgoingField] = []
    private var name: String?
    private var lines: [ArraySlice<UInt8>] = []
    private var valueSize = 0

    mutating func take(_ line: ArraySlice<UInt8>, lineNumber: Int) throws(OutgoingRejection) {
        if let first = line.first, ASCII.isBlank(first) {
            guard name != nil else { throw .notAMessage }
            lines.append(line)
        } else if let colon = HeaderBlock.fieldColon(in: line, line.startIndex..<line.endIndex) {
            try finishField()
            var nameEnd = colon
            while nameEnd > line.startIndex, ASCII.isBlank(line[nameEnd - 1]) { nameEnd -= 1 }
            name = String(decoding: line[line.startIndex..<nameEnd], as: UTF8.self)
            lines = [line]
        } else {
            throw fields.isEmpty && name == nil
                ? .notAMessage
                : .malformedHeaderLine(line: lineNumber, excerpt: Self.excerpt(line))
        }
        valueSize += line.count
        if valueSize > HeaderBlock.maxFieldBytes { throw .headerTooLong(field: name ?? "") }
    }

    mutating func finish() throws(OutgoingRejection) -> [OutgoingField] {
        try finishField()
        return fields
    }

    private mutating func finishField() throws(OutgoingRejection) {
        guard let name else { return }
        defer {
            self.name = nil
            valueSize = 0
        }
        var value: [UInt8] = []
        for (index, line) in lines.enumerated() {
            let part = index == 0 ? line.drop { $0 != ASCII.colon }.dropFirst() : line
            if part.contains(where: Self.isForbiddenControl) { throw .controlCharacterInHeader(field: name) }
            value.append(contentsOf: part)
        }
        let trimmed = ByteSearch.trimmed(value[...], value.startIndex..<value.endIndex)
        guard let text = String(validating: value[trimmed], as: UTF8.self) else {
            throw .invalidUTF8InHeader(field: name)
        }
        fields.append(OutgoingField(name: name, lowercasedName: name.lowercased(), lines: lines, text: text))
    }

    /// Control characters other than TAB have no place in a header value.
    private static func isForbiddenControl(_ byte: UInt8) -> Bool {
        (byte < ASCII.space && byte != ASCII.tab) || byte == 0x7F
    }

    /// The start of a bad line, printable, for the rejection message.
    private static func excerpt(_ line: ArraySlice<UInt8>) -> String {
        let text = HeaderText.collapsingWhitespace(HeaderText.string(line.prefix(60)))
        return String(text.prefix(40))
    }
}
