/// The top of the grammar: tagged, untagged and continuation responses.
extension ResponseReader {
    /// response = continue-req / response-data / response-tagged (one at a time)
    mutating func readResponse() throws(IMAPParseError) -> Response {
        switch peek() {
        case Byte.plus?:
            position += 1
            _ = consume(Byte.space)
            return .continuation(readRest())
        case Byte.asterisk?:
            position += 1
            skipSpaces()
            return .untagged(try readUntagged())
        case nil:
            throw error("empty response")
        default:
            return .tagged(try readTagged())
        }
    }

    /// response-tagged = tag SP resp-cond-state CRLF
    /// resp-cond-state = ("OK" / "NO" / "BAD") SP resp-text
    mutating func readTagged() throws(IMAPParseError) -> TaggedResponse {
        let tag = try readAtom()
        skipSpaces()
        guard let status = readStatusWord() else { throw error("expected OK, NO or BAD after the tag") }
        return TaggedResponse(tag: tag, state: readResponseText(status))
    }

    private mutating func readStatusWord() -> Status? {
        if consumeKeyword("OK") { return .ok }
        if consumeKeyword("NO") { return .no }
        if consumeKeyword("BAD") { return .bad }
        return nil
    }

    /// response-data = "*" SP (resp-cond-state / resp-cond-bye / mailbox-data /
    ///                 message-data / capability-data / enable-data) CRLF
    mutating func readUntagged() throws(IMAPParseError) -> UntaggedResponse {
        if let first = peek(), Byte.isDigit(first) { return try readNumbered() }
        let keyword = try readKeyword(stop: Byte.openBracket)
        switch keyword {
        case "OK": return .state(readResponseText(.ok))
        case "NO": return .state(readResponseText(.no))
        case "BAD": return .state(readResponseText(.bad))
        case "PREAUTH": return .preauth(readResponseText(.ok))
        case "BYE": return .bye(readResponseText(.ok))
        case "CAPABILITY": return .capability(readWords())
        case "ENABLED": return .enabled(readWords())
        case "LIST", "XLIST": return .list(try readMailboxList())
        case "LSUB": return .lsub(try readMailboxList())
        case "FLAGS": return .flags(try readFlagList())
        case "SEARCH": return try readSearch()
        case "ESEARCH": return .esearch(try readESearch())
        case "STATUS": return try readStatus()
        case "VANISHED": return try readVanished()
        case "NAMESPACE": return .namespace(try readNamespace())
        default:
            skipSpaces()
            return .other(keyword: keyword, text: readRest())
        }
    }

    /// message-data = nz-number SP ("EXPUNGE" / ("FETCH" SP msg-att))
    /// mailbox-data =/ number SP "EXISTS" / number SP "RECENT"
    private mutating func readNumbered() throws(IMAPParseError) -> UntaggedResponse {
        let number = try readInt()
        skipSpaces()
        let keyword = try readKeyword()
        switch keyword {
        case "EXISTS": return .exists(number)
        case "RECENT": return .recent(number)
        case "EXPUNGE": return .expunge(number)
        case "FETCH": return .fetch(sequence: number, attributes: try readFetchAttributes())
        default:
            skipSpaces()
            return .other(keyword: keyword, text: readRest())
        }
    }

    /// capability-data = "CAPABILITY" *(SP capability); enable-data = "ENABLED" *(SP capability)
    ///
    /// Read as space-separated words, upper-cased: a malformed list cannot fail.
    mutating func readWords() -> [String] {
        readRest().uppercased().split(separator: " ").map(String.init)
    }

    /// flag-list = "(" [flag *(SP flag)] ")"
    mutating func readFlagList() throws(IMAPParseError) -> [String] {
        skipSpaces()
        return try readNilOrList { reader throws(IMAPParseError) in try reader.readFlag() }
    }
}
