import Synchronization

/// Bytes of new files being written, held in memory until `close()` checks and commits
/// them: outbox files by send-queue id, messages copied into a folder by file handle.
/// A write detaches the buffer before changing it, so a large `cp` costs linear time
/// (re-splicing an array held elsewhere copies it on every write: quadratic).
final class WriteBuffers: Sendable {
    /// The largest file accepted; writes beyond it fail.
    let maxSize: Int
    private let buffers = Mutex<[Int64: [UInt8]]>([:])

    init(maxSize: Int) {
        self.maxSize = maxSize
    }

    func begin(_ id: Int64, with bytes: [UInt8] = []) {
        buffers.withLock { $0[id] = bytes }
    }

    func bytes(_ id: Int64) -> [UInt8]? {
        buffers.withLock { $0[id] }
    }

    /// pwrite semantics: a gap is zero-filled. False when the file would pass `maxSize`.
    func write(_ id: Int64, at offset: Int, _ data: UnsafeRawBufferPointer) -> Bool {
        buffers.withLock { buffers in
            guard var bytes = buffers[id], offset <= maxSize - data.count else { return false }
            buffers[id] = nil  // no copy-on-write of the whole buffer
            if offset == bytes.count {
                // The usual case (cp, cat >): append, amortized O(1) per byte.
                bytes.append(contentsOf: data)
                buffers[id] = bytes
                return true
            }
            if bytes.count < offset + data.count {
                bytes.append(contentsOf: repeatElement(0, count: offset + data.count - bytes.count))
            }
            bytes.withUnsafeMutableBytes { target in
                if let source = data.baseAddress, data.count > 0 {
                    (target.baseAddress! + offset).copyMemory(from: source, byteCount: data.count)
                }
            }
            buffers[id] = bytes
            return true
        }
    }

    /// truncate(2); false when `id` is not being written.
    func truncate(_ id: Int64, to size: Int) -> Bool {
        buffers.withLock { buffers in
            guard var bytes = buffers[id], size <= maxSize else { return false }
            if size < bytes.count { bytes.removeSubrange(size...) } else {
                bytes.append(contentsOf: repeatElement(0, count: size - bytes.count))
            }
            buffers[id] = bytes
            return true
        }
    }

    @discardableResult
    func end(_ id: Int64) -> [UInt8]? {
        buffers.withLock { $0.removeValue(forKey: id) }
    }
}
