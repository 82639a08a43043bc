/// Why content that is not on disk could not be had.
public enum ContentUnavailable: Error, Equatable, Sendable, CustomStringConvertible {
    /// The server no longer has the message (deleted since the last sync): ENOENT.
    case gone
    /// The download failed after its retries, or the account cannot reach a server: EIO.
    case failed(String)

    public var description: String {
        switch self {
        case .gone: "the message was deleted on the server"
        case .failed(let reason): reason
        }
    }
}
