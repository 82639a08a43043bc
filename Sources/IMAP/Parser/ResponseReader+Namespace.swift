/// NAMESPACE (RFC 2342).
extension ResponseReader {
    /// Namespace_Response = "*" SP "NAMESPACE" SP Namespace SP Namespace SP Namespace
    ///
    /// A server that sends fewer than three lists (seen in the wild for the optional ones)
    /// gets empty ones for those missing.
    mutating func readNamespace() throws(IMAPParseError) -> NamespaceResponse {
        var lists: [[NamespaceDescriptor]] = []
        while lists.count < 3 {
            skipSpaces()
            if isAtEnd { break }
            lists.append(try readNamespaceList())
        }
        guard let personal = lists.first else { throw error("expected a namespace list") }
        return NamespaceResponse(personal: personal, otherUsers: lists.count > 1 ? lists[1] : [],
                                 shared: lists.count > 2 ? lists[2] : [])
    }

    /// Namespace = nil / "(" 1*( "(" string SP (<"> QUOTED_CHAR <"> / nil)
    ///             *(Namespace_Response_Extension) ")" ) ")"
    private mutating func readNamespaceList() throws(IMAPParseError) -> [NamespaceDescriptor] {
        if consumeKeyword("NIL") { return [] }
        return try readList { reader throws(IMAPParseError) in try reader.readNamespaceDescriptor() }
    }

    /// "(" string SP (<"> QUOTED_CHAR <"> / nil) *(Namespace_Response_Extension) ")"
    /// Namespace_Response_Extension = SP string SP "(" string *(SP string) ")"
    ///
    /// Extensions are skipped value by value, so a hostile one costs no more than its bytes.
    private mutating func readNamespaceDescriptor() throws(IMAPParseError) -> NamespaceDescriptor {
        try expect(Byte.openParen, "(")
        try enterNesting()
        skipSpaces()
        let prefix = String(decoding: try readAStringBytes(), as: UTF8.self)
        skipSpaces()
        var delimiter: Character?
        if !consumeKeyword("NIL") {
            delimiter = String(decoding: try readAStringBytes(), as: UTF8.self).first
        }
        while true {
            skipSpaces()
            if consume(Byte.closeParen) { break }
            try skipValue()
        }
        leaveNesting()
        return NamespaceDescriptor(prefix: prefix, delimiter: delimiter)
    }
}
