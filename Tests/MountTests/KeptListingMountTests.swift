import Foundation
import TestSupport
import Testing

/// A large folder's listing is kept in a file beside the store and read by the next
/// mount's first `ls`; changes made in between, by an import or through the mount, must
/// show all the same.
@Suite("Large folders' kept listings, across mounts", .serialized)
struct KeptListingMountTests {
    /// An mbox of messages `first...last`, one a minute.
    static func mbox(_ messages: ClosedRange<Int>) -> Data {
        let text = messages.map { n in
            let date = "Sat, 21 Nov 2026 \(10 + n / 60 % 10):\(String(format: "%02d", n % 60)):00 +0000"
            let message = TestMessage(from: "Tester <t@example.org>", to: "you@example.org", subject: "Report \(n)", date: date,
                                      messageID: "report-\(n)@example.org", body: "report \(n)\n", lineEnding: .lf)
            return "From t@example.org Sat Nov 21 10:00:00 2026\n" + message.text + "\n"
        }
        return Data(text.joined().utf8)
    }

    @Test("ls after a remount shows an import made meanwhile, an rm made through the mount and a change made to the store directly")
    func changesBetweenMounts() async throws {
        let mount = try MountedMailfs()
        let file = mount.root.appendingPathComponent("Reports.mbox")
        try Self.mbox(1...1_100).write(to: file)
        try await mount.importMail("work", from: file)
        let kept = mount.dataDir.appendingPathComponent("listings")
        let keptFiles = try FileManager.default.contentsOfDirectory(atPath: kept.path)
        #expect(keptFiles.count == 1, "the import keeps the listing of its one large folder: \(keptFiles)")

        try await mount.start()
        #expect(try await mount.sh("ls work/Reports | wc -l").lines == ["1100"])
        await mount.stop()

        try Self.mbox(1_101...1_105).write(to: file)
        try await mount.importMail("work", from: file)
        try await mount.start()
        #expect(try await mount.sh("ls work/Reports | wc -l").lines == ["1105"])
        #expect(try await mount.sh("ls work/Reports | grep -c 'Report 1105'").lines == ["1"])
        let first = try #require(try await mount.sh("ls work/Reports | grep 'Report 1\\.eml$'").lines.first)
        _ = try await mount.sh("rm 'work/Reports/\(first)'")
        #expect(try await mount.sh("ls work/Reports | wc -l").lines == ["1104"])
        await mount.stop()

        try await mount.start()
        #expect(try await mount.sh("ls work/Reports | wc -l").lines == ["1104"])
        #expect(try await mount.sh("ls work/Reports | grep -c 'Report 1\\.eml$'").lines == ["0"])
        await mount.stop()

        // Nothing of mailfs runs to keep the listing again: only its version tells it is old.
        try await KernelCacheMountTests.changeStore(mount, """
            DELETE FROM emailFolder WHERE emailId = (SELECT id FROM email WHERE fileName LIKE '%Report 2.eml');
            UPDATE email SET sizeBytes = 12345 WHERE fileName LIKE '%Report 3.eml';
            """)
        try await mount.start()
        #expect(try await mount.sh("ls work/Reports | wc -l").lines == ["1103"])
        #expect(try await mount.sh("stat -c %s work/Reports/*'Report 3.eml'").lines == ["12345"])
        await mount.stop()
    }
}
