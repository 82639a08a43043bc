import Foundation
import Import
import StoreTestSupport
import Testing
@testable import Store

/// Issue point 9: a mailbox of broken and hostile messages imports without a crash and
/// every name it produces is safe.
@Suite("Hostile mailboxes")
struct HostileMailboxTests {
    static var hostileMessages: [[UInt8]] {
        var list: [[UInt8]] = []
        list.append(Array("From: a@x\r\nSubject: truncated\r\nContent-Type: multipart/mixed; boundary=zz\r\n\r\n--zz\r\nContent-Type: text/pl".utf8))
        list.append(Fixture.message(id: "nul@x", subject: "nul\u{0}bytes", body: "a\u{0}b\u{0}c\n"))
        list.append(Array("From: b@x\r\nX-Long: ".utf8) + [UInt8](repeating: 65, count: 2 << 20) + Array("\r\nSubject: long header\r\n\r\nbody\r\n".utf8))
        list.append(Array("From: c@x\r\nSubject: bad \u{FF}".utf8) + [0xFF, 0xFE, 0xC3] + Array(" utf8\r\n\r\n".utf8) + [0x80, 0x81, 0xC0])
        list.append(Fixture.message(id: "2047@x", subject: "=?utf-8?B?####?= =?x-unknown?Q?=ZZ?= =?utf-8?q?=E2=82?="))
        for (n, subject) in ["../../etc/passwd", "/", "..", ".", "\u{1}\u{7}\u{1B}[31mred\u{9B}", String(repeating: "é", count: 1000),
                             "\u{202E}fdp.exe", "   ", "...", "a/b/../../c"].enumerated() {
            list.append(Fixture.message(id: "h\(n)@x", subject: subject, from: "\(subject) <evil@x>"))
        }
        list.append([])
        list.append(Array("no headers at all, just text".utf8))
        return list
    }

    @Test("broken and hostile messages import without a crash and get safe names")
    func hostile() throws {
        let temp = try TemporaryStore()
        let dir = Fixture.temporaryDirectory("hostile")
        defer { try? FileManager.default.removeItem(at: dir) }
        try Fixture.writeMaildir(at: dir, Self.hostileMessages.enumerated().map { ("\($0.offset).x:2,", $0.element) })
        let report = try MailboxImporter(store: temp.store.importer).importMail(from: dir, account: "hostile")
        #expect(report.summary.added == Self.hostileMessages.count)
        #expect(try ListingInvariant.counts(temp.store, account: "hostile", folder: "inbox")
                == .agreeing(on: Set(Self.hostileMessages).count))
        let account = try #require(try temp.store.account(named: "hostile")?.id)
        let inbox = try #require(try temp.store.folders(accountId: account).first?.id)
        let names = try temp.store.tree.messages(inFolder: inbox).map(\.fileName)
            + temp.store.tree.threads(accountId: account).map(\.dirName)
        #expect(names.count > Self.hostileMessages.count)
        for name in names {
            #expect(SafeName.isSafe(name), "unsafe name \(name.debugDescription)")
        }
    }
}

enum SafeName {
    static func isSafe(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".." && !name.hasPrefix(".")
            && name.utf8.count <= 255 && !name.contains("/")
            && !name.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) }
            && !name.hasSuffix(" ") && !name.hasSuffix(".")
    }
}
