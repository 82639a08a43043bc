/// The MIME fields to add and the body bytes to send.
///
/// When the user wrote neither Content-Type nor Content-Transfer-Encoding the
/// body is ours to label: UTF-8 plain text, sent `7bit` or `8bit`, or
/// `quoted-printable` when a line is over 998 bytes (a long pasted paragraph
/// must not stop a message). When the user labelled the body, it is sent as
/// written: long lines are refused, and `8bit` is declared if it is missing.
struct OutgoingContent {
    var addedFields: [(name: String, value: String)] = []
    var body: [UInt8]

    init(fields: [OutgoingField], body: OutgoingBody) throws(OutgoingRejection) {
        let names = Set(fields.map(\.lowercasedName))
        let hasType = names.contains("content-type")
        let hasEncoding = names.contains("content-transfer-encoding")
        if !names.contains("mime-version") { addedFields.append(("MIME-Version", "1.0")) }
        if !hasType {
            if body.has8Bit, !body.isUTF8 { throw .bodyNotUTF8 }
            addedFields.append(("Content-Type", "text/plain; charset=utf-8"))
        }
        if !hasType, !hasEncoding, body.firstLongLine != nil {
            addedFields.append(("Content-Transfer-Encoding", "quoted-printable"))
            self.body = QuotedPrintableEncoder.encode(body.lines)
            return
        }
        if let line = body.firstLongLine { throw .bodyLineTooLong(line: line) }
        if !hasEncoding { addedFields.append(("Content-Transfer-Encoding", body.has8Bit ? "8bit" : "7bit")) }
        self.body = body.crlfBytes
    }
}
