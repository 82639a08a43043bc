import Foundation
import Testing

/// The demo account, mounted for real and browsed with the tools people use.
@Suite("Mounted demo account", .serialized)
struct DemoMountTests {
    static let demoMail = MountedMailfs.repository.appendingPathComponent("demo/mail")

    func mountedDemo() async throws -> MountedMailfs {
        let mount = try MountedMailfs()
        try await mount.importMail("demo", from: Self.demoMail, address: "you@demo.example")
        try await mount.start()
        return mount
    }

    @Test("ls, cat and grep -r browse the demo account, and .status files follow the contract")
    func browse() async throws {
        let mount = try await mountedDemo()
        let root = try await mount.sh("ls -a")
        #expect(Set(root.lines).isSuperset(of: [".status", "inbox", "demo"]))
        let account = try await mount.sh("ls -a demo")
        #expect(Set(account.lines).isSuperset(of: [".status", ".log", ".control", "inbox", "sent",
                                                   "threads", "archive", "outbox", "attachments", "Projects"]))
        let inbox = try await mount.sh("ls demo/inbox")
        #expect(inbox.status == 0 && inbox.lines.count > 100)
        #expect(inbox.lines.allSatisfy { $0.hasSuffix(".eml") && $0.hasPrefix("2026-") })

        let status = try await mount.sh("cat demo/.status")
        for key in ["account: demo", "address: you@demo.example", "online: no", "phase: idle", "last_sync: never",
                    "last_error: none", "idle: ", "progress: ", "connections: ", "outbox: 0 queued, 0 sending, 0 failed",
                    "cache: ", "held_deletes: 0", "folder", "uidvalidity"] {
            #expect(status.output.contains(key), "missing \(key) in .status")
        }
        let inboxRow = status.lines.first { $0.hasPrefix("inbox ") }
        #expect(inboxRow?.split(separator: " ").dropFirst(4).first == Substring(String(inbox.lines.count)))
        let rootStatus = try await mount.sh("cat .status")
        #expect(rootStatus.lines.first?.hasPrefix("demo: idle, last sync never, 0 errors") == true)
        #expect(rootStatus.lines.last == "all accounts synced")

        let cli = try await mount.mailfs(["status", "--data-dir", mount.dataDir.path])
        #expect(cli.lines.first?.hasPrefix("demo: idle, last sync never") == true, "\(cli.output)")
        let cliAccount = try await mount.mailfs(["status", "demo", "--data-dir", mount.dataDir.path])
        #expect(cliAccount.output.contains("account: demo") && cliAccount.output.contains("inbox "))
        let grep = try await mount.sh("grep -ril budget demo/threads/")
        #expect(grep.status == 0 && grep.lines.count >= 3)
        let unified = try await mount.sh("ls inbox")
        #expect(unified.lines.count == inbox.lines.count)
        #expect(unified.lines.allSatisfy { $0.hasPrefix("demo - 2026-") })
    }

    @Test("st_size is exact, mtime is the message date, modes are 0700/0600, and partial reads work")
    func attributes() async throws {
        let mount = try await mountedDemo()
        let check = try await mount.sh("""
            for f in demo/inbox/*.eml; do
              s=$(stat -c %s "$f"); n=$(cat "$f" | wc -c)
              [ "$s" = "$n" ] || echo "size mismatch $f $s $n"
              name=$(basename "$f"); when=$(date -u -d @$(stat -c %Y "$f") '+%Y-%m-%d %H%M')
              case "$name" in "$when"*) ;; *) echo "mtime mismatch $f $when";; esac
            done
            """)
        #expect(check.status == 0 && check.output.isEmpty, "\(check.output.prefix(2000))")
        #expect(try await mount.sh("stat -c %a demo demo/inbox demo/threads").lines == ["700", "700", "700"])
        let file = try #require(try await mount.sh("ls demo/inbox | head -1").lines.first)
        #expect(try await mount.sh("stat -c %a \"demo/inbox/\(file)\"").lines == ["600"])
        #expect(try await mount.sh("stat -c %u:%g demo").lines == ["\(getuid()):\(getgid())"])
        let partial = try await mount.sh("""
            f="demo/inbox/\(file)"
            [ "$(head -c 20 "$f")" = "$(cat "$f" | head -c 20)" ] &&
            [ "$(dd if="$f" bs=1 skip=7 count=11 2>/dev/null)" = "$(cat "$f" | tail -c +8 | head -c 11)" ] && echo ok
            """)
        #expect(partial.lines == ["ok"])
    }

    @Test("a message is one inode everywhere it appears, with find seeing every file")
    func oneInode() async throws {
        let mount = try await mountedDemo()
        let file = try #require(try await mount.sh("ls demo/inbox | tail -1").lines.first)
        let inode = try #require(try await mount.sh("stat -c %i \"demo/inbox/\(file)\"").lines.first)
        let places = try await mount.sh("find . -inum \(inode)")
        #expect(places.lines.contains("./demo/inbox/\(file)"))
        #expect(places.lines.contains("./inbox/demo - \(file)"))
        #expect(places.lines.contains { $0.hasPrefix("./demo/threads/") && $0.hasSuffix("/\(file)") })
        let count = try await mount.sh("find demo -type f -name '*.eml' | wc -l")
        #expect((Int(count.lines.first ?? "") ?? 0) > 250)
    }

    @Test("flags are extended attributes, readable and writable")
    func xattrs() async throws {
        let mount = try await mountedDemo()
        let file = try #require(try await mount.sh("ls demo/inbox | head -1").lines.first)
        let path = "\"demo/inbox/\(file)\""
        let all = try await mount.sh("getfattr -d \(path)")
        #expect(all.output.contains("user.mailfs.seen=") && all.output.contains("user.mailfs.flagged="))
        #expect(try await mount.sh("setfattr -n user.mailfs.flagged -v 1 \(path)").status == 0)
        #expect(try await mount.sh("getfattr --only-values -n user.mailfs.flagged \(path)").output == "1")
        #expect(try await mount.sh("setfattr -n user.mailfs.flagged -v 0 \(path)").status == 0)
        #expect(try await mount.sh("getfattr --only-values -n user.mailfs.flagged \(path)").output == "0")
        #expect(try await mount.sh("setfattr -n user.mailfs.seen -v maybe \(path)").status != 0)
    }

    @Test("every demo thread reads as a conversation.txt of exact size; grep finds the decoded words; mailfs show gives the same text")
    func conversations() async throws {
        let mount = try await mountedDemo()
        let check = try await mount.sh("""
            n=0
            for d in demo/threads/*/; do
              f="${d}conversation.txt"; n=$((n+1))
              [ "$(stat -c %s "$f")" = "$(cat "$f" | wc -c)" ] || echo "size mismatch $f"
              [ "$(stat -c %a "$f")" = 400 ] || echo "mode $f"
              [ "$(stat -c %Y "$f")" = "$(stat -c %Y "$d")" ] || echo "mtime $f"
            done
            echo "$n threads"
            """)
        #expect(check.lines.count == 1 && check.lines.last?.hasSuffix(" threads") == true, "\(check.output.prefix(2000))")
        let found = try await mount.sh("grep -rlF 'Zoë Laurent — Atelier' demo/threads/").lines
        #expect(!found.isEmpty && found.allSatisfy { $0.hasSuffix("/conversation.txt") }, "\(found)")
        let thread = try #require(found.first.map { String($0.dropLast("/conversation.txt".count)) })
        let shown = try await mount.mailfs(["show", mount.path(thread)])
        #expect(shown.status == 0 && shown.output == mount.text("\(thread)/conversation.txt"))
    }

    @Test("attachments are listed per message with exact sizes and decoded content")
    func attachments() async throws {
        let mount = try await mountedDemo()
        let dirs = try await mount.sh("ls demo/attachments")
        #expect(dirs.lines.count >= 10)
        let check = try await mount.sh("""
            for f in demo/attachments/*/*; do
              [ "$(stat -c %s "$f")" = "$(cat "$f" | wc -c)" ] || echo "size mismatch $f"
            done
            ls demo/attachments/*/ | grep -c '\\.pdf$'
            """)
        #expect(check.lines.last.flatMap { Int($0) } ?? 0 >= 1, "\(check.output.prefix(2000))")
        #expect(!check.output.contains("mismatch"), "\(check.output.prefix(2000))")
        let csv = try await mount.sh("cat demo/attachments/*/*.csv | head -1")
        #expect(csv.status == 0 && csv.output.contains(","))
    }

    @Test(".control takes sync and refuses anything else; .log records it")
    func control() async throws {
        let mount = try await mountedDemo()
        #expect(try await mount.sh("echo sync > demo/.control").status == 0)
        #expect(try await mount.sh("echo rm-rf > demo/.control").status != 0)
        // Readable, so grep -r over the account exits 0/1, never 2; oversize writes are refused at once.
        #expect(try await mount.sh("cat demo/.control").output.contains("confirm-deletes"))
        #expect(try await mount.sh("grep -r -q no-such-text-anywhere demo/; echo $?").lines == ["1"])
        #expect(try await mount.sh("head -c 100000 /dev/zero | tr '\\0' x > demo/.control").status != 0)
        let status = try await mount.sh("cat demo/.status").output
        for key in ["pending_changes: 0", "change_error: none", "storage_messages: ", "storage_content: 0 MB", "storage_index: "] {
            #expect(status.contains(key), "\(status)")
        }
        #expect(try await mount.sh("cat .status").output.contains("storage: "))
        // A refused command is quoted in .log with its control bytes escaped: `cat .log`
        // must not clear the terminal (issue 43 point 8).
        #expect(try await mount.sh("printf '\\033[2Jboom\\n' > demo/.control").status != 0)
        let log = try await mount.sh("cat demo/.log")
        #expect(log.output.contains("sync: offline account"))
        #expect(log.output.contains("unknown .control command"))
        #expect(!log.output.unicodeScalars.contains("\u{1B}"), "no escape byte in .log: \(log.output.debugDescription)")
        #expect(log.output.contains("\\x1B[2Jboom"), "\(log.output)")
        // Folders take messages (APPEND); a file that is not one fails at close(), which
        // cp reports; views take nothing at all.
        #expect(try await mount.sh("echo x > ../x.eml && cp ../x.eml demo/inbox/new.eml").status != 0)
        #expect(try await mount.sh("ls demo/inbox | grep -c new.eml").lines == ["0"])
        #expect(try await mount.sh("echo x > demo/threads/new.eml").status != 0)
    }
}
