import Store
import Synchronization

/// Content held for an open file handle, so a read of any offset is a slice and a file
/// never changes under a reader.
enum OpenFile: Sendable {
    case content([UInt8])
    /// A message in the store's pack, read by range; its bytes stay until release.
    case packed(PackedMessage)
    /// A message or attachment whose bytes are loaded at its first read: with the kernel
    /// keeping the page cache, a file read before is opened and served without the store.
    case stored(Node.ContentFile)
    /// A rendered file, its text taken at its first read (held, or rendered then): a file
    /// read before is opened and served from the kernel's page cache without rendering.
    case rendered(Node.RenderedFile)
    /// A downloaded file of the content cache, read with pread: eviction may unlink it,
    /// the open descriptor keeps serving.
    case disk(fd: Int32, size: Int64)
    /// Content being downloaded, read as it arrives (MailTree+Content.swift); `listedSize`
    /// is the size `st_size` showed, replaced once the download ends.
    case streaming(ContentStream, listedSize: Int64)
    /// A new file of outbox/ (send-queue id): bytes go to `MailTree.drafts`, checked and
    /// queued on close.
    case outgoing(itemId: Int64, accountId: Int64)
    /// A new message written into a server folder (its bytes in `MailTree.newMessages`, by
    /// handle): appended (journal) on close.
    case appending(folderId: Int64, accountId: Int64, name: String)
    /// The same once journaled: a later close of a dup'd descriptor adds nothing.
    case appended(folderId: Int64, name: String)
    /// `.control`: commands written, executed on close.
    case control(accountId: Int64, written: [UInt8])
}

final class OpenFileTable: Sendable {
    private struct State {
        var nextHandle: UInt64 = 1
        var files: [UInt64: OpenFile] = [:]
    }

    private let state = Mutex(State())

    func open(_ file: OpenFile) -> UInt64 {
        state.withLock { state in
            let handle = state.nextHandle
            state.nextHandle += 1
            state.files[handle] = file
            return handle
        }
    }

    func file(_ handle: UInt64) -> OpenFile? {
        state.withLock { $0.files[handle] }
    }

    func update(_ handle: UInt64, _ change: (inout OpenFile) -> Void) {
        state.withLock { state in
            guard var file = state.files[handle] else { return }
            change(&file)
            state.files[handle] = file
        }
    }

    @discardableResult
    func close(_ handle: UInt64) -> OpenFile? {
        state.withLock { $0.files.removeValue(forKey: handle) }
    }
}
