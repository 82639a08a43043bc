import Foundation
import MailContracts
import Store
import Synchronization

/// Message and attachment files: served from the store when it holds the raw message,
/// else from the content cache, else from a download started at open and read while it
/// arrives (docs/ARCHITECTURE.md, "Lazy content"). Open waits for the server's first
/// byte, so a message deleted on the server is ENOENT at open, where `cat` reports it.
extension MailTree {
    /// Where the bytes of a message or attachment file come from.
    enum ContentSource: Sendable {
        /// A message in the store's pack: read by range with `pread`, its bytes held from
        /// punching while the file is open.
        case packed(PackedMessage)
        /// Raw message in the store's database (a store from before the pack), or the
        /// message an attachment is in: read (and decoded for an attachment) at first read.
        case store
        /// Content fetched from the server into the cache, with the size `st_size` shows;
        /// `sizeIsExact` is false while an attachment's size is BODYSTRUCTURE's estimate.
        case server(ContentKey, size: Int64, sizeIsExact: Bool)
    }

    func openContent(_ node: Node.ContentFile) throws(FSError) -> OpenedFile {
        let source = try knownContentSource(node)
        // Content under an inode never changes: the page cache may keep it.
        switch source {
        case .packed:
            return try openPacked(node, source)
        case .store:
            return OpenedFile(handle: files.open(.stored(node)), keepCache: true, directIO: false, flushes: false)
        case .server(let key, let size, let sizeIsExact):
            return try openFromServer(node, key: key, size: size, sizeIsExact: sizeIsExact)
        }
    }

    /// Holds the message's bytes in the pack for the open file. A location read before the
    /// store's last punching pass may be a hole now: then it is read again, and a message
    /// deleted meanwhile is ENOENT.
    private func openPacked(_ node: Node.ContentFile, _ known: ContentSource) throws(FSError) -> OpenedFile {
        var source = known
        for _ in 0..<3 {
            switch source {
            case .packed(let message) where store.openPacked(message):
                return OpenedFile(handle: files.open(.packed(message)), keepCache: true, directIO: false, flushes: false)
            case .packed:
                source = try storeCall { try self.contentSource(node) }
                contentSources.remember(source, for: node.inode)
            case .store, .server:
                // Gone from the pack (deleted and stored again without its bytes): open it anew.
                return try openContent(node)
            }
        }
        logger.error("\(node): its bytes kept moving under punching passes; open refused")
        throw FSError(EIO)
    }

    private func openFromServer(_ node: Node.ContentFile, key: ContentKey, size: Int64, sizeIsExact: Bool) throws(FSError) -> OpenedFile {
        if let cached = try storeCall({ try store.cachedContent(key) }), let file = OpenFile.disk(cached) {
            return OpenedFile(handle: files.open(file), keepCache: true, directIO: false, flushes: false)
        }
        switch try download(key) {
        case .cached(let downloaded):
            guard let file = OpenFile.disk(downloaded) else { throw FSError(EIO) }
            let sizeChanged = learnSize(downloaded, of: key, at: node.inode, listed: size)
            // A size that was an estimate: direct I/O, so readers get every byte whatever
            // st_size they saw; later opens use the page cache with the exact size.
            return OpenedFile(handle: files.open(file), keepCache: false, directIO: !sizeIsExact || sizeChanged,
                              flushes: false)
        case .streaming(let stream):
            Task { [self] in
                if let file = try? await stream.finished() { learnSize(file, of: key, at: node.inode, listed: size) }
            }
            // The size is known only at the end: direct I/O, so the kernel asks for every
            // range (it would stop at the listed st_size) and EOF comes from the download.
            return OpenedFile(handle: files.open(.streaming(stream, listedSize: size)), keepCache: false,
                              directIO: true, flushes: false)
        }
    }

    /// A download told the exact size: later opens use it, and if `st_size` showed another
    /// the kernel forgets the attributes it holds. Returns whether the size changed.
    @discardableResult
    func learnSize(_ file: CachedFile, of key: ContentKey, at inode: Inode, listed: Int64) -> Bool {
        contentSources.remember(.server(key, size: file.size, sizeIsExact: true), for: inode)
        guard file.size != listed else { return false }
        listings.forgetAttributes(of: inode)
        invalidator?.invalidateInode(inode)
        return true
    }

    /// The remembered source, else the store's answer (then remembered).
    private func knownContentSource(_ node: Node.ContentFile) throws(FSError) -> ContentSource {
        if let known = contentSources.source(node.inode) { return known }
        let source = try storeCall { try self.contentSource(node) }
        contentSources.remember(source, for: node.inode)
        return source
    }

    func contentSource(_ node: Node.ContentFile) throws -> ContentSource {
        switch node {
        case .message(let id):
            // Where the stored bytes are is asked first: that row is all a message stored
            // whole needs, while the message's own row lives in other pages, which with the
            // page cache dropped is one more read from disk per `cat`. A message stored
            // without its bytes never gains them in the store (they go to the content cache).
            switch try store.rawLocation(emailId: id) {
            case .packed(let message)?: return .packed(message)
            case .database?: return .store
            case nil:
                guard let size = try store.messageSize(emailId: id) else { throw FSError(ENOENT) }
                return .server(.message(id), size: size, sizeIsExact: true)
            }
        case .attachment(let id):
            guard let attachment = try store.attachment(id: id) else { throw FSError(ENOENT) }
            if try store.hasRawMessage(emailId: attachment.emailId) { return .store }
            return .server(ContentKey(emailId: attachment.emailId, partId: attachment.partId),
                           size: attachment.sizeBytes, sizeIsExact: attachment.sizeIsExact)
        }
    }

    /// Waits on this FUSE thread (`RequestLoop` hands receiving to another meanwhile) until the server
    /// began sending. Its failure is mapped as any other (`fsError(for:)`).
    private func download(_ key: ContentKey) throws(FSError) -> ContentDelivery {
        guard let provider = services?.content else {
            logger.error("\(key) is not in the store and no server is configured")
            throw FSError(EIO)
        }
        let outcome = Mutex<Result<ContentDelivery, ContentUnavailable>?>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            do throws(ContentUnavailable) {
                let delivery = try await provider.content(key)
                outcome.withLock { $0 = .success(delivery) }
            } catch {
                outcome.withLock { $0 = .failure(error) }
            }
            done.signal()
        }
        done.wait()
        switch outcome.withLock({ $0 }) {
        case .success(let delivery)?: return delivery
        case .failure(let error)?: throw fsError(for: error)
        case nil: throw FSError(EIO)
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
