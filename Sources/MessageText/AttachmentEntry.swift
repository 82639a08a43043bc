import MailCore

/// One attachment as a rendering lists it under its message's heading.
public struct AttachmentEntry: Sendable, Hashable {
    /// The file name (decoded, as the tree shows it).
    public var name: String
    /// Lower-case `type/subtype`.
    public var mimeType: String
    /// Decoded size in bytes.
    public var size: Int
    /// Where the tree serves it, relative to the account (`attachments/<message>/<name>`);
    /// nil outside a mount.
    public var path: String?

    public init(name: String, mimeType: String, size: Int, path: String? = nil) {
        self.name = name
        self.mimeType = mimeType
        self.size = size
        self.path = path
    }

    /// The attachments MailCore finds in a parsed message, without paths (`mailfs show`
    /// outside a mount). A part without a file name is named after its number.
    public static func listed(in parsed: ParsedMessage) -> [AttachmentEntry] {
        parsed.attachments.map { info in
            AttachmentEntry(name: info.filename ?? "part \(info.partID)", mimeType: info.mimeType, size: info.size)
        }
    }
}
