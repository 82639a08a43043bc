import Foundation
import TestSupport
import Testing

/// Fault matrix: the store's write-ahead log (`mailfs.sqlite-wal`). However the mount is
/// stopped, the files the README names for a backup are then the whole store; a log
/// deleted, emptied, cut or garbled after a crash is refused at the next start, never a
/// silently older store; `mailfs backup` copies the store while it is mounted.
@Suite("Fault matrix: the store's write-ahead log")
struct StoreLogMountTests {
    enum Stop: String, CaseIterable, Sendable {
        case fusermount, sigterm, sigint
    }

    @Test("after fusermount3 -u, SIGTERM or SIGINT, mailfs.sqlite and mailfs-messages.pack alone hold the last folder and its moves",
          arguments: Stop.allCases)
    func documentedFilesAfterStop(_ stop: Stop) async throws {
        let (mount, letters) = try await Self.mountedImport()
        let moved = try await Self.moveIntoNewFolder(mount, letters)
        switch stop {
        case .fusermount: await mount.stop()
        case .sigterm: mount.process?.signal(SIGTERM)
        case .sigint: mount.process?.signal(SIGINT)
        }
        await mount.waitForExit(seconds: 20)
        #expect(mount.process?.isRunning == false && mount.process?.wait() == 0, "\(stop) ends the mount cleanly: \(mount.log)")
        #expect(!mount.isMounted)

        let restored = try MountedMailfs()
        try Self.copy(["mailfs.sqlite", "mailfs-messages.pack"], from: mount.dataDir, to: restored.dataDir)
        try await restored.start()
        let kept = try await restored.listing("mine/Kept")
        let inbox = try await restored.listing("mine/inbox")
        print("fault matrix: \(stop) then a copy of the two files: \(kept.count) of \(moved.count) moves, "
              + "\(inbox.count + kept.count) of \(letters.count) messages")
        #expect(Set(kept) == Set(moved.map(\.fileName)), "the folder made and the moves before the stop")
        #expect(inbox.count == letters.count - moved.count)
        await restored.stop()
    }

    /// Shell commands that damage the log of `$DB` after a `kill -9`.
    static let logDamages = [
        "deleted": "rm \"$DB-wal\"",
        "emptied": ": > \"$DB-wal\"",
        "cut in half": "truncate -s $(( $(stat -c %s \"$DB-wal\") / 2 )) \"$DB-wal\"",
        "garbled in the middle": "dd if=/dev/urandom of=\"$DB-wal\" bs=1 seek=$(( $(stat -c %s \"$DB-wal\") / 2 )) count=64 "
            + "conv=notrunc status=none",
        "deleted with its index": "rm \"$DB-wal\" \"$DB-shm\"",
    ]

    @Test("kill -9, then the log deleted, emptied, cut or garbled: every command refuses with both files and how to go on, the log left as it was; --accept-lost-changes mounts",
          arguments: logDamages.keys.sorted())
    func logDamagedAtStart(_ damage: String) async throws {
        let (mount, letters) = try await Self.mountedImport()
        _ = try await Self.moveIntoNewFolder(mount, letters)
        #expect(await mount.crash(), "the mount was running")
        let database = mount.dataDir.appendingPathComponent("mailfs.sqlite").path
        let log = URL(fileURLWithPath: database + "-wal")
        #expect(((try? Data(contentsOf: log))?.count ?? 0) > 0, "the log holds the changes")
        let damaged = try await Shell.run("/bin/sh", ["-c", Self.logDamages[damage]!], environment: ["DB": database, "PATH": "/usr/bin:/bin"])
        #expect(damaged.status == 0, "\(damaged.output)")
        let before = try? Data(contentsOf: log)

        do {
            try await mount.start()
            Issue.record("mounted a store whose log was \(damage): \(try await mount.listing("mine"))")
            await mount.stop()
        } catch {}
        await mount.waitForExit(seconds: 20)
        #expect(mount.process?.isRunning == false && mount.process?.wait() == 1, "exit status 1")
        #expect(!mount.isMounted)
        #expect(mount.log.contains(log.path) && mount.log.contains("--accept-lost-changes"), "names the log, says how to go on: \(mount.log)")
        var refused = 1
        for command in [["status"], ["cache", "clear"], ["backup", mount.root.appendingPathComponent("backup").path]] {
            let result = try await mount.mailfs(command + ["--data-dir", mount.dataDir.path])
            #expect(result.status == 1 && result.output.contains(log.path), "mailfs \(command[0]): \(result.status) \(result.output)")
            if result.status == 1 { refused += 1 }
        }
        #expect((try? Data(contentsOf: log)) == before, "the log is left as it was")

        try await mount.start(extraArguments: ["--accept-lost-changes"])
        let inbox = try await mount.listing("mine/inbox")
        print("fault matrix: kill -9 then the log \(damage): \(refused) of 4 commands refused; accepted, \(inbox.count) in inbox/")
        #expect(!inbox.isEmpty, "the imported mail, which the file holds")
        await mount.stop()
    }

