/// The header section of a message or of a MIME part, split from its body.
///
/// Real mail is often broken, so the split is lenient: the header ends at the
/// first empty line, CR LF or bare LF (a line of blanks is a fold, as in
/// RFC 5322 obs-FWS, and as mime4j and stalwart read it); a block without a
/// blank line runs to the end; a first line that is not a field means the
/// entity has no header at all. Later lines that are neither a field nor a
/// continuation are skipped in a message header (one bad line must not lose
/// the Subject below it) but end a part's header (a part whose body starts
/// without the blank line, often with a boundary). Work is bounded: only `maxInspectedBytes` of
/// header are turned into fields and each field keeps at most `maxFieldBytes`.
struct HeaderBlock: Sendable {
    /// Fields in order, unfolded (CR LF removed before continuation WSP).
    var fields: [HeaderField]
    /// Index in the raw bytes where the body starts (after the blank line).
    var bodyStart: Int

    static let maxInspectedBytes = 1 << 20
    static let maxFieldBytes = 64 << 10

    /// The first field with this name, raw; `lowercasedName` must be lower
    /// case, the fields' names are compared without case.
    func value(_ lowercasedName: String) -> String? {
        fields.first { $0.hasName(lowercased: lowercasedName) }?.rawValue
    }

    /// Splits `bytes`; `isMessage` skips an mbox `From ` line first (only a
    /// whole message may start with one; a part's body may say "From here").
    static func parse(_ bytes: ArraySlice<UInt8>, isMessage: Bool = false) -> HeaderBlock {
        var cursor = bytes.startIndex
        if isMessage, ByteSearch.hasPrefix(mboxFromPrefix, in: bytes, at: cursor) {
            cursor = ByteSearch.line(startingAt: cursor, in: bytes).next
        }
        if isMessage { cursor = firstFieldAfterBlankLines(bytes, from: cursor) }
        let headerStart = cursor
        let firstLine = ByteSearch.line(startingAt: cursor, in: bytes)
        if cursor < firstLine.contentEnd,
           fieldColon(in: bytes, cursor..<firstLine.contentEnd) == nil {
            return HeaderBlock(fields: [], bodyStart: headerStart)
        }
        var collector = FieldCollector()
        while cursor < bytes.endIndex {
            let line = ByteSearch.line(startingAt: cursor, in: bytes)
            let content = cursor..<line.contentEnd
            if content.isEmpty {
                collector.finish()
                return HeaderBlock(fields: collector.fields, bodyStart: line.next)
            }
            if !isMessage, !ASCII.isBlank(bytes[cursor]), fieldColon(in: bytes, content) == nil {
                // A part's header cannot hold garbage: its body started without the blank line.
                collector.finish()
                return HeaderBlock(fields: collector.fields, bodyStart: cursor)
            }
            if cursor - headerStart < maxInspectedBytes {
                collector.take(bytes, content)
            }
            cursor = line.next
        }
        collector.finish()
        return HeaderBlock(fields: collector.fields, bodyStart: bytes.endIndex)
    }

    private static let mboxFromPrefix: [UInt8] = Array("From ".utf8)

    /// Some forwarders and archives put empty or blank-only lines before a message's header
    /// (Python's `email` and MimeKit read past them): when a field follows them, the header
    /// starts there. Otherwise the message has no header and its body starts at `start`.
    private static func firstFieldAfterBlankLines(_ bytes: ArraySlice<UInt8>, from start: Int) -> Int {
        var probe = start
        while probe < bytes.endIndex {
            let line = ByteSearch.line(startingAt: probe, in: bytes)
            guard bytes[probe..<line.contentEnd].allSatisfy(ASCII.isBlank) else {
                return probe != start && fieldColon(in: bytes, probe..<line.contentEnd) != nil ? probe : start
            }
            probe = line.next
        }
        return start
    }

    /// Where the colon of a `name: value` line is, when the line is a field:
    /// the name is printable ASCII without blanks, optionally followed by
    /// blanks before the colon (obsolete syntax).
    static func fieldColon(in bytes: ArraySlice<UInt8>, _ range: Range<Int>) -> Int? {
        var index = range.lowerBound
        while index < range.upperBound, bytes[index] > 0x20, bytes[index] < 0x7F, bytes[index] != ASCII.colon {
            index += 1
        }
        guard index > range.lowerBound else { return nil }
        while index < range.upperBound, ASCII.isBlank(bytes[index]) { index += 1 }
        return index < range.upperBound && bytes[index] == ASCII.colon ? index : nil
    }
}

/// Accumulates header lines into unfolded fields.
private struct FieldCollector {
    var fields: [HeaderField] = []
    private var name: String?
    private var value: [UInt8] = []

    mutating func take(_ bytes: ArraySlice<UInt8>, _ line: Range<Int>) {
        if ASCII.isBlank(bytes[line.lowerBound]) {
            guard name != nil else { return }
            append(bytes[line])
        } else if let colon = HeaderBlock.fieldColon(in: bytes, line) {
            finish()
            var nameEnd = colon
            while nameEnd > line.lowerBound, ASCII.isBlank(bytes[nameEnd - 1]) { nameEnd -= 1 }
            name = String(decoding: bytes[line.lowerBound..<nameEnd], as: UTF8.self)
            append(bytes[(colon + 1)..<line.upperBound])
        } else {
            // Not a field and not a continuation: garbage, skipped.
            finish()
        }
    }

    private mutating func append(_ part: ArraySlice<UInt8>) {
        let room = HeaderBlock.maxFieldBytes - value.count
        guard room > 0 else { return }
        value.append(contentsOf: part.prefix(room))
    }

    mutating func finish() {
        guard let name else { return }
        let trimmed = ByteSearch.trimmed(value[...], value.startIndex..<value.endIndex)
        fields.append(HeaderField(name: name, rawValue: HeaderText.string(value[trimmed])))
        self.name = nil
        value.removeAll(keepingCapacity: true)
    }
}

extension HeaderField {
    /// ASCII case-insensitive name comparison, without Foundation (header
    /// lookups run many times per message).
    func hasName(lowercased wanted: String) -> Bool {
        guard name.utf8.count == wanted.utf8.count else { return false }
        var own = name.utf8.makeIterator()
        for byte in wanted.utf8 {
            guard let ownByte = own.next(), ASCII.lowercased(ownByte) == byte else { return false }
        }
        return true
    }
}
