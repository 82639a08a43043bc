/// ENVELOPE and its address lists.
extension ResponseReader {
    /// envelope = "(" env-date SP env-subject SP env-from SP env-sender SP env-reply-to SP
    ///            env-to SP env-cc SP env-bcc SP env-in-reply-to SP env-message-id ")"
    ///
    /// Liberal: missing trailing fields read as nil, extra fields are skipped.
    mutating func readEnvelope() throws(IMAPParseError) -> Envelope {
        try expect(Byte.openParen, "( of an envelope")
        try enterNesting()
        var envelope = Envelope()
        envelope.date = try readEnvelopeString()
        envelope.subject = try readEnvelopeString()
        envelope.from = try readAddresses()
        envelope.sender = try readAddresses()
        envelope.replyTo = try readAddresses()
        envelope.to = try readAddresses()
        envelope.cc = try readAddresses()
        envelope.bcc = try readAddresses()
        envelope.inReplyTo = try readEnvelopeString()
        envelope.messageID = try readEnvelopeString()
        try skipToClosingParenthesis()
        leaveNesting()
        return envelope
    }

    /// An nstring field, or nil when the list has already ended.
    private mutating func readEnvelopeString() throws(IMAPParseError) -> String? {
        skipSpaces()
        guard peek() != Byte.closeParen else { return nil }
        return try readNString()
    }

    /// env-from = "(" 1*address ")" / nil  (also `()` and `""`)
    private mutating func readAddresses() throws(IMAPParseError) -> [IMAPAddress] {
        skipSpaces()
        guard peek() != Byte.closeParen else { return [] }
        return try readNilOrList { reader throws(IMAPParseError) in try reader.readAddress() }
    }

    /// address = "(" addr-name SP addr-adl SP addr-mailbox SP addr-host ")"
    private mutating func readAddress() throws(IMAPParseError) -> IMAPAddress {
        try expect(Byte.openParen, "( of an address")
        try enterNesting()
        var address = IMAPAddress()
        address.name = try readEnvelopeString()
        address.adl = try readEnvelopeString()
        address.mailbox = try readEnvelopeString()
        address.host = try readEnvelopeString()
        try skipToClosingParenthesis()
        leaveNesting()
        return address
    }

    /// Skips any values left before the `)` that closes the current list, and the `)`.
    mutating func skipToClosingParenthesis() throws(IMAPParseError) {
        skipSpaces()
        while !consume(Byte.closeParen) {
            try skipValue()
            skipSpaces()
        }
    }
}
