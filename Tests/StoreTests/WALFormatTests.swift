import Foundation
import GRDB
import Testing
import TestSupport
@testable import Store

/// The write-ahead log and its index as SQLite writes them, read without SQLite
/// (`WALHeader`, `WALFrameScan`, `WALIndexHeader`), and what opening a store beside them
/// would lose (`WALVerdict`).
@Suite("The write-ahead log, read before SQLite opens it")
struct WALFormatTests {
    @Test("a log SQLite wrote parses whole: every frame valid, one commit per transaction, and its index agrees")
    func writtenLog() throws {
        let written = try WrittenLog.make(transactions: 5)
        let index = try #require(written.indexHeader)
        let scan = try WALFrameScan.of(written.log, watching: index.lastCommittedFrame)
        #expect(scan.header.pageSize == 4096)
        #expect(scan.commits == 6, "the table's creation and five inserts")
        #expect(scan.validFrames == scan.frames && scan.committedFrames == scan.frames)
        #expect(scan.damagedFrame == nil)
        #expect(index.lastCommittedFrame == scan.committedFrames && index.pendingFrames == scan.committedFrames)
        #expect(index.salts == scan.header.salts)
        #expect(scan.watchedChecksum == index.lastCommitChecksum)
    }

    enum HeaderDamage: String, CaseIterable, Sendable {
        case cut, magic, version, pageSize, salt

        func apply(_ bytes: inout [UInt8]) {
            switch self {
            case .cut: bytes = Array(bytes.prefix(20))
            case .magic: bytes[3] = 0x99
            case .version: bytes[7] ^= 1
            case .pageSize: bytes[10] = 0x03
            case .salt: bytes[17] ^= 0xFF
            }
        }

        var expected: WALHeader.Problem {
            switch self {
            case .cut: .cutShort(bytes: 20)
            case .magic: .badMagic(0x377F_0699)
            case .version: .badVersion(3_007_001)
            case .pageSize: .badPageSize(0x0300)
            case .salt: .badChecksum
            }
        }
    }

    @Test("a log header that is cut, not a log's, of another format or page size, or not its checksum's, is told apart",
          arguments: HeaderDamage.allCases)
    func headerProblems(_ damage: HeaderDamage) throws {
        var log = try WrittenLog.make(transactions: 1).log
        damage.apply(&log)
        #expect(throws: damage.expected) { try WALFrameScan.of(log) }
    }

    @Test("a damaged frame with commits after it is damage; a frame half-written at the end is a crash's, not damage")
    func damagedFrames() throws {
        let log = try WrittenLog.make(transactions: 5).log
        let frameSize = WALFrameScan.frameHeaderSize + 4096
        var middle = log
        middle[WALHeader.size + frameSize + 100] ^= 0x5A
        let scan = try WALFrameScan.of(middle)
        #expect(scan.damagedFrame == 2 && scan.validFrames == 1 && scan.commitsAfterBreak > 0)

        var last = log
        last[last.count - 10] ^= 0x5A
        let torn = try WALFrameScan.of(last)
        #expect(torn.damagedFrame == nil)
        #expect(torn.commits == 5 && torn.validFrames == torn.frames - 1)
    }

    @Test("the index is trusted only whole: its two copies alike, initialised, its checksum right, not cut")
    func indexHeader() throws {
        let index = try WrittenLog.make(transactions: 2).index
        #expect(Self.indexHeader(index) != nil)
        var torn = index
        torn[16] ^= 1
        #expect(Self.indexHeader(torn) == nil, "copies differ")
        var unset = index
        unset[12] = 0
        unset[60] = 0
        #expect(Self.indexHeader(unset) == nil, "not initialised")
        var wrong = index
        wrong[20] ^= 1
        wrong[68] ^= 1
        #expect(Self.indexHeader(wrong) == nil, "checksum")
        #expect(Self.indexHeader(Array(index.prefix(100))) == nil, "cut")
    }

    static func indexHeader(_ bytes: [UInt8]) -> WALIndexHeader? {
        bytes.withUnsafeBytes { WALIndexHeader.parse($0) }
    }

