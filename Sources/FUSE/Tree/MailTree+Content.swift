import Foundation
import Store
import Synchronization

/// Message and attachment files: served from the store when it holds the raw message,
/// else from the content cache, else downloaded now (at open, so a message deleted on the
/// server is ENOENT at open, where `cat` reports it).
extension MailTree {
    /// Where the bytes of a message or attachment file come from.
    enum ContentSource: Sendable {
        /// Raw message in the store: read (and decoded for an attachment) at first read.
        case store
        /// Content fetched from the server into the cache, with the size `st_size` shows;
        /// `sizeIsExact` is false while an attachment's size is BODYSTRUCTURE's estimate.
        case server(ContentKey, size: Int64, sizeIsExact: Bool)
    }

    func openContent(_ node: Node) throws(FSError) -> OpenedFile {
        guard case .server(let key, let size, let sizeIsExact) = try knownContentSource(node) else {
            // Content under an inode never changes: the page cache may keep it.
            return OpenedFile(handle: files.open(.stored(node)), keepCache: true, directIO: false,
                              flushes: false)
        }
        if let cached = try storeCall({ try store.cachedContent(key) }), let file = OpenFile.disk(cached) {
            return OpenedFile(handle: files.open(file), keepCache: true, directIO: false, flushes: false)
        }
        let downloaded = try download(key)
        guard let file = OpenFile.disk(downloaded) else { throw FSError(EIO) }
        // What was remembered may be an estimate; the download knows the size.
        contentSources.remember(.server(key, size: downloaded.size, sizeIsExact: true), for: node.inode)
        let sizeChanged = downloaded.size != size
        if sizeChanged { invalidator.withLock { $0 }?.invalidateInode(node.inode) }
        // A size that was an estimate: direct I/O, so readers get every byte whatever
        // st_size they saw; later opens use the page cache with the exact size.
        return OpenedFile(handle: files.open(file), keepCache: false, directIO: !sizeIsExact || sizeChanged,
                          flushes: false)
    }

    /// The remembered source, else the store's answer (then remembered).
    private func knownContentSource(_ node: Node) throws(FSError) -> ContentSource {
        if let known = contentSources.source(node.inode) { return known }
        let source = try storeCall { try self.contentSource(node) }
        contentSources.remember(source, for: node.inode)
        return source
    }

    func contentSource(_ node: Node) throws -> ContentSource {
        switch node {
        case .message(let id):
            guard let source = try store.messageSource(emailId: id) else { throw FSError(ENOENT) }
            if source.isStored { return .store }
            return .server(.message(id), size: source.sizeBytes, sizeIsExact: true)
        case .attachmentFile(let id):
            guard let attachment = try store.attachment(id: id) else { throw FSError(ENOENT) }
            if try store.hasRawMessage(emailId: attachment.emailId) { return .store }
            return .server(ContentKey(emailId: attachment.emailId, partId: attachment.partId),
                           size: attachment.sizeBytes, sizeIsExact: attachment.sizeIsExact)
        default:
            throw FSError(EINVAL)
        }
    }

    /// Waits for the download on this FUSE worker thread (libfuse runs others meanwhile).
    /// ENOENT when the server no longer has the message, EIO for anything else; the
    /// account's `.log` and `.status` say why.
    private func download(_ key: ContentKey) throws(FSError) -> CachedFile {
        guard let provider = contentProvider.withLock({ $0 }) else {
            logger.error("\(key) is not in the store and no server is configured")
            throw FSError(EIO)
        }
        let outcome = Mutex<Result<CachedFile, ContentUnavailable>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(ContentUnavailable) {
                let file = try await provider.content(key)
                outcome.withLock { $0 = .success(file) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let file)?: return file
        case .failure(.gone)?: throw FSError(ENOENT)
        default: throw FSError(EIO)
        }
    }
}

extension OpenFile {
    /// An open descriptor on a cached file; nil when the file vanished (evicted between
    /// the lookup and the open), which the caller treats as not cached.
    static func disk(_ file: CachedFile) -> OpenFile? {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        return fd < 0 ? nil : .disk(fd: fd, size: file.size)
    }
}
