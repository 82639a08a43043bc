import Foundation

/// The header section as transmitted: From, Date and Message-ID we add in
/// front, the user's fields in their order (Bcc removed), the MIME fields we
/// add at the end. A Date or Message-ID the user wrote is kept when it can be
/// read, else replaced.
struct OutgoingHeaderAssembly {
    var bytes: [UInt8] = []
    /// The Message-ID sent, without angle brackets.
    var messageId = ""

    init(fields: [OutgoingField], content: OutgoingContent, policy: OutgoingPolicy, now: Date,
         uniqueToken: String) throws(OutgoingRejection) {
        let userDate = fields.first { $0.lowercasedName == "date" && DateParser.parse($0.text) != nil }
        let userID = fields.first { $0.lowercasedName == "message-id" }.flatMap { MessageIDList.first($0.text) }
        if !fields.contains(where: { $0.lowercasedName == "from" }) {
            bytes += try OutgoingFieldWriter.folded(name: "From", value: try Self.accountFrom(policy))
        }
        if userDate == nil {
            bytes += try OutgoingFieldWriter.folded(name: "Date", value: RFC5322Date.string(from: now))
        }
        messageId = userID ?? Self.newMessageID(token: uniqueToken, policy: policy, now: now)
        if userID == nil {
            bytes += try OutgoingFieldWriter.folded(name: "Message-ID", value: "<\(messageId)>")
        }
        for field in fields where Self.isSent(field, keepingDate: userDate != nil, keepingID: userID != nil) {
            bytes += try OutgoingFieldWriter.userField(field)
        }
        for (name, value) in content.addedFields {
            bytes += try OutgoingFieldWriter.folded(name: name, value: value)
        }
    }

    private static func isSent(_ field: OutgoingField, keepingDate: Bool, keepingID: Bool) -> Bool {
        switch field.lowercasedName {
        case "bcc": false
        case "date": keepingDate
        case "message-id": keepingID
        default: true
        }
    }

    /// `Display Name <account@example.org>`, or the bare address.
    private static func accountFrom(_ policy: OutgoingPolicy) throws(OutgoingRejection) -> String {
        let address = policy.accountAddress
        guard OutgoingAddresses.isValid(address) else { throw .invalidAddress(field: "From", address: address) }
        let name = policy.displayName.map(OutgoingFieldWriter.phrase) ?? ""
        return name.isEmpty ? address : "\(name) <\(address)>"
    }

    /// `token@domain`, from the caller's unique token reduced to what a
    /// Message-ID may hold (the time when nothing is left).
    private static func newMessageID(token: String, policy: OutgoingPolicy, now: Date) -> String {
        let left = String(MessageIDToken.sanitized(token).prefix(200))
        let unique = left.isEmpty ? "mailfs.\(Int64(now.timeIntervalSince1970 * 1000))" : left
        return "\(unique)@\(policy.messageIdDomain)"
    }
}
