/// A parsed Content-Type (RFC 2045 §5): lower-cased type and subtype and the
/// decoded parameters (RFC 2231, RFC 2047 in names), names lower-cased.
public struct ContentType: Sendable, Hashable {
    public var type: String
    public var subtype: String
    public var parameters: [String: String]

    public init(type: String, subtype: String, parameters: [String: String] = [:]) {
        self.type = type
        self.subtype = subtype
        self.parameters = parameters
    }

    /// RFC 2045 §5.2: what a part without (or with an unusable) Content-Type is.
    public static let defaultPlain = ContentType(type: "text", subtype: "plain", parameters: ["charset": "us-ascii"])
    /// RFC 2046 §5.1.5: the default of a multipart/digest child.
    public static let defaultDigestChild = ContentType(type: "message", subtype: "rfc822")

    /// Parses a Content-Type value; nil when it names no type (`/plain`, `;x=y`, "").
    public static func parse(_ raw: String) -> ContentType? {
        let value = MIMEHeaderValue.parse(raw)
        guard !value.type.isEmpty else { return nil }
        return ContentType(type: value.type, subtype: value.subtype ?? "", parameters: value.parameters)
    }

    /// `type/subtype`.
    public var mimeType: String { "\(type)/\(subtype)" }

    public var charset: String? { parameters["charset"] }

    public var boundary: String? { parameters["boundary"] }

    public var isMultipart: Bool { type == "multipart" }

    /// A text type that renders the message text itself (plain, HTML, and the
    /// old enriched/richtext formats), as opposed to data sent as text.
    public var isBodyText: Bool {
        type == "text" && ["plain", "html", "enriched", "richtext"].contains(subtype)
    }

    /// message/rfc822 and message/global (RFC 6532): a whole message inside a part.
    public var isEncapsulatedMessage: Bool {
        type == "message" && (subtype == "rfc822" || subtype == "global")
    }
}

/// A parsed Content-Disposition (RFC 2183).
public struct ContentDisposition: Sendable, Hashable {
    /// Lower-cased: "inline", "attachment", or whatever the mailer wrote.
    public var kind: String
    public var parameters: [String: String]

    public init(kind: String, parameters: [String: String] = [:]) {
        self.kind = kind
        self.parameters = parameters
    }

    public static func parse(_ raw: String) -> ContentDisposition {
        let value = MIMEHeaderValue.parse(raw)
        return ContentDisposition(kind: value.type, parameters: value.parameters)
    }

    public var isAttachment: Bool { kind == "attachment" }

    public var isInline: Bool { kind == "inline" }

    public var filename: String? { parameters["filename"] }
}
