import Foundation

/// Reads a store's write-ahead log (`mailfs.sqlite-wal`) and its index (`-shm`) before
/// SQLite opens the store, while no other process has it open, and judges them with
/// `WALVerdict`. Reads only.
enum StoreWAL {
    static func logPath(of database: String) -> String { database + "-wal" }
    static func indexPath(of database: String) -> String { database + "-shm" }

    /// What is wrong with the log of the store at `database`, whose header is `header`.
    static func problem(database: String, header: DatabaseHeader) throws(StoreFileError) -> WALProblem? {
        let index = readIndexHeader(indexPath(of: database))
        let log = try readLog(logPath(of: database), watching: index?.lastCommittedFrame)
        return WALVerdict.problem(mark: header.openMark, storePageSize: header.pageSize, log: log, index: index)
    }

    /// Moves a log that is not the store's (and its index) aside, so SQLite never applies it:
    /// `PATH-wal.foreign`, `PATH-shm.foreign`.
    static func setAside(database: String) throws(StoreFileError) {
        for path in [logPath(of: database), indexPath(of: database)] where FileManager.default.fileExists(atPath: path) {
            guard rename(path, path + ".foreign") == 0 else {
                throw StoreFileError(path: database, kind: .unreadable("cannot move \(path) aside: \(String(cString: strerror(errno)))"))
            }
        }
    }

    /// The index header, or nil when there is none or it says nothing reliable.
    private static func readIndexHeader(_ path: String) -> WALIndexHeader? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        let bytes = [UInt8]((try? handle.read(upToCount: WALIndexHeader.size)) ?? Data())
        return bytes.withUnsafeBytes { WALIndexHeader.parse($0) }
    }

    /// Frames read at a time: 64 of the store's 16 KiB pages.
    private static let chunkFrames = 64

    private static func readLog(_ path: String, watching frame: Int?) throws(StoreFileError) -> WALVerdict.Log {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return .missing }
            throw unreadable(path, errno)
        }
        defer { close(fd) }
        do {
            var headerBytes = [UInt8](repeating: 0, count: WALHeader.size)
            let count = try headerBytes.withUnsafeMutableBytes { try FileRange.read(fd, into: $0, at: 0) }
            guard count > 0 else { return .empty }
            let parsed = headerBytes.withUnsafeBytes { bytes in
                Result { () throws(WALHeader.Problem) in try WALHeader.parse(UnsafeRawBufferPointer(rebasing: bytes[0..<count])) }
            }
            switch parsed {
            case .failure(let problem): return .unreadableHeader(problem)
            case .success(let header): return .scanned(try scanFrames(fd, header: header, watching: frame))
            }
        } catch {
            throw unreadable(path, (error as? FileRangeError)?.code ?? EIO)
        }
    }

    /// Every whole frame after the header; a partial one at the end is left out, as SQLite does.
    private static func scanFrames(_ fd: Int32, header: WALHeader, watching frame: Int?) throws -> WALFrameScan {
        var scan = WALFrameScan(header: header, watchedFrame: frame)
        let frameSize = scan.frameSize
        var buffer = [UInt8](repeating: 0, count: frameSize * chunkFrames)
        var offset = Int64(WALHeader.size)
        while true {
            let count = try buffer.withUnsafeMutableBytes { try FileRange.read(fd, into: $0, at: offset) }
            buffer.withUnsafeBytes { bytes in
                for start in stride(from: 0, through: count - frameSize, by: frameSize) {
                    scan.add(frame: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + frameSize)]))
                }
            }
            guard count == buffer.count else { return scan }
            offset += Int64(count)
        }
    }

    private static func unreadable(_ path: String, _ code: Int32) -> StoreFileError {
        StoreFileError(path: path, kind: .unreadable(String(cString: strerror(code))))
    }
}
