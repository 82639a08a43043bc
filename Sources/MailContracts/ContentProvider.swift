import Store

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
