import Foundation
import GRDB
@testable import Store
import TestSupport

/// Builders for messages and on-disk mailboxes used by the store tests.
enum Fixture {
    /// The store tests' message: from Alice to Bob, on 20 November 2026 unless told.
    static func message(id: String?, subject: String, from: String = "Alice Smith <alice@example.org>",
                        date: String = "Fri, 20 Nov 2026 14:32:00 +0000", inReplyTo: String? = nil,
                        references: [String] = [], body: String = "Hello there.\n",
                        extraHeaders: [String] = []) -> [UInt8] {
        TestMessage(from: from, to: "Bob <bob@example.org>", subject: subject, date: date, messageID: id, inReplyTo: inReplyTo,
                    references: references, headers: extraHeaders, body: body).bytes
    }

    /// A message of `lines` numbered body lines: a stand-in for a big torture test.
    static func long(id: String?, subject: String, lines: Int) -> [UInt8] {
        message(id: id, subject: subject, body: (0..<lines).map { "line \($0) of a long message\r\n" }.joined())
    }

    /// The first `count` bytes of `raw`, cut after a line: how a fragment of a message
    /// (a truncated copy, a forwarded excerpt) keeps its header and Message-ID.
    static func fragment(of raw: [UInt8], bytes count: Int) -> [UInt8] {
        let cut = raw[..<count].lastIndex(of: 10).map { $0 + 1 } ?? count
        return Array(raw[..<cut])
    }

    static func temporaryDirectory(_ label: String) -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("mailfs-\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A store as an older mailfs left it: a new directory whose database has the
    /// migrations up to `migration` and the rows `fill` writes. Opening a `MailStore` on it
    /// runs the later ones.
    static func legacyStore(_ label: String, upTo migration: String, _ fill: (Database) throws -> Void) throws -> URL {
        let directory = temporaryDirectory(label)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("mailfs.sqlite").path)
        try Schema.migrator.migrate(queue, upTo: migration)
        try queue.write(fill)
        return directory
    }

    /// A Maildir at `url` holding `messages` in cur/ with the given info suffixes.
    static func writeMaildir(at url: URL, _ messages: [(name: String, raw: [UInt8])]) throws {
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(at: url.appendingPathComponent(sub),
                                                    withIntermediateDirectories: true)
        }
        for message in messages {
            try Data(message.raw).write(to: url.appendingPathComponent("cur").appendingPathComponent(message.name))
        }
    }

    static func mbox(_ messages: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for raw in messages {
            out += Array("From sender@example.org Fri Nov 20 14:32:00 2026\n".utf8)
            // mboxrd: body lines starting with "From " are written as ">From ".
            let text = String(decoding: raw, as: UTF8.self).replacingOccurrences(of: "\r\n", with: "\n")
                .replacingOccurrences(of: "\nFrom ", with: "\n>From ")
            out += Array(text.utf8)
            if out.last != 10 { out.append(10) }
            out.append(10)
        }
        return out
    }
}

/// A store in a temporary directory, removed when the test is done with it.
final class TemporaryStore {
    let store: MailStore
    let directory: URL

    init() throws {
        (store, directory) = try MailStore.temporary()
    }

    deinit { try? FileManager.default.removeItem(at: directory) }

    func account(_ name: String = "test") throws -> Int64 {
        try store.sync.ensureAccount(name: name, address: "\(name)@example.org", isOffline: true).id ?? -1
    }

    /// An account synced from a server (its messages follow `SameMessage.serverCopy`).
    func serverAccount(_ name: String = "work") throws -> Int64 {
        try store.sync.ensureAccount(name: name, address: "\(name)@example.org", isOffline: false).id ?? -1
    }

    func folder(_ accountId: Int64, _ path: String, type: FolderType = .custom) throws -> Int64 {
        try store.sync.ensureFolder(accountId: accountId, path: path, imapPath: path, type: type).id ?? -1
    }

    func incoming(_ raw: [UInt8], folder: Int64, uid: Int64, seen: Bool = false) -> IncomingMessage {
        IncomingMessage(raw: raw, folderId: folder, uid: uid, flags: MessageFlags(seen: seen),
                        arrival: Date(timeIntervalSince1970: 1_790_000_000))
    }
}

extension MailStore {
    /// Rows of the full-text index holding `word` in any column: what ingest wrote and
    /// deletion or retention must remove.
    func indexedCount(_ word: String) throws -> Int {
        searchIndex.waitUntilWritten()
        return try pool.read { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM search.emailSearch WHERE emailSearch MATCH ?",
                             arguments: [FullTextExpression.quoted(word)]) ?? 0
        }
    }
}