    @Test("kill -9, then a normal start with the log as the crash left it: mounted with every change, without a word")
    func crashThenRestart() async throws {
        let (mount, letters) = try await Self.mountedImport()
        let moved = try await Self.moveIntoNewFolder(mount, letters)
        #expect(await mount.crash(), "the mount was running")
        try await mount.start()
        #expect(Set(try await mount.listing("mine/Kept")) == Set(moved.map(\.fileName)))
        #expect(!mount.log.contains("write-ahead log"), "\(mount.log)")
        await mount.stop()
    }

    @Test("mailfs backup while mounted: a new directory that mounts as the store was then; an existing one is refused and left as it was")
    func backupWhileMounted() async throws {
        let (mount, letters) = try await Self.mountedImport()
        let moved = try await Self.moveIntoNewFolder(mount, letters)
        let destination = mount.root.appendingPathComponent("backup")
        let backup = try await mount.mailfs(["backup", destination.path, "--data-dir", mount.dataDir.path])
        #expect(backup.status == 0 && backup.output.contains("backed up into \(destination.path)"), "\(backup.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: destination.path).sorted()
        #expect(files == ["mailfs-messages.pack", "mailfs.sqlite"], "\(files)")
        // After the backup: not in it.
        let later = letters.filter { !moved.contains($0) }.prefix(5)
        #expect(try await mount.sh(later.map { "mv 'mine/inbox/\($0.fileName)' mine/Kept/" }.joined(separator: " && ")).status == 0)

        let written = try Data(contentsOf: destination.appendingPathComponent("mailfs.sqlite"))
        let again = try await mount.mailfs(["backup", destination.path, "--data-dir", mount.dataDir.path])
        #expect(again.status == 1 && again.output.contains("not empty"), "\(again.output)")
        #expect(try Data(contentsOf: destination.appendingPathComponent("mailfs.sqlite")) == written, "left as it was")
        await mount.stop()

        let restored = try MountedMailfs()
        try Self.copy(files, from: destination, to: restored.dataDir)
        try await restored.start()
        #expect(Set(try await restored.listing("mine/Kept")) == Set(moved.map(\.fileName)), "the moves before the backup only")
        #expect(try await restored.listing("mine/inbox").count == letters.count - moved.count)
        await restored.stop()
    }

    // MARK: - Helpers

    /// A mount of 50 imported messages.
    static func mountedImport() async throws -> (MountedMailfs, [Letter]) {
        let mount = try MountedMailfs()
        let letters = Letter.many("Logged", 50)
        try await mount.importMail("mine", from: try StoreFileMountTests.maildir(in: mount.root, holding: letters))
        try await mount.start()
        return (mount, letters)
    }

    /// The changes issue 43 lost: a new folder, and eleven messages moved into it.
    static func moveIntoNewFolder(_ mount: MountedMailfs, _ letters: [Letter]) async throws -> [Letter] {
        let moved = Array(letters.prefix(11))
        let moves = moved.map { "mv 'mine/inbox/\($0.fileName)' mine/Kept/" }.joined(separator: " && ")
        let result = try await mount.sh("mkdir mine/Kept && \(moves)")
        #expect(result.status == 0, "\(result.output)")
        return moved
    }

    static func copy(_ names: [String], from source: URL, to destination: URL) throws {
        try FileManager.default.createDirectory(at: destination, withIntermediateDirectories: true)
        for name in names {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: destination.appendingPathComponent(name))
        }
    }
}
