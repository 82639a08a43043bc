import Foundation

/// The bytes of a kept folder listing (`KeptListings`): the listing version it was built
/// at and its entries in listing order, ending in a checksum. Pure: no I/O.
///
/// The file is a cache written without fsync, and read back by whatever process opens the
/// store next, so its bytes are untrusted: a crash may leave it short or part zeros, and
/// the data directory may hold one another version wrote. `decode` checks the magic, the
/// checksum and every length against what is left, and returns nil for anything it cannot
/// read whole; the caller then lists from the store as if no file were there.
///
/// Layout (integers little-endian, `varint` LEB128 of the zigzag value):
///   "MFL1" | version: 8 bytes | count: varint | entries | checksum: 8 bytes of all before
///   entry: id - previous id, accountId, name length: varint | name: UTF-8 | size: varint |
///          flags: 1 byte (read, starred, has dateSent, packed) | dateSent: 8 bytes if any |
///          dateReceived: 8 bytes | folders: varint | pack offset, pack count: varint if packed
/// Dates are the bits of their `timeIntervalSinceReferenceDate`, so they come back equal.
enum KeptListingCodec {
    static let magic: [UInt8] = Array("MFL1".utf8)

    /// The fewest bytes an entry takes: five one-byte varints, the flags, a date.
    private static let smallestEntry = 14

    private enum Flag {
        static let read: UInt8 = 1, starred: UInt8 = 2, dateSent: UInt8 = 4, packed: UInt8 = 8
    }

    static func encode(_ entries: [MessageEntry], version: Int64) -> [UInt8] {
        var writer = Writer()
        // About 100 bytes an entry for names of 60: one allocation for most folders.
        writer.bytes.reserveCapacity(32 + entries.count * 112)
        writer.bytes += magic
        writer.fixed(UInt64(bitPattern: version))
        writer.varint(Int64(entries.count))
        var previousId: Int64 = 0
        for entry in entries {
            writer.varint(entry.id &- previousId)
            previousId = entry.id
            writer.varint(entry.accountId)
            var name = entry.fileName
            name.withUTF8 { utf8 in
                writer.varint(Int64(utf8.count))
                writer.bytes.append(contentsOf: utf8)
            }
            writer.varint(entry.sizeBytes)
            var flags: UInt8 = 0
            if entry.isRead { flags |= Flag.read }
            if entry.isStarred { flags |= Flag.starred }
            if entry.dateSent != nil { flags |= Flag.dateSent }
            if entry.packed != nil { flags |= Flag.packed }
            writer.bytes.append(flags)
            if let sent = entry.dateSent { writer.fixed(sent.timeIntervalSinceReferenceDate.bitPattern) }
            writer.fixed(entry.dateReceived.timeIntervalSinceReferenceDate.bitPattern)
            writer.varint(Int64(entry.folderCount))
            if let packed = entry.packed {
                writer.varint(packed.offset)
                writer.varint(Int64(packed.count))
            }
        }
        writer.fixed(writer.bytes.withUnsafeBytes(checksum))
        return writer.bytes
    }

