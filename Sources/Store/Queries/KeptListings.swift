import Foundation

/// Listings of large folders kept in files beside the store (`listings/folder-<id>`), each
/// stamped with the folder's listing version (`ListingVersions`) it was built at. The
/// first `ls` of a 10,000-message folder after a start then reads one file of about
/// 1 MB instead of running the query that joins three tables for every message and reads
/// their scattered pages (docs/DECISIONS.md, "Large folders' listings kept on disk").
///
/// A file is a cache: written without fsync and published by rename, used only while its
/// version is the folder's, and any failure to read or write one only means the listing
/// is built from the store again.
final class KeptListings: Sendable {
    /// Folders with fewer messages are listed from the store: their query takes a
    /// millisecond or two, and a file per folder would outnumber the folders worth one.
    static let minimumMessages = 1_000

    /// Larger files are not listings this code wrote (ten million messages is ~1 GB).
    private static let largestFile = 1 << 30

    let directory: URL

    init(storeDirectory: URL) {
        directory = storeDirectory.appendingPathComponent("listings")
    }

    private func name(_ folderId: Int64) -> String { "folder-\(folderId)" }

    /// The folder's entries kept at `version`; nil when no file is kept, it was kept at
    /// another version, or it cannot be read whole.
    func entries(folderId: Int64, version: Int64, pass: UInt64) -> [MessageEntry]? {
        guard let bytes = Self.read(directory.appendingPathComponent(name(folderId)).path),
              KeptListingCodec.version(of: bytes) == version,
              let kept = KeptListingCodec.decode(bytes, pass: pass) else { return nil }
        return kept.entries
    }

    /// Keeps the folder's entries, read at `version`, in place of what was kept.
    func keep(_ entries: [MessageEntry], folderId: Int64, version: Int64) {
        let bytes = KeptListingCodec.encode(entries, version: version)
        guard let (partial, fd) = try? CacheFiles.createPartial(for: name(folderId), in: directory) else { return }
        let written = bytes.withUnsafeBytes { raw in
            do {
                try FileRange.write(fd, raw, at: 0)
                return true
            } catch {
                return false
            }
        }
        close(fd)
        if written {
            _ = try? CacheFiles.publish(partial, as: name(folderId), in: directory)
        } else {
            unlink(partial)
        }
    }

    /// Removes the files of folders gone since they were kept, and the partial files a
    /// crash left. The directory is listed before `folders` runs: a file kept after that
    /// belongs to a folder that `folders` sees.
    func removeStale(keeping folders: () throws -> Set<Int64>) throws {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path), !names.isEmpty else {
            return
        }
        let kept = Set(try folders().map(name))
        for name in names where !kept.contains(name) {
            unlink(directory.appendingPathComponent(name).path)
        }
    }

    private static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_size > 0, status.st_size <= largestFile else { return nil }
        let size = Int(status.st_size)
        var complete = false
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            let read = try? FileRange.read(fd, into: UnsafeMutableRawBufferPointer(buffer), at: 0)
            complete = read == size
            count = complete ? size : 0
        }
        return complete ? bytes : nil
    }
}