    @Test("what opening the store would lose, for each state of its log and index")
    func verdicts() throws {
        let written = try WrittenLog.make(transactions: 5)
        let index = try #require(written.indexHeader)
        let copied = try #require(try WrittenLog.make(transactions: 5, checkpointed: true).indexHeader)
        let whole = try WALFrameScan.of(written.log, watching: index.lastCommittedFrame)
        let frameSize = WALFrameScan.frameHeaderSize + 4096
        var garbled = written.log
        garbled[WALHeader.size + 2 * frameSize + 50] ^= 0x5A
        let cut = Array(written.log.prefix(WALHeader.size + 2 * frameSize + 1000))
        let other = try WrittenLog.make(transactions: 3).log
        let larger = try WrittenLog.make(transactions: 3, pageSize: 8192).log

        func verdict(_ mark: StoreOpenMark, _ log: WALVerdict.Log, _ index: WALIndexHeader?) -> WALProblem? {
            WALVerdict.problem(mark: mark, storePageSize: 4096, log: log, index: index)
        }
        func scanned(_ bytes: [UInt8]) throws -> WALVerdict.Log {
            .scanned(try WALFrameScan.of(bytes, watching: index.lastCommittedFrame))
        }
        #expect(verdict(.open, .scanned(whole), index) == nil, "a crash's log, whole")
        #expect(verdict(.open, .scanned(whole), nil) == nil, "without its index")
        #expect(verdict(.open, .missing, copied) == nil, "everything already in the file")
        #expect(verdict(.closed, .missing, nil) == nil && verdict(.unknown, .empty, nil) == nil, "closed cleanly, or from before the mark")
        #expect(verdict(.open, .unreadableHeader(.badChecksum), copied) == nil, "a log SQLite ignores, with nothing in it")

        #expect(Self.isLost(verdict(.open, .missing, index)))
        #expect(Self.isLost(verdict(.unknown, .empty, index)), "the index knows, whatever the mark")
        #expect(Self.isLost(verdict(.open, .missing, nil)), "the mark knows without the index")
        #expect(Self.isDamaged(verdict(.open, .unreadableHeader(.badMagic(0)), index)))
        #expect(Self.isDamaged(verdict(.open, .unreadableHeader(.badMagic(0)), nil)))
        #expect(Self.isDamaged(verdict(.open, try scanned(cut), index), "cut short"))
        #expect(Self.isDamaged(verdict(.open, try scanned(garbled), index), "frame 3"))
        #expect(Self.isDamaged(verdict(.open, try scanned(garbled), nil), "frame 3"), "damage with commits after it")
        #expect(Self.isForeign(verdict(.open, try scanned(other), index)), "another generation's salts")
        #expect(Self.isForeign(verdict(.open, try scanned(larger), nil)), "another page size")
        #expect(Self.isForeign(verdict(.closed, .scanned(whole), index)), "a full log beside a file closed cleanly")
        #expect(Self.isForeign(verdict(.closed, .scanned(whole), nil)))
    }

    static func isLost(_ problem: WALProblem?) -> Bool {
        if case .lost = problem { return true }
        return false
    }

    static func isDamaged(_ problem: WALProblem?, _ saying: String? = nil) -> Bool {
        if case .damaged(let reason) = problem { return saying.map(reason.contains) ?? true }
        return false
    }

    static func isForeign(_ problem: WALProblem?) -> Bool {
        if case .foreign = problem { return true }
        return false
    }

    @Test("5,000 seeded mutations of a log and its index: no trap, and the untouched pair is judged whole")
    func mutations() throws {
        let written = try WrittenLog.make(transactions: 4)
        let index = try #require(written.indexHeader)
        #expect(WALVerdict.problem(mark: .open, storePageSize: 4096,
                                   log: .scanned(try WALFrameScan.of(written.log, watching: index.lastCommittedFrame)),
                                   index: index) == nil)
        var random = SeededGenerator(state: 0x5741_4C)
        for _ in 0..<5000 {
            var log = written.log
            var indexBytes = written.index
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                if Bool.random(using: &random) {
                    log[Int.random(in: 0..<log.count, using: &random)] = UInt8.random(in: 0...255, using: &random)
                } else {
                    indexBytes[Int.random(in: 0..<WALIndexHeader.size, using: &random)] = UInt8.random(in: 0...255, using: &random)
                }
            }
            if Int.random(in: 0..<4, using: &random) == 0 { log = Array(log.prefix(Int.random(in: 0...log.count, using: &random))) }
            let mutatedIndex = Self.indexHeader(indexBytes)
            let state: WALVerdict.Log
            do {
                state = log.isEmpty ? .empty : .scanned(try WALFrameScan.of(log, watching: mutatedIndex?.lastCommittedFrame))
            } catch let problem as WALHeader.Problem {
                state = .unreadableHeader(problem)
            }
            _ = WALVerdict.problem(mark: .open, storePageSize: 4096, log: state, index: mutatedIndex)
        }
    }
}

/// A write-ahead log and its index as SQLite wrote them, its connection still open: what a
/// crash leaves behind.
struct WrittenLog {
    let log: [UInt8]
    let index: [UInt8]

    var indexHeader: WALIndexHeader? { WALFormatTests.indexHeader(index) }

    /// A table created, then `transactions` inserts of 3,000 random bytes each; with
    /// `checkpointed`, everything copied into the database file after.
    static func make(transactions: Int, pageSize: Int = 4096, checkpointed: Bool = false) throws -> WrittenLog {
        let directory = Fixture.temporaryDirectory("wal")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("db.sqlite").path
        let queue = try DatabaseQueue(path: path)
        try queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA page_size = \(pageSize); PRAGMA journal_mode = WAL; PRAGMA wal_autocheckpoint = 0")
            try db.execute(sql: "CREATE TABLE t (x BLOB)")
        }
        for _ in 0..<transactions {
            try queue.write { try $0.execute(sql: "INSERT INTO t VALUES (randomblob(3000))") }
        }
        if checkpointed { try queue.writeWithoutTransaction { try $0.execute(sql: "PRAGMA wal_checkpoint(PASSIVE)") } }
        let written = WrittenLog(log: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "-wal"))),
                                 index: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path + "-shm"))))
        try queue.close()
        return written
    }
}

extension WALFrameScan {
    /// Every whole frame of `log` after its header, as `StoreWAL` reads them from a file.
    static func of(_ log: [UInt8], watching frame: Int? = nil) throws -> WALFrameScan {
        try log.withUnsafeBytes { bytes in
            var scan = WALFrameScan(header: try WALHeader.parse(bytes), watchedFrame: frame)
            for start in stride(from: WALHeader.size, through: bytes.count - scan.frameSize, by: scan.frameSize) {
                scan.add(frame: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + scan.frameSize)]))
            }
            return scan
        }
    }
}
