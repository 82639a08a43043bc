/// The optional extension data that ends a body: MD5 or parameters, disposition,
/// language, location, then anything. Read field by field; a field that does not
/// parse is skipped whole (O365's stray NIL, odd dispositions) so the body survives.
struct BodyExtension {
    var md5: String?
    var parameters: [String: String] = [:]
    var disposition: BodyDisposition?
    var language: [String] = []
    var location: String?
}

extension ResponseReader {
    /// body-ext-1part = body-fld-md5 [SP body-fld-dsp [SP body-fld-lang [SP body-fld-loc …]]]
    /// body-ext-mpart = body-fld-param [SP body-fld-dsp [SP body-fld-lang [SP body-fld-loc …]]]
    ///
    /// Consumes through the `)` that closes the body.
    mutating func readBodyExtension(firstIsParameters: Bool) throws(IMAPParseError) -> BodyExtension {
        var ext = BodyExtension()
        var field = 0
        while true {
            skipSpaces()
            if consume(Byte.closeParen) { return ext }
            if isAtEnd { throw error("body not closed") }
            let fieldStart = position
            let fieldDepth = depth
            do {
                try readExtensionField(field, firstIsParameters: firstIsParameters, into: &ext)
            } catch {
                position = fieldStart
                depth = fieldDepth
                try skipValue()
            }
            field += 1
        }
    }

    private mutating func readExtensionField(
        _ field: Int, firstIsParameters: Bool, into ext: inout BodyExtension
    ) throws(IMAPParseError) {
        switch field {
        case 0 where firstIsParameters: ext.parameters = try readBodyParameters()
        case 0: ext.md5 = try readNString()
        case 1: ext.disposition = try readDisposition()
        case 2: ext.language = try readLanguage()
        case 3: ext.location = try readNString()
        default: try skipValue()
        }
    }

    /// body-fld-dsp = "(" string SP body-fld-param ")" / nil  (liberal: a bare string)
    private mutating func readDisposition() throws(IMAPParseError) -> BodyDisposition? {
        if peek() != Byte.openParen {
            return try readNString().map { BodyDisposition(type: $0.lowercased()) }
        }
        try expect(Byte.openParen, "(")
        try enterNesting()
        skipSpaces()
        guard let type = try readNString() else {
            try skipToClosingParenthesis()
            leaveNesting()
            return nil
        }
        skipSpaces()
        let parameters = peek() == Byte.closeParen ? [:] : try readBodyParameters()
        try skipToClosingParenthesis()
        leaveNesting()
        return BodyDisposition(type: type.lowercased(), parameters: parameters)
    }

    /// body-fld-lang = nstring / "(" string *(SP string) ")"
    private mutating func readLanguage() throws(IMAPParseError) -> [String] {
        if peek() == Byte.openParen {
            return try readList { reader throws(IMAPParseError) in try reader.readNString() }.compactMap { $0 }
        }
        return try readNString().map { [$0] } ?? []
    }
}
