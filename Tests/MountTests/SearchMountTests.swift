import Foundation
import Testing

/// search/ through a real mount: queries as directory names over the demo account, the same
/// files and inodes as everywhere, results that follow the store within a second, saved
/// searches from the config, and malformed queries refused with the reason in `.log`.
@Suite("Search directories in the mount", .serialized)
struct SearchMountTests {
    static let savedSearches = """
        [searches]
        unread = "tag:unread"
        budget-mail = "subject:budget"
        """

    func mountedDemo() throws -> MountedMailfs {
        let mount = try MountedMailfs()
        try mount.importMail("demo", from: DemoMountTests.demoMail, address: "you@demo.example")
        try mount.writeConfig(Self.savedSearches)
        try mount.start()
        return mount
    }

    /// The names of the messages `query` finds in the demo account, from the command line.
    func cliNames(_ mount: MountedMailfs, _ query: String) throws -> Set<String> {
        let result = try mount.mailfs(["search", query, "--account", "demo", "--data-dir", mount.dataDir.path])
        return Set(result.lines.map { URL(fileURLWithPath: $0).lastPathComponent })
    }

    @Test("a query is a directory of the matching messages: same names, bytes and inodes as in the folders")
    func listAndRead() throws {
        let mount = try mountedDemo()
        let listed = try mount.sh("ls demo/search/'from:alice budget'")
        #expect(listed.status == 0 && !listed.lines.isEmpty, "\(listed.output)")
        #expect(Set(listed.lines) == (try cliNames(mount, "from:alice budget")))
        let check = try mount.sh("""
            cd demo/search/'from:alice budget' && for f in *.eml; do
              other=$(find ../../inbox ../../Projects ../../sent ../../threads -name "$f" | head -1)
              [ -n "$other" ] || echo "not in a folder: $f"
              [ "$(stat -c %i "$f")" = "$(stat -c %i "$other")" ] || echo "other inode: $f"
              cmp -s "$f" "$other" || echo "other bytes: $f"
              grep -qi alice "$f" || echo "no alice: $f"
            done
            """)
        #expect(check.status == 0 && check.output.isEmpty, "\(check.output.prefix(2000))")
        let everyAccount = try mount.sh("ls search/'from:alice budget'")
        #expect(everyAccount.lines == listed.lines.map { "demo - " + $0 })
        let long = try mount.sh("ls -l demo/search/'tag:unread'")
        let unread = try cliNames(mount, "tag:unread")
        #expect(long.status == 0 && long.lines.count == unread.count + 1)
        #expect(try mount.sh("grep -l -i budget search/'date:2026-10-01..2026-10-31 subject:budget'/* | wc -l")
            .lines.first.flatMap { Int($0) } ?? 0 > 0)
    }

    @Test("a directory open in a shell gains a message imported while it is open")
    func newMessageAppears() throws {
        let mount = try mountedDemo()
        let directory = mount.path("demo/search/giraffe sightings")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
        let maildir = mount.root.appendingPathComponent("new-mail")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try """
            From: Zed Zebra <zed@zoo.example>\r
            To: you@demo.example\r
            Subject: Giraffe sightings\r
            Message-ID: <giraffe-1@zoo.example>\r
            Date: Tue, 24 Nov 2026 06:00:00 +0000\r
            \r
            A giraffe was seen near the lake.\r

            """.write(to: maildir.appendingPathComponent("new/1.eml"), atomically: true, encoding: .utf8)
        let handle = open(directory, O_RDONLY | O_DIRECTORY)
        #expect(handle >= 0)
        defer { close(handle) }
        try mount.importMail("demo", from: maildir)
        // The store watcher polls four times a second; the contract is one second (some
        // slack for a busy machine).
        let appeared = try Poll.until(seconds: 1.5) {
            try FileManager.default.contentsOfDirectory(atPath: directory).contains { $0.hasSuffix("Zed Zebra - Giraffe sightings.eml") }
        }
        #expect(appeared)
        #expect(try mount.sh("ls search/'giraffe sightings'").lines == ["demo - 2026-11-24 0600 Zed Zebra - Giraffe sightings.eml"])
    }

    @Test("a message marked read leaves tag:unread within a second")
    func readMessageLeaves() throws {
        let mount = try mountedDemo()
        let unread = try mount.sh("ls demo/search/tag:unread").lines
        let file = try #require(unread.first)
        #expect(try mount.sh("setfattr -n user.mailfs.seen -v 1 \"demo/search/tag:unread/\(file)\"").status == 0)
        let left = try Poll.until(seconds: 1.5) {
            let inAccount = try mount.sh("ls demo/search/tag:unread").lines.contains(file)
            let inRoot = try mount.sh("ls search/unread").lines.contains("demo - " + file)
            return !inAccount && !inRoot
        }
        #expect(left)
        #expect(try mount.sh("ls demo/search/tag:unread").lines.count == unread.count - 1)
        #expect(try mount.sh("getfattr --only-values -n user.mailfs.seen \"demo/inbox/\(file)\"").output == "1")
    }

    @Test("a malformed query is ENOENT, with the reason in .log")
    func malformedQuery() throws {
        let mount = try mountedDemo()
        let result = try mount.sh("ls demo/search/'subject:\"open' 2>&1")
        #expect(result.status != 0 && result.output.contains("No such file or directory"), "\(result.output)")
        let log = try mount.sh("cat demo/.log").output
        #expect(log.contains("search: \"subject:\"open\" is not a query: at character 9: unterminated quote"), "\(log)")
        #expect(try mount.sh("ls search/'tag:inbox'").status != 0)
        #expect(try mount.sh("cat demo/.log").output.contains("unknown tag \"inbox\""))
        // Names tools probe for are not queries.
        #expect(try mount.sh("ls -d demo/search/.git").status != 0)
    }

    @Test("ls search/ lists the saved searches, which list their messages")
    func savedSearches() throws {
        let mount = try mountedDemo()
        #expect(try mount.sh("ls search").lines == ["budget-mail", "unread"])
        #expect(try mount.sh("ls demo/search").lines == ["budget-mail", "unread"])
        #expect(Set(try mount.sh("ls -a demo").lines).isSuperset(of: ["search", "inbox", "threads"]))
        #expect(Set(try mount.sh("ls demo/search/unread").lines) == (try cliNames(mount, "tag:unread")))
        #expect(Set(try mount.sh("ls demo/search/budget-mail").lines) == (try cliNames(mount, "subject:budget")))
        #expect(try mount.sh("ls search/unread").lines.allSatisfy { $0.hasPrefix("demo - ") })
    }

    @Test("search directories are views: rm, mv and mkdir are refused")
    func views() throws {
        let mount = try mountedDemo()
        let file = try #require(try mount.sh("ls demo/search/tag:unread").lines.first)
        #expect(try mount.sh("rm \"demo/search/tag:unread/\(file)\" 2>&1").output.contains("Operation not permitted"))
        #expect(try mount.sh("mv \"demo/search/tag:unread/\(file)\" demo/inbox/ 2>&1").status != 0)
        #expect(try mount.sh("mkdir demo/search/new 2>&1").status != 0)
        #expect(try mount.sh("ls demo/search/tag:unread").lines.contains(file))
    }

    @Test("mailfs search prints paths in the running mount, Message-IDs and JSON, with its exit status")
    func commandLine() throws {
        let mount = try mountedDemo()
        let data = ["--data-dir", mount.dataDir.path]
        let paths = try mount.mailfs(["search", "from:alice", "budget"] + data)
        #expect(paths.status == 0 && !paths.lines.isEmpty)
        let mountPoint = mount.mountPoint.resolvingSymlinksInPath().path
        #expect(paths.lines.allSatisfy { $0.hasPrefix(mountPoint + "/demo/") && FileManager.default.fileExists(atPath: $0) },
                "\(paths.output)")
        let ids = try mount.mailfs(["search", "--output=messages", "--limit", "2", "from:alice"] + data)
        #expect(ids.status == 0 && ids.lines.count == 2 && ids.lines.allSatisfy { $0.hasPrefix("id:") })
        let json = try mount.mailfs(["search", "--json", "--limit", "1", "from:alice"] + data)
        let records = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]]
        #expect(records?.first?["account"] as? String == "demo" && records?.first?["messageId"] != nil)
        #expect(try mount.mailfs(["search", "xyzzy-nothing"] + data).status == 1)
        let bad = try mount.mailfs(["search", "from:alice (budget"] + data)
        #expect(bad.status == 2 && bad.output.contains("at character 12: unmatched (") && bad.output.contains("           ^"),
                "\(bad.output)")
        mount.stop()
        let offline = try mount.mailfs(["search", "from:alice", "budget"] + data)
        #expect(offline.lines.allSatisfy { $0.hasPrefix("demo/") } && offline.lines.count == paths.lines.count)
    }
}
