import Foundation

/// A whole range of a file read or written at an offset, and a file's data synced, each
/// retried when a signal interrupts the call: the loops the pack of raw messages, the
/// content cache's downloads and the mounted tree's cached files all need.
public enum FileRange {
    /// Reads into `buffer` from `offset` until it is full or the file ends; returns how
    /// many bytes it read (fewer than asked only at the end of the file).
    public static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer,
                            at offset: Int64) throws(FileRangeError) -> Int {
        var filled = 0
        while filled < buffer.count {
            let result = pread(fd, buffer.baseAddress! + filled, buffer.count - filled, off_t(offset) + off_t(filled))
            if result < 0 && errno == EINTR { continue }
            guard result >= 0 else { throw FileRangeError(code: errno) }
            if result == 0 { break }
            filled += result
        }
        return filled
    }

    /// Writes all of `bytes` at `offset`. A failure may leave part of them written; a
    /// write that makes no progress is a full disk.
    public static func write(_ fd: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(FileRangeError) {
        var written = 0
        while written < bytes.count {
            let result = pwrite(fd, bytes.baseAddress! + written, bytes.count - written, off_t(offset) + off_t(written))
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw FileRangeError(code: result < 0 ? errno : ENOSPC) }
            written += result
        }
    }

    /// `fdatasync`: the file's data on disk when it returns.
    public static func syncData(_ fd: Int32) throws(FileRangeError) {
        while fdatasync(fd) != 0 {
            guard errno == EINTR else { throw FileRangeError(code: errno) }
        }
    }
}

/// A failed `FileRange` call, with the system's error number.
public struct FileRangeError: Error {
    public let code: Int32

    public var reason: String { String(cString: strerror(code)) }
}
