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

        func entity(header: HeaderBlock, range: Range<Int>, number: String, isMessageRoot: Bool,
                             defaultType: ContentType, depth: Int) -> MIMEPart {
            let declared = header.value("Content-Type").flatMap(ContentType.parse)
            let contentType = declared ?? defaultType
            let isMultipart = contentType.isMultipart
            let partID = isMessageRoot && !isMultipart ? Self.join(number, 1) : number
            var part = MIMEPart(
                partID: partID, headers: header.fields, contentType: contentType,
                disposition: header.value("Content-Disposition").map(ContentDisposition.parse),
                transferEncoding: TransferEncoding.name(header.value("Content-Transfer-Encoding")),
                contentID: header.value("Content-ID").flatMap(MessageIDList.first),
                headerRange: range.lowerBound..<header.bodyStart,
                bodyRange: header.bodyStart..<range.upperBound, children: [])
            guard depth < MIMETree.maxDepth else { return part }
            if isMultipart {
                part.children = children(of: part, depth: depth)
                if part.children.isEmpty {
                    // No usable boundary: show the body as text rather than lose it.
                    part.contentType = ContentType.defaultPlain
                    part.partID = isMessageRoot ? Self.join(number, 1) : number
                }
            } else if contentType.isEncapsulatedMessage, TransferEncoding.isIdentity(part.transferEncoding) {
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
