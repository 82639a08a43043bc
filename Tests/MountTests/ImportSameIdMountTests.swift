import Foundation
import TestSupport
import Testing

/// Issue 11, "no message is ever hidden", as a user meets it: `mailfs import` of an mbox
/// whose messages share a Message-ID, then `ls`, `.status` and the files themselves.
@Suite("Imported messages sharing a Message-ID, through the mount", .serialized)
struct ImportSameIdMountTests {
    static func message(id: String?, subject: String, body: String) -> String {
        TestMessage(from: "Tester <t@example.org>", to: "you@example.org", subject: subject, messageID: id, body: body,
                    lineEnding: .lf).text
    }

    @Test("a 1.8 MB torture test and a 3 KB fragment of it are both listed; ls, .status and the mbox agree")
    func tortureAndFragment() async throws {
        let mount = try MountedMailfs()
        let torture = Self.message(id: "torture@t", subject: "Torture test",
                                   body: (0..<75_000).map { "torture line \($0)\n" }.joined())
        let cut = torture.utf8.prefix(3000).lastIndex(of: 10).map { torture.utf8.index(after: $0) } ?? torture.utf8.endIndex
        let fragment = String(torture[..<cut])
        let resent = Self.message(id: "torture@t", subject: "Torture test", body: "resent\n")
        let bare = [Self.message(id: nil, subject: "No id", body: "one\n"), Self.message(id: nil, subject: "No id", body: "two\n")]
        // Six entries, five distinct messages: the fragment is there twice, byte for byte.
        let entries = [torture, fragment, resent] + bare + [fragment]
        let file = mount.root.appendingPathComponent("Torture.mbox")
        let mbox = entries.map { "From t@example.org Sat Nov 21 10:00:00 2026\n" + $0 + ($0.hasSuffix("\n") ? "" : "\n") + "\n" }
        try Data(mbox.joined().utf8).write(to: file)

        let output = try await mount.importMail("lists", from: file)
        #expect(output.contains("5 added") && output.contains("1 already present"), "\(output)")
        try await mount.start()
        let names = try await mount.sh("ls lists/Torture").lines
        #expect(names.count == 5 && Set(names).count == 5, "\(names)")
        #expect(try await mount.sh("awk '$1 == \"Torture\" { print $5 }' lists/.status").lines == ["5"])
        let sizes = try await mount.sh("stat -c %s lists/Torture/*").lines.compactMap(Int.init)
        #expect(sizes.max() == torture.utf8.count, "the torture test is listed whole, not hidden behind its fragment")
        #expect(try await mount.sh("cat lists/Torture/* | grep -c '^torture line 74999$'").lines == ["1"])
    }
}
