import IMAP
import MailCore
import Store
import Synchronization

/// Turns the pieces of one streamed FETCH literal into decoded bytes in a `ContentStream`
/// (docs/ARCHITECTURE.md, "Lazy content"). Runs on the connection's event loop: one
/// decode and one `pwrite` into the page cache per network read, nothing that waits.
/// The first piece also tells the reader waiting at open that the server is sending.
final class PartWriter: Sendable {
    private struct State {
        var decoder: TransferDecoder
        var began = false
        /// The UID of the FETCH response that carried the literal (UID FETCH responses name it).
        var endedUID: UInt32?
        var failure: String?
    }

    let stream: ContentStream
    private let state: Mutex<State>
    private let onBegin: @Sendable () -> Void

    /// `encoding` is the part's Content-Transfer-Encoding (a whole message: "7bit").
    init(stream: ContentStream, encoding: String, onBegin: @escaping @Sendable () -> Void) {
        self.stream = stream
        state = Mutex(State(decoder: TransferDecoder(encoding: encoding)))
        self.onBegin = onBegin
    }

    /// Whether the server began sending: from then on a failure cannot be retried
    /// (readers may hold bytes already), it ends the download.
    var hasBegun: Bool { state.withLock { $0.began } }

    func receive(_ piece: LiteralSink.Piece) {
        switch piece {
        case .begins:
            let first = state.withLock { state in
                if state.began { state.failure = state.failure ?? "the server sent the part twice" }
                defer { state.began = true }
                return !state.began
            }
            if first { onBegin() }
        case .bytes(let bytes):
            write { $0.decoder.decode(bytes) }
        case .ended(let uid):
            state.withLock { $0.endedUID = uid }
        }
    }

    /// The part as one value (a server that sent it as a quoted string, not a literal).
    func receiveWhole(_ bytes: [UInt8], uid: UInt32) {
        receive(.begins(length: bytes.count))
        receive(.bytes(bytes))
        receive(.ended(uid: uid))
    }

    /// Writes what the decoder held back; throws if anything went wrong on the way or the
    /// literal belonged to another message than `uid`.
    func finish(uid: UInt32) throws {
        write { $0.decoder.finish() }
        let (failure, ended) = state.withLock { ($0.failure, $0.endedUID) }
        if let failure { throw ContentUnavailable.failed(failure) }
        guard ended == uid else {
            throw ContentUnavailable.failed("the server's FETCH response did not match UID \(uid)")
        }
    }

    /// Decodes with `step` and appends the result; after a failure (disk full) the rest
    /// of the literal is skipped and `finish` reports it.
    private func write(_ step: (inout State) -> [UInt8]) {
        let decoded: [UInt8]? = state.withLock { state in
            guard state.failure == nil else { return nil }
            return step(&state)
        }
        guard let decoded else { return }
        do {
            try stream.append(decoded)
        } catch {
            state.withLock { $0.failure = $0.failure ?? "\(error)" }
        }
    }
}
