/// The envelope of an outgoing message, read from its header with
/// `AddressParser`, and the check of its From.
enum OutgoingAddresses {
    /// To, Cc and Bcc addresses in that order, each once (compared without
    /// case); refused when one is not an address or when there is none.
    static func recipients(_ fields: [OutgoingField]) throws(OutgoingRejection) -> [String] {
        var recipients: [String] = []
        var seen: Set<String> = []
        for name in ["to", "cc", "bcc"] {
            for field in fields where field.lowercasedName == name {
                for address in AddressParser.parseList(field.text).map(\.address) {
                    guard isValid(address) else { throw .invalidAddress(field: field.name, address: address) }
                    if seen.insert(address.lowercased()).inserted { recipients.append(address) }
                }
            }
        }
        if recipients.isEmpty { throw .noRecipient }
        return recipients
    }

    /// A From the user wrote must name one mailbox, the account's or an alias.
    static func checkFrom(_ field: OutgoingField, policy: OutgoingPolicy) throws(OutgoingRejection) {
        let addresses = AddressParser.parseList(field.text)
        guard addresses.count == 1, let address = addresses.first?.address else {
            throw .fromNotSingleAddress(count: addresses.count)
        }
        if !policy.mayAppearInFrom(address) { throw .foreignFrom(address: address) }
    }

    /// Fields that also say who sent the message (RFC 5322 §3.6.2, §3.6.6): a file must
    /// not pass as someone else's through them either.
    static let otherOriginators: Set<String> = ["sender", "resent-from", "resent-sender"]

    /// Every address of such a field must be the account's or an alias.
    static func checkOriginator(_ field: OutgoingField, policy: OutgoingPolicy) throws(OutgoingRejection) {
        for address in AddressParser.parseList(field.text).map(\.address) where !policy.mayAppearInFrom(address) {
            throw .foreignOriginator(field: field.name, address: address)
        }
    }

    /// True for `local@domain` fit for an SMTP envelope (RFC 5321 §4.1.2):
    /// no control characters or angle brackets, a non-empty local part that
    /// is a quoted string or has no blanks or specials, and a host name or a
    /// domain literal. Non-ASCII is allowed (RFC 6531).
    static func isValid(_ address: String) -> Bool {
        let bytes = Array(address.utf8)
        let breaksEnvelope = { (byte: UInt8) in
            byte < ASCII.space || byte == 0x7F || byte == ASCII.lessThan || byte == ASCII.greaterThan
        }
        guard !bytes.contains(where: breaksEnvelope), let at = bytes.lastIndex(of: ASCII.at),
              at > 0, at < bytes.count - 1 else { return false }
        return isValidLocalPart(bytes[..<at]) && isValidDomain(bytes[(at + 1)...])
    }

    private static func isValidLocalPart(_ local: ArraySlice<UInt8>) -> Bool {
        if local.count >= 2, local.first == ASCII.quote, local.last == ASCII.quote { return true }
        return !local.contains { unquotedSpecials.contains($0) }
    }

    private static let unquotedSpecials: Set<UInt8> = Set(" \t\"(),:;@[\\]".utf8)

    private static func isValidDomain(_ domain: ArraySlice<UInt8>) -> Bool {
        if domain.first == UInt8(ascii: "["), domain.last == UInt8(ascii: "]") {
            return !domain.contains(ASCII.space)
        }
        let labels = domain.split(separator: ASCII.dot, omittingEmptySubsequences: false)
        let isLabelByte = { (byte: UInt8) in
            ASCII.isLetter(byte) || ASCII.isDigit(byte) || byte == ASCII.minus || byte >= 0x80
        }
        return labels.allSatisfy { !$0.isEmpty && $0.allSatisfy(isLabelByte) }
    }
}
