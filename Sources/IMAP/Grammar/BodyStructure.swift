/// The MIME structure of a message as the server describes it (BODYSTRUCTURE, RFC 3501
/// §7.4.2), used to pick text parts and list attachments without downloading them.
///
///     ("TEXT" "PLAIN" ("CHARSET" "utf-8") NIL NIL "7BIT" 1152 23)           -> .single
///     (("TEXT" "PLAIN" …)("APPLICATION" "PDF" …) "MIXED" ("BOUNDARY" "x"))  -> .multipart
///
/// Types, subtypes, encodings, disposition types and parameter names are lower-cased;
/// parameter values are as sent.
public indirect enum BodyStructure: Sendable, Equatable {
    case single(SinglePart)
    case multipart(MultipartBody)
}

/// A leaf part (`text/plain`, `application/pdf`, …) or an embedded `message/rfc822`.
public struct SinglePart: Sendable, Equatable {
    public var type: String
    public var subtype: String
    /// Content-Type parameters, names lower-cased (`charset`, `name`); first one wins.
    public var parameters: [String: String]
    public var id: String?
    public var description: String?
    /// Content-Transfer-Encoding lower-cased (`base64`); nil when the server sent NIL.
    public var encoding: String?
    /// Size in octets of the encoded body.
    public var size: UInt64
    /// Line count, sent for `text/*` and `message/rfc822`.
    public var lines: UInt64?
    /// The envelope and structure of an embedded `message/rfc822` (or `message/global`).
    public var message: EmbeddedMessage?
    public var md5: String?
    public var disposition: BodyDisposition?
    public var language: [String]
    public var location: String?

    public init(
        type: String, subtype: String, parameters: [String: String] = [:], id: String? = nil,
        description: String? = nil, encoding: String? = nil, size: UInt64 = 0,
        lines: UInt64? = nil, message: EmbeddedMessage? = nil, md5: String? = nil,
        disposition: BodyDisposition? = nil, language: [String] = [], location: String? = nil
    ) {
        self.type = type
        self.subtype = subtype
        self.parameters = parameters
        self.id = id
        self.description = description
        self.encoding = encoding
        self.size = size
        self.lines = lines
        self.message = message
        self.md5 = md5
        self.disposition = disposition
        self.language = language
        self.location = location
    }

    /// `type/subtype`, e.g. `text/plain`.
    public var mimeType: String { "\(type)/\(subtype)" }
}

/// The message inside a `message/rfc822` part.
public struct EmbeddedMessage: Sendable, Equatable {
    public var envelope: Envelope
    public var body: BodyStructure

    public init(envelope: Envelope, body: BodyStructure) {
        self.envelope = envelope
        self.body = body
    }
}

/// A `multipart/*` body: its parts in order and its extension data.
public struct MultipartBody: Sendable, Equatable {
    public var parts: [BodyStructure]
    /// Lower-cased: `mixed`, `alternative`, `related`.
    public var subtype: String
    public var parameters: [String: String]
    public var disposition: BodyDisposition?
    public var language: [String]
    public var location: String?

    public init(
        parts: [BodyStructure], subtype: String, parameters: [String: String] = [:],
        disposition: BodyDisposition? = nil, language: [String] = [], location: String? = nil
    ) {
        self.parts = parts
        self.subtype = subtype
        self.parameters = parameters
        self.disposition = disposition
        self.language = language
        self.location = location
    }
}

/// Content-Disposition: `("attachment" ("filename" "a.pdf"))`.
public struct BodyDisposition: Sendable, Equatable {
    /// Lower-cased: `attachment`, `inline`.
    public var type: String
    /// Parameter names lower-cased.
    public var parameters: [String: String]

    public init(type: String, parameters: [String: String] = [:]) {
        self.type = type
        self.parameters = parameters
    }
}
