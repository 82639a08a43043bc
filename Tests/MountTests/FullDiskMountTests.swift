import Foundation
import TestSupport
import Testing

/// Fault matrix: the data directory on a full disk (a small tmpfs, filled up). Only this
/// test uses erin's account, so a fresh store's initial sync of it stays small.
@Suite("Fault matrix: the data directory on a full disk", .serialized)
struct FullDiskMountTests {
    @Test("a full disk shows in .status, the store stays intact, the mount serves what it has, and the sync completes once space is freed")
    func fullDisk() async throws {
        try await SharedServers.shared {
            let folder = WriteBack.unique("Full")
            let before = Letter.many("Before full", 20)
            // 2.4 MB of mail, stored about three times (raw, text, search index): more than the
            // WAL left by the first sync can take in place, and, once in the WAL and then in the
            // database, well within the tmpfs once the filler is gone.
            let after = Letter.many("After full", 40, bodyLines: 1_000)
            try await WriteBack.createMailbox("erin", folder)
            try await WriteBack.append(before, user: "erin", mailbox: folder)
            let mount = try MountedMailfs.configured([WriteBackAccount(user: "erin")])
            let data = mount.dataDir.path
            let filler = mount.dataDir.appendingPathComponent("filler").path
            try await Tmpfs.mount(at: mount.dataDir, megabytes: 32)
            try await runThenCleanUp({
                try await mount.startAndWait(for: ["erin/\(folder)": before], account: "erin")
                let fill = try await Shell.run("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=64k", "status=none"])
                #expect(fill.output.contains("No space left"), "the disk is full: \(fill.output)")
                try await WriteBack.append(after, user: "erin", mailbox: folder)
                #expect(try await mount.sh("echo sync > erin/.control").status == 0)

                let shown = try await Poll.until(seconds: 60) { mount.status("last_error", of: "erin")?.contains("disk full") == true }
                #expect(shown, "a clear storage error: \(mount.text("erin/.status"))\n\(mount.text("erin/.log"))")
                #expect(mount.status("phase", of: "erin") == "error")
                #expect(try await Self.integrity(of: data) == "ok", "the store is intact while the disk is full")
                #expect(Set(try await mount.listing("erin/\(folder)")).isSubset(of: (before + after).map(\.fileName)))
                for letter in before.prefix(3) {
                    let read = try await mount.sh("cat 'erin/\(folder)/\(letter.fileName)'")
                    #expect(read.status == 0 && read.output == letter.raw, "served while full: \(read.output.prefix(200))")
                }

                // Retries while the disk stays full change nothing.
                try await Task.sleep(for: .seconds(10))
                #expect(mount.status("phase", of: "erin") == "error", "\(mount.text("erin/.status"))")
                #expect(try await Self.integrity(of: data) == "ok")
                let fullError = mount.status("last_error", of: "erin") ?? ""

                let freed = Date()
                #expect(unlink(filler) == 0)
                // No trigger: the retry backoff (at most 60 s) finds the space.
                let recovered = try await Poll.until(seconds: 150) {
                    let listed = Set(try await mount.listing("erin/\(folder)"))
                    return mount.status("phase", of: "erin") == "idle" && mount.status("last_error", of: "erin") == "none"
                        && listed == Set((before + after).map(\.fileName))
                }
                #expect(recovered, "synced once space is freed: \(mount.text("erin/.status"))\n\(mount.text("erin/.log"))")
                let synced = Date().timeIntervalSince(freed)
                let listed = try await mount.listing("erin/\(folder)")
                let found = Set(listed).intersection((before + after).map(\.fileName)).count
                #expect(listed.count == before.count + after.count, "none lost, none duplicated: \(listed.count)")
                await mount.stop()
                let integrity = try await Self.integrity(of: data)
                #expect(integrity == "ok")

                // The counts docs/FAULTS.md reports.
                print("fault matrix: full disk: last_error: \(fullError); synced \(String(format: "%.0f", synced)) s after space was freed; "
                      + "\(before.count + after.count - found) lost, \(listed.count - found) duplicated; integrity_check: \(integrity)")
            }, cleanUp: {
                await mount.stop()
                await Tmpfs.unmount(mount.dataDir)
                _ = try? await WriteBack.seed(["delete-mailbox", "--user", "erin", folder])
            })
        }
    }

    @Test("mailfs started on a disk that is already full says so and mounts nothing; once space is freed it mounts with every message")
    func startedOnFullDisk() async throws {
        let mount = try MountedMailfs()
        let data = mount.dataDir.path
        let filler = mount.dataDir.appendingPathComponent("filler").path
        try await Tmpfs.mount(at: mount.dataDir, megabytes: 8)
        try await runThenCleanUp({
            try await mount.importMail("mine", from: try StoreFileMountTests.maildir(in: mount.root))
            _ = try await Shell.run("/bin/dd", ["if=/dev/zero", "of=\(filler)", "bs=4k", "status=none"])
            for command in [["status"], ["cache", "clear"]] {
                let result = try await mount.mailfs(command + ["--data-dir", data])
                #expect(result.status == 1 && result.output.contains("disk full: no space left in \(data)"),
                        "mailfs \(command[0]) on a full disk: \(result.output)")
            }
            do {
                try await mount.start()
                Issue.record("mounted on a full disk: \(try await mount.listing("mine/inbox").count) messages")
            } catch {
                #expect(mount.log.contains("disk full: no space left in \(data)"), "\(mount.log)")
                #expect(!mount.isMounted)
            }
            #expect(unlink(filler) == 0)
            try await mount.start()
            #expect(try await mount.listing("mine/inbox").count == 50)
            await mount.stop()
            #expect(try await Self.integrity(of: data) == "ok")
        }, cleanUp: {
            await mount.stop()
            await Tmpfs.unmount(mount.dataDir)
        })
    }

    /// SQLite's `PRAGMA integrity_check` of the store, read-only (the mount may be running).
    static func integrity(of dataDir: String) async throws -> String {
        let script = "import sqlite3, sys; print(sqlite3.connect('file:' + sys.argv[1] + '?mode=ro', uri=True)"
            + ".execute('PRAGMA integrity_check').fetchone()[0])"
        let result = try await Shell.run("/usr/bin/python3", ["-c", script, dataDir + "/mailfs.sqlite"])
        return result.output.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

/// A small tmpfs as a full disk to be: mounted (as root) on an empty directory.
enum Tmpfs {
    static func mount(at directory: URL, megabytes: Int) async throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let result = try await Shell.run("/bin/mount", ["-t", "tmpfs", "-o", "size=\(megabytes)m,mode=0700", "tmpfs", directory.path])
        guard result.status == 0 else { throw MountedMailfs.MountError(message: "mount -t tmpfs: \(result.output)") }
    }

    static func unmount(_ directory: URL) async {
        _ = try? await Shell.run("/bin/umount", ["-l", directory.path])
    }
}
