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

/// Content that was not on disk when a reader asked for it.
public enum ContentDelivery: Sendable {
    /// On disk now (another reader's download finished just before).
    case cached(CachedFile)
    /// Arriving: the server has begun sending it; read it as it grows.
    case streaming(ContentStream)
}

/// Downloads content the store does not hold (the sync engine implements it), so the
/// mount can serve a first read. Concurrent calls for the same key share one download.
public protocol ContentProvider: Sendable {
    /// Starts the download of `key`, or joins the one running, and returns as soon as the
    /// server has begun sending it: a message deleted on the server is `.gone` here, at
    /// open, but nobody waits for the whole content.
    func content(_ key: ContentKey) async throws(ContentUnavailable) -> ContentDelivery
}