    /// The version `bytes` say they were built at, the rest unchecked: a listing kept at
    /// another version is not worth its checksum.
    static func version(of bytes: [UInt8]) -> Int64? {
        guard bytes.count >= magic.count + 16, bytes.starts(with: magic) else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var reader = Reader(buffer, from: magic.count)
            return reader.fixed().map { Int64(bitPattern: $0) }
        }
    }

    /// The version and entries of `bytes`, nil unless they are a whole listing as `encode`
    /// writes them. `pass` is the pack's punching pass read before the folder's version was
    /// (`TreeStore.messages(inFolder:)`).
    static func decode(_ bytes: [UInt8], pass: UInt64) -> (version: Int64, entries: [MessageEntry])? {
        guard let version = version(of: bytes) else { return nil }
        return bytes.withUnsafeBufferPointer { buffer in
            var checksummed = Reader(buffer, from: buffer.count - 8)
            let body = UnsafeBufferPointer(rebasing: buffer[..<(buffer.count - 8)])
            guard checksummed.fixed() == checksum(UnsafeRawBufferPointer(body)) else { return nil }
            var reader = Reader(body, from: magic.count + 8)
            guard let count = reader.varint(), count >= 0, count <= reader.remaining / smallestEntry else { return nil }
            var entries: [MessageEntry] = []
            // Sized by what the file says only up to a bound: its count is not trusted yet.
            entries.reserveCapacity(min(Int(count), 1 << 16))
            var previousId: Int64 = 0
            for _ in 0..<count {
                guard let entry = reader.entry(after: previousId, pass: pass) else { return nil }
                previousId = entry.id
                entries.append(entry)
            }
            guard reader.remaining == 0 else { return nil }
            return (version, entries)
        }
    }

    /// Catches a file cut short or partly overwritten, not an attack: eight bytes at a
    /// time, where a byte at a time would take a million steps for a 10,000-message folder.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        let prime: UInt64 = 0x0000_0100_0000_01b3
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        var index = 0
        while index + 8 <= bytes.count {
            hash = (hash ^ UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self))) &* prime
            hash ^= hash >> 29
            index += 8
        }
        var tail = UInt64(bytes.count) << 56
        for (shift, byte) in bytes[index...].enumerated() { tail ^= UInt64(byte) << UInt64(shift * 8) }
        hash = (hash ^ tail) &* prime
        return hash ^ (hash >> 32)
    }

    private struct Writer {
        var bytes: [UInt8] = []

        mutating func fixed(_ value: UInt64) {
            withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
        }

        mutating func varint(_ value: Int64) {
            var rest = UInt64(bitPattern: (value << 1) ^ (value >> 63))
            while rest >= 0x80 {
                bytes.append(UInt8(truncatingIfNeeded: rest) | 0x80)
                rest >>= 7
            }
            bytes.append(UInt8(rest))
        }
    }

    private struct Reader {
        let buffer: UnsafeBufferPointer<UInt8>
        var position: Int

        init(_ buffer: UnsafeBufferPointer<UInt8>, from position: Int) {
            self.buffer = buffer
            self.position = position
        }

        var remaining: Int { buffer.count - position }

        mutating func byte() -> UInt8? {
            guard position < buffer.count else { return nil }
            defer { position += 1 }
            return buffer[position]
        }

        mutating func fixed() -> UInt64? {
            guard remaining >= 8 else { return nil }
            var value: UInt64 = 0
            for shift in stride(from: 0, to: 64, by: 8) {
                value |= UInt64(buffer[position]) << UInt64(shift)
                position += 1
            }
            return value
        }

        /// At most ten bytes, the last holding one bit: anything longer is not a varint.
        mutating func varint() -> Int64? {
            var value: UInt64 = 0
            for shift in stride(from: 0, through: 63, by: 7) {
                guard let byte = byte() else { return nil }
                if shift == 63, byte > 1 { return nil }
                value |= UInt64(byte & 0x7f) << UInt64(shift)
                if byte < 0x80 {
                    return Int64(bitPattern: value >> 1) ^ -Int64(bitPattern: value & 1)
                }
            }
            return nil
        }

        mutating func date() -> Date? {
            fixed().map { Date(timeIntervalSinceReferenceDate: Double(bitPattern: $0)) }
        }

        mutating func name() -> String? {
            guard let length = varint(), length >= 0, length <= remaining else { return nil }
            let utf8 = UnsafeBufferPointer(rebasing: buffer[position..<(position + Int(length))])
            position += Int(length)
            // Checksummed bytes this code wrote from a String: repairing would change
            // nothing, and it is the stdlib's fast path, where validating is generic.
            return String(decoding: utf8, as: UTF8.self)
        }

        mutating func entry(after previousId: Int64, pass: UInt64) -> MessageEntry? {
            guard let idStep = varint(), let accountId = varint(), let fileName = name(),
                  let sizeBytes = varint(), let flags = byte() else { return nil }
            var dateSent: Date?
            if flags & Flag.dateSent != 0 {
                guard let date = date() else { return nil }
                dateSent = date
            }
            guard let dateReceived = date(), let folders = varint(), let folderCount = Int(exactly: folders) else {
                return nil
            }
            var packed: PackedMessage?
            if flags & Flag.packed != 0 {
                guard let offset = varint(), let count = varint(), let byteCount = Int(exactly: count) else { return nil }
                packed = PackedMessage(offset: offset, count: byteCount, pass: pass)
            }
            return MessageEntry(id: previousId &+ idStep, accountId: accountId, fileName: fileName, sizeBytes: sizeBytes,
                                dateSent: dateSent, dateReceived: dateReceived, folderCount: folderCount,
                                isRead: flags & Flag.read != 0, isStarred: flags & Flag.starred != 0, packed: packed)
        }
    }
}
