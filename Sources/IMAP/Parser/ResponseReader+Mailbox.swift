/// Mailbox data: LIST/LSUB, STATUS, SEARCH, ESEARCH, VANISHED.
extension ResponseReader {
    /// mailbox-list = "(" [mbx-list-flags] ")" SP (DQUOTE QUOTED-CHAR DQUOTE / nil) SP
    ///                mailbox [SP mbox-list-extended]
    ///
    /// The name may be an atom, a quoted string or a literal (Lotus Domino); extended
    /// data (CHILDINFO, OLDNAME) is ignored.
    mutating func readMailboxList() throws(IMAPParseError) -> MailboxListEntry {
        skipSpaces()
        let attributes = try readNilOrList { reader throws(IMAPParseError) in
            try reader.readFlag().lowercased()
        }
        skipSpaces()
        var delimiter: Character?
        if !consumeKeyword("NIL") {
            delimiter = String(decoding: try readAStringBytes(), as: UTF8.self).first
        }
        skipSpaces()
        let name = try readAStringBytes()
        return MailboxListEntry(attributes: attributes, delimiter: delimiter, rawName: Array(name))
    }

    /// mailbox-data =/ "STATUS" SP mailbox SP "(" [status-att-list] ")"
    /// status-att-list = status-att-val *(SP status-att-val)
    mutating func readStatus() throws(IMAPParseError) -> UntaggedResponse {
        skipSpaces()
        let mailbox = try readAString()
        skipSpaces()
        let pairs = try readNilOrList { reader throws(IMAPParseError) in
            let name = try reader.readKeyword()
            reader.skipSpaces()
            return (name, try reader.readNumber())
        }
        var items: [String: UInt64] = [:]
        for (name, value) in pairs where items[name] == nil {
            items[name] = value
        }
        return .status(mailbox: mailbox, items)
    }

    /// mailbox-data =/ "SEARCH" *(SP nz-number) [SP "(" "MODSEQ" SP mod-sequence-value ")"]
    ///
    /// No line limit applies here beyond the response limit (huge results are normal).
    mutating func readSearch() throws(IMAPParseError) -> UntaggedResponse {
        var numbers: [UInt32] = []
        numbers.reserveCapacity(max(end - position, 0) / 8)
        var modSeq: UInt64?
        while true {
            skipSpaces()
            guard let byte = peek() else { break }
            if byte == Byte.openParen {
                modSeq = try readParenthesizedModSeq()
            } else {
                numbers.append(try readUInt32())
            }
        }
        return .search(numbers, modSeq: modSeq)
    }

    /// "(" "MODSEQ" SP mod-sequence-value ")"
    private mutating func readParenthesizedModSeq() throws(IMAPParseError) -> UInt64 {
        try expect(Byte.openParen, "(")
        skipSpaces()
        guard consumeKeyword("MODSEQ") else { throw error("expected MODSEQ") }
        skipSpaces()
        let value = try readNumber()
        skipSpaces()
        try expect(Byte.closeParen, ")")
        return value
    }

    /// esearch-response = "ESEARCH" [search-correlator] [SP "UID"] *(SP search-return-data)
    /// search-correlator = SP "(" "TAG" SP tag-string ")"
    /// search-return-data = "MIN" SP nz-number / "MAX" SP nz-number / "ALL" SP sequence-set /
    ///                      "COUNT" SP number / "MODSEQ" SP mod-sequence-value / other
    mutating func readESearch() throws(IMAPParseError) -> ESearchResult {
        var result = ESearchResult()
        skipSpaces()
        if consume(Byte.openParen) {
            skipSpaces()
            guard consumeKeyword("TAG") else { throw error("expected TAG") }
            skipSpaces()
            result.tag = try readAString()
            skipSpaces()
            try expect(Byte.closeParen, ")")
        }
        while true {
            skipSpaces()
            if isAtEnd { return result }
            let name = try readKeyword()
            skipSpaces()
            switch name {
            case "UID": result.uid = true
            case "MIN": result.min = try readUInt32()
            case "MAX": result.max = try readUInt32()
            case "COUNT": result.count = try readInt()
            case "ALL": result.all = try readSequenceSet()
            case "MODSEQ": result.modSeq = try readNumber()
            default: try skipValue()
            }
        }
    }

    /// expunged-resp = "VANISHED" [SP "(EARLIER)"] SP known-uids
    mutating func readVanished() throws(IMAPParseError) -> UntaggedResponse {
        skipSpaces()
        var earlier = false
        if consume(Byte.openParen) {
            skipSpaces()
            guard consumeKeyword("EARLIER") else { throw error("expected EARLIER") }
            skipSpaces()
            try expect(Byte.closeParen, ")")
            earlier = true
            skipSpaces()
        }
        return .vanished(earlier: earlier, uids: try readSequenceSet())
    }
}
