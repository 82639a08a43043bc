import GRDB

/// What an attachments/<message>/ listing shows of one attachment, decoded by position
/// (as `MessageEntry`): a walk over attachments/ decodes every attachment of the account,
/// and `AttachmentRecord`'s keyed `Decodable` decoding was a fifth of what rebuilding
/// those listings after a store change cost.
public struct AttachmentEntry: Sendable, Equatable {
    public var id: Int64
    public var emailId: Int64
    public var fileName: String
    /// An estimate until `sizeIsExact` in the store (see `AttachmentRecord`).
    public var sizeBytes: Int64

    static let columns = "id, emailId, fileName, sizeBytes"

    init(row: Row) {
        id = row[0]
        emailId = row[1]
        fileName = row[2]
        sizeBytes = row[3]
    }
}
