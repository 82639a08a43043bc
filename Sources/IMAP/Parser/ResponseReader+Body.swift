/// BODY / BODYSTRUCTURE, read liberally (the most common source of broken responses).
extension ResponseReader {
    /// body = "(" (body-type-1part / body-type-mpart) ")"
    mutating func readBody() throws(IMAPParseError) -> BodyStructure {
        try expect(Byte.openParen, "( of a body")
        try enterNesting()
        skipSpaces()
        let body: BodyStructure = peek() == Byte.openParen
            ? .multipart(try readMultipart())
            : try readSinglePart()
        leaveNesting()
        return body
    }

    /// body-type-mpart = 1*body SP media-subtype [SP body-ext-mpart]
    ///
    /// A child that does not parse is skipped to its closing parenthesis and kept as
    /// an unknown part (empty type and subtype), so its siblings keep their numbers.
    private mutating func readMultipart() throws(IMAPParseError) -> MultipartBody {
        var parts: [BodyStructure] = []
        while peek() == Byte.openParen {
            guard parts.count < limits.maxListItems else {
                throw IMAPParseError(.limitExceeded, "too many body parts", at: position)
            }
            parts.append(try readContainedPart())
            skipSpaces()
        }
        let subtype = peek() == Byte.closeParen ? nil : try readNString()
        return try readMultipartExtension(MultipartBody(parts: parts, subtype: subtype?.lowercased() ?? "mixed"))
    }

    private mutating func readContainedPart() throws(IMAPParseError) -> BodyStructure {
        let start = position
        let startDepth = depth
        do {
            return try readBody()
        } catch where error.kind != .limitExceeded {
            depth = startDepth
            guard skipBrokenList(from: start) else { throw error }
            return .single(SinglePart(type: "", subtype: ""))
        }
    }

    /// body-ext-mpart = body-fld-param [SP body-fld-dsp [SP body-fld-lang [SP body-fld-loc
    ///                  *(SP body-extension)]]]
    private mutating func readMultipartExtension(_ body: MultipartBody) throws(IMAPParseError) -> MultipartBody {
        var multipart = body
        let ext = try readBodyExtension(firstIsParameters: true)
        multipart.parameters = ext.parameters
        multipart.disposition = ext.disposition
        multipart.language = ext.language
        multipart.location = ext.location
        return multipart
    }

    /// body-type-1part = (body-type-basic / body-type-msg / body-type-text) [SP body-ext-1part]
    /// body-type-msg   = media-message SP body-fields SP envelope SP body SP body-fld-lines
    /// body-type-text  = media-text SP body-fields SP body-fld-lines
    ///
    /// Liberal: Gmail's `("ALTERNATIVE")` and `(NIL "alternative" …)` read as empty
    /// multiparts; a type without a subtype (`"X-ZIP"`) gets an empty subtype; NIL,
    /// negative or floating sizes are accepted.
    private mutating func readSinglePart() throws(IMAPParseError) -> BodyStructure {
        guard let type = try readNString()?.lowercased() else {
            skipSpaces()
            let subtype = peek() == Byte.closeParen ? nil : try readNString()
            return .multipart(try readMultipartExtension(MultipartBody(parts: [], subtype: subtype?.lowercased() ?? "mixed")))
        }
        skipSpaces()
        if consume(Byte.closeParen) {
            return .multipart(MultipartBody(parts: [], subtype: type))
        }
        let subtype = peek() == Byte.openParen ? "" : (try readNString())?.lowercased() ?? ""
        var part = try readBodyFields(type: type, subtype: subtype)
        skipSpaces()
        if type == "message", subtype == "rfc822" || subtype == "global", peek() == Byte.openParen {
            let envelope = try readEnvelope()
            skipSpaces()
            part.message = EmbeddedMessage(envelope: envelope, body: try readBody())
            part.lines = readOptionalNumber()
        } else if type == "text" {
            part.lines = readOptionalNumber()
        }
        let ext = try readBodyExtension(firstIsParameters: false)
        part.md5 = ext.md5
        part.disposition = ext.disposition
        part.language = ext.language
        part.location = ext.location
        return .single(part)
    }

    /// body-fields = body-fld-param SP body-fld-id SP body-fld-desc SP body-fld-enc SP body-fld-octets
    private mutating func readBodyFields(type: String, subtype: String) throws(IMAPParseError) -> SinglePart {
        skipSpaces()
        var part = SinglePart(type: type, subtype: subtype, parameters: try readBodyParameters())
        skipSpaces()
        part.id = try readNString()
        skipSpaces()
        part.description = try readNString()
        skipSpaces()
        part.encoding = try readNString()?.lowercased()
        skipSpaces()
        part.size = try readBodySize()
        return part
    }

    /// body-fld-octets = number (liberal: NIL, a quoted number, `-1` or mail.ru's
    /// `1.86931e+06`; what is not a count reads as 0).
    private mutating func readBodySize() throws(IMAPParseError) -> UInt64 {
        Self.count(from: try readNString() ?? "") ?? 0
    }

    /// body-fld-lines = number; absent, NIL or not a number reads as nil.
    private mutating func readOptionalNumber() -> UInt64? {
        skipSpaces()
        if consumeKeyword("NIL") { return nil }
        guard let byte = peek(), Byte.isDigit(byte) || byte == Byte.minus else { return nil }
        let start = position
        guard let text = try? readAtom(), let count = Self.count(from: text) else {
            position = start
            return nil
        }
        return count
    }

    private static func count(from text: String) -> UInt64? {
        if let value = UInt64(text) { return value }
        guard let value = Double(text), value.isFinite else { return nil }
        return UInt64(min(max(value, 0), 1e15))
    }

    /// body-fld-param = "(" string SP string *(SP string SP string) ")" / nil
    ///
    /// Names lower-cased; a NIL value reads as `""` (mail.ru's `("boundary" NIL)`).
    mutating func readBodyParameters() throws(IMAPParseError) -> [String: String] {
        let values = try readNilOrList { reader throws(IMAPParseError) in try reader.readNString() }
        var parameters: [String: String] = [:]
        var index = 0
        while index + 1 < values.count {
            if let name = values[index]?.lowercased(), parameters[name] == nil {
                parameters[name] = values[index + 1] ?? ""
            }
            index += 2
        }
        return parameters
    }
}
