import Foundation

/// Turns a file dropped into `outbox/` into a message ready for SMTP, or says
/// why it cannot be sent (docs/REQUIREMENTS.md §C3). Pure: no I/O, the clock and the
/// Message-ID token come from the caller, so the same input gives the same bytes.
///
///     To: Bob <bob@example.org>          From: alice@example.org
///     Subject: Lunch?               ->   Date: Tue, 1 Jul 2025 10:52:37 +0000
///                                        Message-ID: <token@example.org>
///     Noon at the usual place?           To: Bob <bob@example.org>
///                                        Subject: Lunch?
///                                        MIME-Version: 1.0
///                                        Content-Type: text/plain; charset=utf-8
///                                        Content-Transfer-Encoding: 7bit
public enum OutgoingPreparer {
    public static func prepare(_ raw: [UInt8], policy: OutgoingPolicy, now: Date,
                               uniqueToken: String) -> Result<PreparedOutgoing, OutgoingRejection> {
        do {
            return .success(try prepared(raw, policy: policy, now: now, uniqueToken: uniqueToken))
        } catch {
            return .failure(error)
        }
    }

    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    private static func prepared(_ raw: [UInt8], policy: OutgoingPolicy, now: Date,
                                 uniqueToken: String) throws(OutgoingRejection) -> PreparedOutgoing {
        let input = raw.starts(with: byteOrderMark) ? raw.dropFirst(byteOrderMark.count) : raw[...]
        if input.allSatisfy(ASCII.isWhitespace) { throw .emptyFile }
        if input.contains(ASCII.nul) { throw .binaryContent }
        let section = try OutgoingHeaderSection.parse(input)
        // The body only grows (LF becomes CR LF): a body over the limit is refused before any work on it.
        if let limit = policy.maxSize, input.endIndex - section.bodyStart > limit {
            throw .tooLarge(size: input.count, limit: limit)
        }
        let body = try OutgoingBody.parse(input[section.bodyStart...], firstLine: section.bodyFirstLine)
        try OutgoingFieldRules.check(section.fields, policy: policy)
        let recipients = try OutgoingAddresses.recipients(section.fields)
        let content = try OutgoingContent(fields: section.fields, body: body)
        let header = try OutgoingHeaderAssembly(fields: section.fields, content: content, policy: policy, now: now,
                                                uniqueToken: uniqueToken)
        let data = header.bytes + HeaderFolder.crlf + content.body
        if let limit = policy.maxSize, data.count > limit { throw .tooLarge(size: data.count, limit: limit) }
        let subject = section.fields.first { $0.lowercasedName == "subject" }.map { HeaderText.unstructured($0.text) }
        let hasUTF8Address = header.bytes.contains { $0 >= 0x80 }
            || recipients.contains { $0.utf8.contains { $0 >= 0x80 } }
        return PreparedOutgoing(
            data: data, envelopeFrom: policy.accountAddress, recipients: recipients, messageId: header.messageId,
            subject: subject ?? "", needs8BitMIME: content.body.contains { $0 >= 0x80 }, needsSMTPUTF8: hasUTF8Address)
    }
}
