/// The fields of an SQLite database's 100-byte header that tell whether a file is a mailfs
/// store and what its write-ahead log must look like (https://www.sqlite.org/fileformat2.html#the_database_header).
/// The header on disk is the store as of its last checkpoint: what a log holds is not in it.
struct DatabaseHeader: Equatable, Sendable {
    static let size = 100
    private static let magic = Array("SQLite format 3\0".utf8)

    let pageSize: Int
    /// `PRAGMA user_version`: mailfs keeps its `StoreOpenMark` there.
    let userVersion: Int32
    /// `PRAGMA application_id`.
    let applicationID: Int32

    var openMark: StoreOpenMark { StoreOpenMark(userVersion: userVersion) }

    /// nil when `bytes` is not the start of an SQLite database.
    init?(_ bytes: [UInt8]) {
        guard bytes.count >= Self.size, bytes.starts(with: Self.magic) else { return nil }
        // 1 stands for 65536, which does not fit the field's two bytes.
        let size = Int(bytes[16]) << 8 | Int(bytes[17])
        pageSize = size == 1 ? 65536 : size
        userVersion = Self.int32(bytes, at: 60)
        applicationID = Self.int32(bytes, at: 68)
    }

    private static func int32(_ bytes: [UInt8], at offset: Int) -> Int32 {
        bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int32($1) }
    }
}
