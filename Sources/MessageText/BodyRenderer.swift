import MailCore

/// The text of one message from its raw bytes: which parts a reader reads, decoded and
/// laid out, then the links of its HTML and how many tracking images were removed.
///
/// multipart/alternative shows its text/plain (the HTML when the plain part is blank or
/// missing); multipart/related its root part; other multiparts each of their parts in
/// order. Attachments are not text (the heading lists them). An attached message
/// (message/rfc822) is rendered with its own heading, indented, to `maxNestingDepth`.
/// Signed and encrypted parts say what they are: mailfs neither verifies nor decrypts.
struct BodyRenderer {
    static let maxNestingDepth = 8
    /// The most text one message renders; later parts are left out, with a line saying so.
    static let maxTextBytes = MessageParser.maxBodyBytes
    static let nestedIndent = "    "

    private let raw: [UInt8]
    private let depth: Int
    private var sections: [String] = []
    private var textBytes = 0
    private var isCut = false
    private var links = LinkList()
    private var trackingImagesRemoved = 0

    private init(raw: [UInt8], depth: Int) {
        self.raw = raw
        self.depth = depth
    }

    /// The body text of a whole message (`raw`), nested messages included.
    static func text(ofMessage raw: [UInt8], depth: Int = 0) -> String {
        var renderer = BodyRenderer(raw: raw, depth: depth)
        renderer.render(MessageParser.structure(raw))
        return renderer.finished()
    }

    /// The body text of the decoded bodies a store keeps.
    static func text(plain: String?, html: String?) -> String {
        var renderer = BodyRenderer(raw: [], depth: 0)
        if let plain, !isBlank(plain) {
            renderer.add(ReadableText.cleaned(plain))
        } else if let html {
            renderer.addHTML(html)
        }
        return renderer.finished()
    }

    private mutating func render(_ part: MIMEPart) {
        guard !isCut else { return }
        let type = part.contentType
        if type.isMultipart {
            renderMultipart(part)
        } else if type.isEncapsulatedMessage {
            renderAttachedMessage(part)
        } else if let note = SecureContent.note(for: type) {
            add(note)
        } else if !part.isAttachment {
            renderText(part)
        }
    }

    private mutating func renderMultipart(_ part: MIMEPart) {
        let children = part.children
        switch part.contentType.subtype {
        case "alternative":
            renderAlternative(children)
        case "related":
            let start = part.contentType.parameters["start"].flatMap(MessageIDList.first)
            if let root = children.first(where: { start != nil && $0.contentID == start }) ?? children.first {
                render(root)
            }
        case "signed":
            if let signed = children.first { render(signed) }
            add(SecureContent.signedNote(protocol: part.contentType.parameters["protocol"]))
        case "encrypted":
            add(SecureContent.encryptedNote(protocol: part.contentType.parameters["protocol"]))
        default:
            for child in children { render(child) }
        }
    }

    /// The plain part when it says something, else the richest part shown as text (the
    /// last, by RFC 2046 §5.1.4's order).
    private mutating func renderAlternative(_ children: [MIMEPart]) {
        if let plain = children.first(where: { $0.contentType.mimeType == "text/plain" && !$0.isAttachment }) {
            let text = decoded(plain)
            if !Self.isBlank(text) { return renderText(plain, decoded: text) }
        }
        if let richest = children.last(where: { !$0.isAttachment || $0.contentType.isMultipart }) ?? children.last {
            render(richest)
        }
    }

    private mutating func renderText(_ part: MIMEPart, decoded text: String? = nil) {
        let text = text ?? decoded(part)
        if part.contentType.subtype == "html" {
            addHTML(text)
        } else if part.contentType.parameters["format"]?.lowercased() == "flowed" {
            let deleteSpace = part.contentType.parameters["delsp"]?.lowercased() == "yes"
            add(ReadableText.cleaned(FlowedText.joined(text, deleteSpace: deleteSpace)))
        } else {
            add(ReadableText.cleaned(text))
        }
    }

    private func decoded(_ part: MIMEPart) -> String {
        var truncated = false
        return MessageParser.bodyText(part, raw: raw, truncated: &truncated)
    }

    private mutating func addHTML(_ html: String) {
        let rendered = HTMLRenderer.render(html, links: &links)
        trackingImagesRemoved += rendered.trackingImagesRemoved
        add(ReadableText.cleaned(rendered.text))
    }

    /// An attached message: parsed in place when its part is not transfer-encoded (MIMETree
    /// did it), else decoded and parsed on its own.
    private mutating func renderAttachedMessage(_ part: MIMEPart) {
        guard depth < Self.maxNestingDepth else {
            return add("[attached message nested too deep: read it from the .eml]")
        }
        let heading: MessageHeading
        let body: String
        if let inner = part.children.first {
            heading = Self.heading(ofHeader: Array(raw[inner.headerRange]))
            var nested = BodyRenderer(raw: raw, depth: depth + 1)
            nested.render(inner)
            body = nested.finished()
        } else {
            let bytes = MessageParser.decodeTransferEncoding(Array(raw[part.bodyRange]), encoding: part.transferEncoding)
            heading = Self.heading(ofHeader: Array(bytes[..<MessageParser.headerBlockEnd(bytes)]))
            body = Self.text(ofMessage: bytes, depth: depth + 1)
        }
        add(Self.indented("---------- Attached message ----------\n" + HeadingLines.attachedMessage(heading) + "\n" + body))
    }

    private static func heading(ofHeader bytes: [UInt8]) -> MessageHeading {
        MessageHeading(parsed: MessageParser.parse(bytes))
    }

    private mutating func add(_ text: String) {
        let trimmed = Self.trimmingBlankLines(text)
        guard !trimmed.isEmpty else { return }
        guard textBytes + trimmed.utf8.count <= Self.maxTextBytes || sections.isEmpty else {
            isCut = true
            return
        }
        textBytes += trimmed.utf8.count
        sections.append(trimmed)
    }

    /// The sections, then the link list and the tracking count, each block separated by a
    /// blank line; every line ends with a line feed.
    private func finished() -> String {
        var blocks = sections
        if blocks.isEmpty { blocks.append("(no text)") }
        if isCut { blocks.append("[mailfs: the rest of this message's text is cut at 10 MB]") }
        if !links.urls.isEmpty { blocks.append("Links:\n" + links.lines.joined(separator: "\n")) }
        if trackingImagesRemoved > 0 {
            let noun = trackingImagesRemoved == 1 ? "image" : "images"
            blocks.append("[\(trackingImagesRemoved) tracking \(noun) removed]")
        }
        return blocks.map { $0 + "\n" }.joined(separator: "\n")
    }

    static func indented(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.isEmpty ? "" : nestedIndent + line
        }.joined(separator: "\n")
    }

    /// Without leading blank lines, nor trailing blanks and blank lines.
    static func trimmingBlankLines(_ text: String) -> String {
        let bytes = text.utf8
        var start = bytes.startIndex
        var index = bytes.startIndex
        while index < bytes.endIndex, isBlankByte(bytes[index]) {
            if bytes[index] == 0x0A { start = bytes.index(after: index) }
            index = bytes.index(after: index)
        }
        guard index < bytes.endIndex else { return "" }
        var end = bytes.endIndex
        while end > start, isBlankByte(bytes[bytes.index(before: end)]) { end = bytes.index(before: end) }
        return start == bytes.startIndex && end == bytes.endIndex ? text : String(text[start..<end])
    }

    private static func isBlankByte(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    static func isBlank<Text: StringProtocol>(_ text: Text) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isWhitespace }
    }
}
