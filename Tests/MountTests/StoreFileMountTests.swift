import Foundation
import TestSupport
import Testing

/// Fault matrix: the store file damaged or replaced before `mailfs mount`. Every command that
/// opens the store stops with the file's path and what to do; nothing is mounted (never a
/// silently empty tree) and the file is left exactly as it was.
@Suite("Fault matrix: a damaged or foreign store at start")
struct StoreFileMountTests {
    /// Shell commands that damage `$DB` (a store of 50 imported messages, not mounted).
    static let damages = [
        "truncated to nothing": ": > \"$DB\"",
        "truncated to half": "truncate -s $(( $(stat -c %s \"$DB\") / 2 )) \"$DB\"",
        "random bytes over the whole file": "head -c $(stat -c %s \"$DB\") /dev/urandom > \"$DB.new\" && mv \"$DB.new\" \"$DB\"",
        "random bytes over its first 64 KiB": "dd if=/dev/urandom of=\"$DB\" bs=4096 count=16 conv=notrunc status=none",
        "another program's database": "rm \"$DB\" && python3 -c 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); "
            + "d.execute(\"CREATE TABLE notes (body TEXT)\"); d.execute(\"INSERT INTO notes VALUES (1)\"); d.commit()' \"$DB\"",
    ]

    @Test("mailfs mount, status, import, forget and cache clear refuse the store with its path; nothing is mounted",
          arguments: damages.keys.sorted())
    func refused(_ damage: String) async throws {
        let mount = try MountedMailfs()
        let maildir = try Self.maildir(in: mount.root)
        try await mount.importMail("mine", from: maildir)
        let database = mount.dataDir.appendingPathComponent("mailfs.sqlite").path
        let damaged = try await Shell.run("/bin/sh", ["-c", Self.damages[damage]!], environment: ["DB": database, "PATH": "/usr/bin:/bin"])
        #expect(damaged.status == 0, "\(damaged.output)")
        let before = try Data(contentsOf: URL(fileURLWithPath: database))

        do {
            try await mount.start()
            Issue.record("mounted a store with \(damage): \(try await mount.listing("."))")
            await mount.stop()
        } catch {}
        await mount.waitForExit(seconds: 20)
        #expect(mount.process?.isRunning == false)
        #expect(mount.process?.wait() == 1, "exit status 1")
        #expect(!mount.isMounted)
        #expect(mount.log.contains(database), "names the file: \(mount.log)")
        let advice = damage == "another program's database" ? "leaves it untouched" : "mv \(database) \(database).broken"
        #expect(mount.log.contains(advice), "says what to do: \(mount.log)")

        for command in [["status"], ["import", "more", maildir.path], ["forget", "mine"], ["cache", "clear"]] {
            let result = try await mount.mailfs(command + ["--data-dir", mount.dataDir.path])
            #expect(result.status == 1 && result.output.contains(database) && result.output.contains(advice),
                    "mailfs \(command[0]): \(result.status) \(result.output)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "the file is left as it was")
    }

    @Test("damage in pages the start-up checks never read: the message fails with EIO, and every .status says the store is damaged and what to do")
    func damagedAfterStart() async throws {
        let mount = try MountedMailfs()
        let letters = Letter.many("Stored", 50)
        try await mount.importMail("mine", from: try Self.maildir(in: mount.root, holding: letters))
        let database = mount.dataDir.appendingPathComponent("mailfs.sqlite")
        // The whole page holding the start of one message's stored bytes (its header is only
        // there): random bytes over part of a page may land in message text alone, which
        // SQLite cannot tell from mail.
        var bytes = [UInt8](try Data(contentsOf: database))
        let marker = Array("Message-ID: \(letters[25].messageID)".utf8)
        let offset = try #require(Data(bytes).range(of: Data(marker))?.lowerBound, "the message's bytes are in the file")
        let pageSize = Int(bytes[16]) << 8 | Int(bytes[17])  // the header's page size (big-endian)
        let page = offset / pageSize * pageSize
        for index in page..<page + pageSize { bytes[index] = UInt8.random(in: 0...255) }
        try Data(bytes).write(to: database)

        try await mount.start()
        #expect(try await mount.sh("cat 'mine/inbox/\(letters[25].fileName)'").status != 0, "EIO, never other bytes")
        let status = mount.text("mine/.status")
        #expect(status.contains("last_error: the store \(database.path) is damaged")
                && status.contains("mv \(database.path) \(database.path).broken"), "\(status)")
        #expect(mount.text(".status").hasSuffix("1 accounts have errors\n"), "\(mount.text(".status"))")
        let intact = try await mount.sh("cat 'mine/inbox/\(letters[0].fileName)'")
        #expect(intact.status == 0 && intact.output.hasPrefix(letters[0].raw), "the rest is still served")
        await mount.stop()
    }

    /// A Maildir of `letters` under `root`.
    static func maildir(in root: URL, holding letters: [Letter] = Letter.many("Stored", 50)) throws -> URL {
        let maildir = root.appendingPathComponent("maildir")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        for (index, letter) in letters.enumerated() {
            try (letter.raw + String(repeating: "a line of the body\r\n", count: 100))
                .write(to: maildir.appendingPathComponent("cur/\(index):2,S"), atomically: false, encoding: .utf8)
        }
        return maildir
    }
}
