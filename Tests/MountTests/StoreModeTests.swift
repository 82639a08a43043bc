import Foundation
import TestSupport
import Testing

/// Mail is private whatever the umask: the store never changes the process-wide umask,
/// it gives every file and directory it makes its mode itself. Checked in child
/// processes started under umask 022, so no other test's umask can race it.
@Suite("Store file modes")
struct StoreModeTests {
    /// `mailfs ARGUMENTS` under umask 022.
    static func mailfs(_ mount: MountedMailfs, _ arguments: [String]) async throws -> Shell.Result {
        try await Shell.run("/bin/sh", ["-c", "umask 022; exec \"$0\" \"$@\"", MountedMailfs.binary] + arguments,
                            environment: mount.environment)
    }

    /// Every entry under `directory` whose mode is not 0600 (files) or 0700 (directories),
    /// as `path mode`.
    static func widerThanPrivate(under directory: URL) throws -> [String] {
        let manager = FileManager.default
        let paths = [directory.path] + (try manager.subpathsOfDirectory(atPath: directory.path))
            .map { directory.appendingPathComponent($0).path }
        return try paths.compactMap { path in
            let attributes = try manager.attributesOfItem(atPath: path)
            let mode = (attributes[.posixPermissions] as? Int ?? 0) & 0o777
            let expected = attributes[.type] as? FileAttributeType == .typeDirectory ? 0o700 : 0o600
            return mode == expected ? nil : "\(path) \(String(mode, radix: 8))"
        }
    }

    @Test("under umask 022 the store's files are 0600 and its directories 0700, a backup's too")
    func privateUnderPermissiveUmask() async throws {
        let mount = try MountedMailfs()
        let mbox = mount.root.appendingPathComponent("Lists.mbox")
        let message = TestMessage(from: "Tester <t@example.org>", to: "you@example.org", subject: "Private",
                                  messageID: "private@t", body: "hello\n", lineEnding: .lf).text
        try Data("From t@example.org Sat Nov 21 10:00:00 2026\n\(message)\n".utf8).write(to: mbox)

        let imported = try await Self.mailfs(mount, ["import", "lists", mbox.path, "--data-dir", mount.dataDir.path])
        #expect(imported.status == 0, "\(imported.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: mount.dataDir.path)
        #expect(files.contains("mailfs.sqlite-wal") && files.contains("mailfs-messages.pack"), "\(files)")
        let storeWide = try Self.widerThanPrivate(under: mount.dataDir)
        #expect(storeWide.isEmpty, "\(storeWide)")

        let backup = mount.root.appendingPathComponent("backup")
        let copied = try await Self.mailfs(mount, ["backup", backup.path, "--data-dir", mount.dataDir.path])
        #expect(copied.status == 0, "\(copied.output)")
        let backupWide = try Self.widerThanPrivate(under: backup)
        #expect(backupWide.isEmpty, "\(backupWide)")
    }
}
