import Foundation
import TestSupport
import Testing

/// search/ through a real mount: queries as directory names over the demo account, the same
/// files and inodes as everywhere, results that follow the store within a second, saved
/// searches from the config, and malformed queries refused with the reason in `.log`; and
/// a query over an account synced from each server of the matrix.
@Suite("Search directories in the mount", .serialized)
struct SearchMountTests {
    static let savedSearches = """
        [searches]
        unread = "tag:unread"
        budget-mail = "subject:budget"
        """

    func mountedDemo() async throws -> MountedMailfs {
        let mount = try MountedMailfs()
        try await mount.importMail("demo", from: DemoMountTests.demoMail, address: "you@demo.example")
        try mount.writeConfig(Self.savedSearches)
        try await mount.start()
        return mount
    }

    /// The names of the messages `query` finds in the demo account, from the command line.
    func cliNames(_ mount: MountedMailfs, _ query: String) async throws -> Set<String> {
        let result = try await mount.mailfs(["search", query, "--account", "demo", "--data-dir", mount.dataDir.path])
        return Set(result.lines.map { URL(fileURLWithPath: $0).lastPathComponent })
    }

    @Test("a query is a directory of the matching messages: same names, bytes and inodes as in the folders")
    func listAndRead() async throws {
        let mount = try await mountedDemo()
        let listed = try await mount.sh("ls demo/search/'from:alice budget'")
        #expect(listed.status == 0 && !listed.lines.isEmpty, "\(listed.output)")
        #expect(Set(listed.lines) == (try await cliNames(mount, "from:alice budget")))
        let check = try await mount.sh("""
            cd demo/search/'from:alice budget' && for f in *.eml; do
              other=$(find ../../inbox ../../Projects ../../sent ../../threads -name "$f" | head -1)
              [ -n "$other" ] || echo "not in a folder: $f"
              [ "$(stat -c %i "$f")" = "$(stat -c %i "$other")" ] || echo "other inode: $f"
              cmp -s "$f" "$other" || echo "other bytes: $f"
              grep -qi alice "$f" || echo "no alice: $f"
            done
            """)
        #expect(check.status == 0 && check.output.isEmpty, "\(check.output.prefix(2000))")
        let everyAccount = try await mount.sh("ls search/'from:alice budget'")
        #expect(everyAccount.lines == listed.lines.map { "demo - " + $0 })
        let long = try await mount.sh("ls -l demo/search/'tag:unread'")
        let unread = try await cliNames(mount, "tag:unread")
        #expect(long.status == 0 && long.lines.count == unread.count + 1)
        #expect(try await mount.sh("grep -l -i budget search/'date:2026-10-01..2026-10-31 subject:budget'/* | wc -l")
            .lines.first.flatMap { Int($0) } ?? 0 > 0)
    }

    @Test("search/<query>/ of an account synced from the server lists exactly its matching messages, the folder's files",
          arguments: IMAPServerKind.allCases)
    func syncedAccount(kind: IMAPServerKind) async throws {
        try await kind.shared {
            let word = "zq\(UUID().uuidString.prefix(8).lowercased())"
            let (found, other) = ([Letter("Budget \(word)"), Letter("Minutes \(word)")], Letter("Budget"))
            let (mount, folder) = try await MountedMailfs.aliceFolder("Search", holding: found + [other], on: kind)
            let query = "alice/search/subject:\(word)"
            try await expect(Poll.until(seconds: 10) { Set(try await mount.listing(query)) == Set(found.map(\.fileName)) },
                             orExplain: { "\((try? await mount.listing(query)) ?? []): \(mount.text("alice/.log"))" })
            for letter in found {
                let same = try await mount.sh("cmp '\(query)/\(letter.fileName)' 'alice/\(folder)/\(letter.fileName)'"
                                              + " && [ $(stat -c %i '\(query)/\(letter.fileName)') = $(stat -c %i 'alice/\(folder)/\(letter.fileName)') ]")
                #expect(same.status == 0, "the same file as in the folder: \(same.output)")
            }
            #expect(Set(try await mount.listing("search/subject:\(word)")) == Set(found.map { "alice - \($0.fileName)" }))
        }
    }

    @Test("a directory open in a shell gains a message imported while it is open")
    func newMessageAppears() async throws {
        let mount = try await mountedDemo()
        let directory = mount.path("demo/search/giraffe sightings")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        let maildir = mount.root.appendingPathComponent("new-mail")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try TestMessage(from: "Zed Zebra <zed@zoo.example>", to: "you@demo.example", subject: "Giraffe sightings",
                        date: "Tue, 24 Nov 2026 06:00:00 +0000", messageID: "giraffe-1@zoo.example",
                        body: "A giraffe was seen near the lake.\r\n")
            .text.write(to: maildir.appendingPathComponent("new/1.eml"), atomically: true, encoding: .utf8)
        let handle = open(directory, O_RDONLY | O_DIRECTORY)
        #expect(handle >= 0)
        defer { close(handle) }
        try await mount.importMail("demo", from: maildir)
        // The store watcher polls four times a second; the contract is one second (some
        // slack for a busy machine).
        let appeared = try await Poll.until(seconds: 1.5) {
            try FileManager.default.contentsOfDirectory(atPath: directory).contains { $0.hasSuffix("Zed Zebra - Giraffe sightings.eml") }
        }
        #expect(appeared)
        #expect(try await mount.sh("ls search/'giraffe sightings'").lines == ["demo - 2026-11-24 0600 Zed Zebra - Giraffe sightings.eml"])
    }

    @Test("a message marked read leaves tag:unread within a second")
    func readMessageLeaves() async throws {
        let mount = try await mountedDemo()
        let unread = try await mount.sh("ls demo/search/tag:unread").lines
        let file = try #require(unread.first)
        #expect(try await mount.sh("setfattr -n user.mailfs.seen -v 1 \"demo/search/tag:unread/\(file)\"").status == 0)
        let left = try await Poll.until(seconds: 1.5) {
            let inAccount = try await mount.sh("ls demo/search/tag:unread").lines.contains(file)
            let inRoot = try await mount.sh("ls search/unread").lines.contains("demo - " + file)
            return !inAccount && !inRoot
        }
        #expect(left)
        #expect(try await mount.sh("ls demo/search/tag:unread").lines.count == unread.count - 1)
        #expect(try await mount.sh("getfattr --only-values -n user.mailfs.seen \"demo/inbox/\(file)\"").output == "1")
    }

    @Test("a malformed query is ENOENT, with the reason in .log")
    func malformedQuery() async throws {
        let mount = try await mountedDemo()
        let result = try await mount.sh("ls demo/search/'subject:\"open' 2>&1")
        #expect(result.status != 0 && result.output.contains("No such file or directory"), "\(result.output)")
        let log = try await mount.sh("cat demo/.log").output
        #expect(log.contains("search: \"subject:\"open\" is not a query: at character 9: unterminated quote"), "\(log)")
        #expect(try await mount.sh("ls search/'tag:inbox'").status != 0)
        #expect(try await mount.sh("cat demo/.log").output.contains("unknown tag \"inbox\""))
        // Names tools probe for are not queries.
        #expect(try await mount.sh("ls -d demo/search/.git").status != 0)
    }

    @Test("ls search/ lists the saved searches, which list their messages")
    func savedSearches() async throws {
        let mount = try await mountedDemo()
        #expect(try await mount.sh("ls search").lines == ["budget-mail", "unread"])
        #expect(try await mount.sh("ls demo/search").lines == ["budget-mail", "unread"])
        #expect(Set(try await mount.sh("ls -a demo").lines).isSuperset(of: ["search", "inbox", "threads"]))
        #expect(Set(try await mount.sh("ls demo/search/unread").lines) == (try await cliNames(mount, "tag:unread")))
        #expect(Set(try await mount.sh("ls demo/search/budget-mail").lines) == (try await cliNames(mount, "subject:budget")))
        #expect(try await mount.sh("ls search/unread").lines.allSatisfy { $0.hasPrefix("demo - ") })
    }

    @Test("search directories are views: rm, mv and mkdir are refused")
    func views() async throws {
        let mount = try await mountedDemo()
        let file = try #require(try await mount.sh("ls demo/search/tag:unread").lines.first)
        #expect(try await mount.sh("rm \"demo/search/tag:unread/\(file)\" 2>&1").output.contains("Operation not permitted"))
        #expect(try await mount.sh("mv \"demo/search/tag:unread/\(file)\" demo/inbox/ 2>&1").status != 0)
        #expect(try await mount.sh("mkdir demo/search/new 2>&1").status != 0)
        #expect(try await mount.sh("ls demo/search/tag:unread").lines.contains(file))
    }

    @Test("mailfs search prints paths in the running mount, Message-IDs and JSON, with its exit status")
    func commandLine() async throws {
        let mount = try await mountedDemo()
        let data = ["--data-dir", mount.dataDir.path]
        let paths = try await mount.mailfs(["search", "from:alice", "budget"] + data)
        #expect(paths.status == 0 && !paths.lines.isEmpty)
        let mountPoint = mount.mountPoint.resolvingSymlinksInPath().path
        #expect(paths.lines.allSatisfy { $0.hasPrefix(mountPoint + "/demo/") && FileManager.default.fileExists(atPath: $0) },
                "\(paths.output)")
        let ids = try await mount.mailfs(["search", "--output=messages", "--limit", "2", "from:alice"] + data)
        #expect(ids.status == 0 && ids.lines.count == 2 && ids.lines.allSatisfy { $0.hasPrefix("id:") })
        let json = try await mount.mailfs(["search", "--json", "--limit", "1", "from:alice"] + data)
        let records = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        #expect(records?.first?["account"] as? String == "demo" && records?.first?["messageId"] != nil)
        #expect(try await mount.mailfs(["search", "xyzzy-nothing"] + data).status == 1)
        let bad = try await mount.mailfs(["search", "from:alice (budget"] + data)
        #expect(bad.status == 2 && bad.output.contains("at character 12: unmatched (") && bad.output.contains("           ^"),
                "\(bad.output)")
        await mount.stop()
        let offline = try await mount.mailfs(["search", "from:alice", "budget"] + data)
        #expect(offline.lines.allSatisfy { $0.hasPrefix("demo/") } && offline.lines.count == paths.lines.count)
    }
}
