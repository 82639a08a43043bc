import Foundation

/// FETCH data items, each contained: one broken item does not lose the others.
extension ResponseReader {
    /// msg-att = "(" (msg-att-dynamic / msg-att-static) *(SP (msg-att-dynamic / msg-att-static)) ")"
    ///
    /// An item that fails is named in `malformed` and skipped; if the list cannot be
    /// resynchronised, what was read is kept and a UID is searched for in the rest
    /// (a UID may come last, even after a body literal). A list that never closes is
    /// flagged with `")"` in `malformed`: its last items are suspect.
    mutating func readFetchAttributes() throws(IMAPParseError) -> FetchAttributes {
        skipSpaces()
        try expect(Byte.openParen, "( after FETCH")
        var attributes = FetchAttributes()
        var count = 0
        let listStart = position
        var firstRecovery: Int?
        while true {
            skipSpaces()
            if consume(Byte.closeParen) { break }
            if isAtEnd {
                attributes.malformed.append(")")
                salvage(from: firstRecovery ?? listStart, into: &attributes)
                break
            }
            count += 1
            guard count <= limits.maxListItems else {
                throw IMAPParseError(.limitExceeded, "too many FETCH items", at: position)
            }
            let itemStart = position
            let itemDepth = depth
            do {
                try readFetchItem(into: &attributes)
            } catch {
                depth = itemDepth
                firstRecovery = firstRecovery ?? itemStart
                guard recoverFetchItem(from: itemStart, into: &attributes) else { break }
            }
        }
        return attributes
    }

    /// Skips the item at `start` after a failure. Returns false when the rest of the
    /// list cannot be trusted; then only a UID is salvaged from it.
    private mutating func recoverFetchItem(from start: Int, into attributes: inout FetchAttributes) -> Bool {
        position = start
        attributes.malformed.append((try? readFetchItemName()) ?? "?")
        if skipSectionAndValue() { return true }
        salvage(from: start, into: &attributes)
        position = end
        return false
    }

    /// Skips a broken item's section, origin and value; false when they do not end cleanly.
    private mutating func skipSectionAndValue() -> Bool {
        if peek() == Byte.openBracket {
            guard (try? readBracketed()) != nil else { return false }
            if consume(Byte.openAngle) {
                guard (try? readNumber()) != nil, consume(Byte.closeAngle) else { return false }
            }
        }
        skipSpaces()
        if peek() == Byte.openParen { return skipBrokenList(from: position) }
        guard (try? skipValue()) != nil else { return false }
        return peek() == Byte.space || peek() == Byte.closeParen
    }

    /// Fills a missing UID and FLAGS from the first ` UID n` and ` FLAGS (…)` at or
    /// after `start`: what sync cannot do without, from a list that lost its structure.
    private func salvage(from start: Int, into attributes: inout FetchAttributes) {
        if attributes.uid == nil {
            attributes.uid = salvageValue(of: "UID", from: start) { reader throws(IMAPParseError) in try reader.readUInt32() }
        }
        if attributes.flags == nil {
            attributes.flags = salvageValue(of: "FLAGS", from: start) { reader throws(IMAPParseError) in
                try reader.readList { item throws(IMAPParseError) in try item.readFlag() }
            }
        }
    }

    /// The value after the first `name` preceded by SP or `(` and followed by SP, if it
    /// parses. Only the first occurrence is tried, so hostile input stays linear.
    private func salvageValue<Value>(
        of name: StaticString, from start: Int,
        _ read: (inout ResponseReader) throws(IMAPParseError) -> Value
    ) -> Value? {
        var probe = self
        var index = max(start, 1)
        while index < end {
            let before = bytes[index - 1]
            probe.position = index
            if before == Byte.space || before == Byte.openParen, probe.consumeKeyword(name), probe.consume(Byte.space) {
                return try? read(&probe)
            }
            index += 1
        }
        return nil
    }

    /// An item name, up to `[` for sections: `UID`, `BODY`, `BINARY.SIZE`.
    private mutating func readFetchItemName() throws(IMAPParseError) -> String {
        try readKeyword(stop: Byte.openBracket)
    }

