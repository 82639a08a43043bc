/// Rules on the user's header fields as a whole, checked before anything is written.
enum OutgoingFieldRules {
    /// Fields a message holds at most once (RFC 5322 §3.6, and the MIME
    /// fields, whose duplicates different readers resolve differently).
    /// Bcc may repeat: it is removed before sending.
    static let singleFields: Set<String> = [
        "from", "sender", "reply-to", "to", "cc", "subject", "date", "message-id", "in-reply-to", "references",
        "mime-version", "content-type", "content-transfer-encoding",
    ]

    static func check(_ fields: [OutgoingField], policy: OutgoingPolicy) throws(OutgoingRejection) {
        var seen: Set<String> = []
        for field in fields {
            if singleFields.contains(field.lowercasedName), !seen.insert(field.lowercasedName).inserted {
                throw .duplicateHeader(field: field.name)
            }
            if hidesLineBreak(field.text) { throw .headerInjection(field: field.name) }
            if field.lowercasedName == "from" { try OutgoingAddresses.checkFrom(field, policy: policy) }
            if OutgoingAddresses.otherOriginators.contains(field.lowercasedName) {
                try OutgoingAddresses.checkOriginator(field, policy: policy)
            }
        }
    }

    /// True when decoding the value's encoded words gives a CR, LF or NUL:
    /// `=?utf-8?q?x=0D=0ABcc:_evil?=` would become a header line in any
    /// program that decodes and writes the header again. Refused, not mended:
    /// no honest mailer writes this.
    static func hidesLineBreak(_ text: String) -> Bool {
        guard EncodedWord.mayContainWord(text) else { return false }
        return EncodedWord.decode(text).utf8.contains { $0 == ASCII.cr || $0 == ASCII.lf || $0 == ASCII.nul }
    }
}
