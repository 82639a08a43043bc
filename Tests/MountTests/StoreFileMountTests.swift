import Foundation
import TestSupport
import Testing

/// Fault matrix: the store file damaged or replaced before `mailfs mount`. Every command that
/// opens the store stops with the file's path and what to do; nothing is mounted (never a
/// silently empty tree) and the file is left exactly as it was.
@Suite("Fault matrix: a damaged or foreign store at start")
struct StoreFileMountTests {
    static let metAfterOpen = "random bytes over the pages of its accounts and folders"

    /// Shell commands that damage `$DB` (a store of 50 imported messages, not mounted).
    static let damages = [
        "truncated to nothing": ": > \"$DB\"",
        "truncated to half": "truncate -s $(( $(stat -c %s \"$DB\") / 2 )) \"$DB\"",
        "random bytes over the whole file": "head -c $(stat -c %s \"$DB\") /dev/urandom > \"$DB.new\" && mv \"$DB.new\" \"$DB\"",
        "random bytes over its first 64 KiB": "dd if=/dev/urandom of=\"$DB\" bs=4096 count=16 conv=notrunc status=none",
        "another program's database": "rm \"$DB\" && python3 -c 'import sqlite3, sys; d = sqlite3.connect(sys.argv[1]); "
            + "d.execute(\"CREATE TABLE notes (body TEXT)\"); d.execute(\"INSERT INTO notes VALUES (1)\"); d.commit()' \"$DB\"",
        // Pages SQLite reads only once a command asks for accounts: the file opens, and the
        // damage is met after (`metAfterOpen`).
        metAfterOpen: "python3 -c 'import os, sqlite3, sys; "
            + "d = sqlite3.connect(\"file:\" + sys.argv[1] + \"?mode=ro\", uri=True); size = d.execute(\"PRAGMA page_size\").fetchone()[0]; "
            + "pages = [r[0] for r in d.execute(\"SELECT rootpage FROM sqlite_master WHERE name IN (\\\"account\\\", \\\"folder\\\")\")]; d.close(); "
            + "f = open(sys.argv[1], \"r+b\"); [(f.seek((p - 1) * size), f.write(os.urandom(size))) for p in pages]' \"$DB\"",
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
        #expect(mount.log.contains(database) && !mount.log.contains("SQLite error"), "names the file: \(mount.log)")
        let advice = damage == "another program's database" ? "leaves it untouched" : "mv \(database) \(database).broken"
        #expect(mount.log.contains(advice), "says what to do: \(mount.log)")

        for command in [["status"], ["import", "more", maildir.path], ["forget", "mine"], ["cache", "clear"]] {
            let result = try await mount.mailfs(command + ["--data-dir", mount.dataDir.path])
            #expect(result.status == 1 && result.output.contains(database) && result.output.contains(advice)
                    && !result.output.contains("SQLite error"), "mailfs \(command[0]): \(result.status) \(result.output)")
        }
        // A store whose damage is met only after it opened was opened as any store is.
        guard damage != Self.metAfterOpen else { return }
        #expect(try Data(contentsOf: URL(fileURLWithPath: database)) == before, "the file is left as it was")
    }

    @Test("the pack of raw messages cut short after start: a message past its end fails with EIO (never short), every .status says the store is damaged and what to do, the rest is still served")
    func packCutShortAfterStart() async throws {
        let mount = try MountedMailfs()
        let letters = Letter.many("Stored", 50)
        try await mount.importMail("mine", from: try Self.maildir(in: mount.root, holding: letters))
        let database = mount.dataDir.appendingPathComponent("mailfs.sqlite")
        let pack = mount.dataDir.appendingPathComponent("mailfs-messages.pack")
        // Cut in the middle of one message's bytes: the messages stored before it stay whole.
        let bytes = try Data(contentsOf: pack)
        let stored = try letters.map { letter in
            (letter, offset: try #require(bytes.range(of: Data("Message-ID: \(letter.messageID)".utf8))?.lowerBound,
                                          "the message's bytes are in the pack"))
        }.sorted { $0.offset < $1.offset }
        let (cut, offset) = stored[25]
        #expect(truncate(pack.path, off_t(offset)) == 0)

        try await mount.start()
        #expect(try await mount.sh("cat 'mine/inbox/\(cut.fileName)'").status != 0, "EIO, never other bytes")
        let status = mount.text("mine/.status")
        #expect(status.contains("last_error: the store \(database.path) is damaged (its pack \(pack.path)")
                && status.contains("mv \(database.path) \(database.path).broken"), "\(status)")
        #expect(mount.text(".status").hasSuffix("1 accounts have errors\n"), "\(mount.text(".status"))")
        let first = stored[0].0
        let intact = try await mount.sh("cat 'mine/inbox/\(first.fileName)'")
        #expect(intact.status == 0 && intact.output.hasPrefix(first.raw), "the rest is still served")
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