    /// msg-att-dynamic = "FLAGS" SP "(" [flag-fetch *(SP flag-fetch)] ")"
    /// msg-att-static  = "ENVELOPE" SP envelope / "INTERNALDATE" SP date-time /
    ///     "RFC822" [".HEADER" / ".TEXT"] SP nstring / "RFC822.SIZE" SP number /
    ///     "BODY" ["STRUCTURE"] SP body / "BODY" section ["<" number ">"] SP nstring /
    ///     "UID" SP uniqueid / "MODSEQ" SP "(" mod-sequence-value ")"
    ///     ; Gmail: "X-GM-MSGID" SP number / "X-GM-THRID" SP number / "X-GM-LABELS" SP list
    private mutating func readFetchItem(into attributes: inout FetchAttributes) throws(IMAPParseError) {
        let name = try readFetchItemName()
        if peek() == Byte.openBracket, name == "BODY" || name == "BODY.PEEK" {
            return try readBodySection(into: &attributes)
        }
        skipSpaces()
        switch name {
        case "UID": attributes.uid = try readUInt32()
        case "FLAGS": attributes.flags = try readNilOrList { reader throws(IMAPParseError) in try reader.readFlag() }
        case "INTERNALDATE": attributes.internalDate = try readInternalDate()
        case "RFC822.SIZE": attributes.rfc822Size = try readNumber()
        case "ENVELOPE": attributes.envelope = try readEnvelope()
        case "BODY", "BODYSTRUCTURE": attributes.bodyStructure = try readBody()
        case "MODSEQ": attributes.modSeq = try readList { reader throws(IMAPParseError) in try reader.readNumber() }.first
        case "X-GM-MSGID": attributes.gmailMessageID = try readNumber()
        case "X-GM-THRID": attributes.gmailThreadID = try readNumber()
        case "X-GM-LABELS": attributes.gmailLabels = try readNilOrList { reader throws(IMAPParseError) in try reader.readFlag() }
        case "RFC822": attributes.bodySections[BodySection("")] = try readNStringContent()
        case "RFC822.HEADER": attributes.bodySections[BodySection("HEADER")] = try readNStringContent()
        case "RFC822.TEXT": attributes.bodySections[BodySection("TEXT")] = try readNStringContent()
        default: try skipUnknownItem()
        }
    }

    /// "BODY" section ["<" number ">"] SP nstring
    /// section = "[" [section-spec] "]"
    private mutating func readBodySection(into attributes: inout FetchAttributes) throws(IMAPParseError) {
        let spec = try readBracketed()
        var origin: UInt32?
        if consume(Byte.openAngle) {
            origin = try readUInt32()
            try expect(Byte.closeAngle, ">")
        }
        skipSpaces()
        let section = BodySection(specBytes: spec, origin: origin)
        attributes.bodySections[section] = try readNStringContent()
    }

    /// An nstring's bytes, NIL as empty.
    private mutating func readNStringContent() throws(IMAPParseError) -> [UInt8] {
        Array(try readNStringBytes() ?? [])
    }

    /// An item this grammar does not use (`BINARY[1]<0> ~{n}`, `EMAILID (…)`): its
    /// section and origin if any, then one value.
    private mutating func skipUnknownItem() throws(IMAPParseError) {
        if peek() == Byte.openBracket { _ = try readBracketed() }
        if consume(Byte.openAngle) {
            _ = try readNumber()
            try expect(Byte.closeAngle, ">")
        }
        skipSpaces()
        try skipValue()
    }

    /// date-time = DQUOTE date-day-fixed "-" date-month "-" date-year SP time SP zone DQUOTE
    private mutating func readInternalDate() throws(IMAPParseError) -> Date {
        let start = position
        guard let text = try readNStringBytes(), let date = InternalDateParser.parse(text) else {
            throw IMAPParseError(.malformed, "bad INTERNALDATE", at: start)
        }
        return date
    }
}
