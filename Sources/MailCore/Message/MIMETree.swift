/// Builds the `MIMEPart` tree of a message, numbering parts the IMAP way
/// (RFC 3501 §6.4.5): a single-part message's body is "1"; children of a
/// multipart are "1", "2", nested ones "2.1"; the parts of a message/rfc822
/// at "3" are numbered under it ("3.1", ...). Nesting deeper than `maxDepth`
/// is left unparsed (a leaf), so hostile nesting costs bounded work.
enum MIMETree {
    static let maxDepth = 32

    /// The root entity of `raw`, whose header was already parsed.
    static func parse(_ raw: [UInt8], header: HeaderBlock) -> MIMEPart {
        let builder = Builder(raw: raw)
        return builder.entity(header: header, range: raw.startIndex..<raw.endIndex, number: "",
                              isMessageRoot: true, defaultType: .defaultPlain, depth: 0)
    }

    private struct Builder {
        let raw: [UInt8]

        /// RFC 2045 §5.2: a syntactically invalid type (no subtype: `application-x-gzip`)
        /// means the default; but a part that names a file is an attachment whatever its type
        /// says, so it becomes application/octet-stream and keeps its parameters (the name).
        static func effectiveType(_ declared: ContentType?, dispositionFilename: String?,
                                  default defaultType: ContentType) -> ContentType {
            guard let declared else { return defaultType }
            if !declared.subtype.isEmpty { return declared }
            guard declared.parameters["name"] != nil || dispositionFilename != nil else { return defaultType }
            return ContentType(type: "application", subtype: "octet-stream", parameters: declared.parameters)
        }

        func entity(header: HeaderBlock, range: Range<Int>, number: String, isMessageRoot: Bool,
                    defaultType: ContentType, depth: Int) -> MIMEPart {
            let disposition = header.value("content-disposition").map(ContentDisposition.parse)
            let contentType = Self.effectiveType(header.value("content-type").flatMap(ContentType.parse),
                                                 dispositionFilename: disposition?.filename, default: defaultType)
            let ownNumber = isMessageRoot ? Self.join(number, 1) : number
            var part = MIMEPart(
                partID: contentType.isMultipart ? number : ownNumber, headers: header.fields,
                contentType: contentType,
                disposition: disposition,
                transferEncoding: TransferEncoding.name(header.value("content-transfer-encoding")),
                contentID: header.value("content-id").flatMap(MessageIDList.first),
                headerRange: range.lowerBound..<header.bodyStart,
                bodyRange: header.bodyStart..<range.upperBound, children: [])
            guard depth < MIMETree.maxDepth else { return part }
            let isIdentity = TransferEncoding.isIdentity(part.transferEncoding)
            if contentType.isMultipart {
                if isIdentity { part.children = children(of: part, depth: depth) }
                if part.children.isEmpty {
                    // RFC 2045 §6.4 forbids encoding a multipart: keep such a body as
                    // opaque bytes. Without a usable boundary, show the body as text
                    // rather than lose it.
                    part.contentType = isIdentity ? .defaultPlain : ContentType(type: "application", subtype: "octet-stream")
                    part.partID = ownNumber
                }
            } else if contentType.isEncapsulatedMessage, isIdentity {
                let inner = HeaderBlock.parse(raw[part.bodyRange])
                part.children = [entity(header: inner, range: part.bodyRange, number: part.partID,
                                        isMessageRoot: true, defaultType: .defaultPlain, depth: depth + 1)]
            }
            return part
        }

        private func children(of part: MIMEPart, depth: Int) -> [MIMEPart] {
            guard let boundary = part.contentType.boundary, !boundary.isEmpty else { return [] }
            let childDefault = part.contentType.subtype == "digest" ? ContentType.defaultDigestChild : .defaultPlain
            let ranges = MultipartSplitter.parts(of: raw[part.bodyRange], boundary: boundary)
            return ranges.enumerated().map { offset, range in
                entity(header: HeaderBlock.parse(raw[range]), range: range, number: Self.join(part.partID, offset + 1),
                       isMessageRoot: false, defaultType: childDefault, depth: depth + 1)
            }
        }

        private static func join(_ prefix: String, _ index: Int) -> String {
            prefix.isEmpty ? String(index) : "\(prefix).\(index)"
        }
    }
}
