import Foundation
import TestSupport
import Testing

/// `threads/<thread>/conversation.txt` in a real mount: exact sizes, live changes through the
/// kernel's caches, decoded text for grep, and what the tree refuses of it.
@Suite("conversation.txt in a mount", .serialized)
struct ConversationMountTests {
    static let root = "budget@t"

    /// A thread of three: the root unread, in quoted-printable; a read reply in base64; a
    /// read reply in HTML only.
    static func thread() -> [String: [UInt8]] {
        let qp = ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: quoted-printable"]
        let base64 = ["Content-Type: text/plain; charset=utf-8", "Content-Transfer-Encoding: base64"]
        let html = ["Content-Type: text/html; charset=utf-8"]
        let encoded = Data("The quarterly figures are attached.\r\n".utf8).base64EncodedString()
        return [
            "1:2,": LiveMountTests.message(root, subject: "Budget 2027", date: "Sat, 21 Nov 2026 10:00:00 +0000",
                                           headers: qp, body: "Signed, Zo=C3=AB Laurent =E2=80=94 Atelier\r\n"),
            "2:2,S": LiveMountTests.message("r1@t", subject: "Re: Budget 2027", date: "Sat, 21 Nov 2026 11:00:00 +0000",
                                            inReplyTo: root, headers: base64, body: encoded + "\r\n"),
            "3:2,S": LiveMountTests.message("r2@t", subject: "Re: Budget 2027", date: "Sat, 21 Nov 2026 12:00:00 +0000",
                                            inReplyTo: root, headers: html,
                                            body: "<html><body><p>Inventory&nbsp;<b>complete</b></p></body></html>\r\n"),
        ]
    }

    static let rootFile = "2026-11-21 1000 Tester - Budget 2027.eml"
    static let replyFile = "2026-11-21 1100 Tester - Re: Budget 2027.eml"

    func mounted() async throws -> (MountedMailfs, conversation: String) {
        let mount = try MountedMailfs()
        let maildir = mount.root.appendingPathComponent("thread")
        try LiveMountTests.writeMaildir(maildir, Self.thread())
        try await mount.importMail("live", from: maildir)
        try await mount.start()
        let threads = try await mount.sh("ls live/threads").lines
        #expect(threads.count == 1)
        return (mount, "live/threads/\(try #require(threads.first))/conversation.txt")
    }

    @Test("a thread directory holds conversation.txt: 0400, the thread's date, a size that is what cat reads, grep finds decoded words")
    func readable() async throws {
        let (mount, conversation) = try await mounted()
        #expect(try await mount.sh("ls \"$(dirname '\(conversation)')\"").lines.first == "2026-11-21 1000 Tester - Budget 2027.eml")
        #expect(try await mount.sh("ls \"$(dirname '\(conversation)')\" | grep -c conversation.txt").lines == ["1"])
        let stat = try await mount.sh("stat -c '%s %a %Y' '\(conversation)'").lines.first?.split(separator: " ")
        let text = mount.text(conversation)
        #expect(stat?.first.map(String.init) == String(text.utf8.count), "st_size is the bytes cat reads")
        #expect(stat?.dropFirst().first == "400")
        #expect(stat?.last == "1795262400", "the thread's latest date, 2026-11-21 12:00 UTC")
        #expect(text.hasPrefix("Thread: Budget 2027\n") && text.contains("Messages: 3, 1 unread"))
        #expect(text.contains("File: \(Self.rootFile)"))
        for words in ["Zoë Laurent — Atelier", "quarterly figures", "Inventory complete"] {
            let found = try await mount.sh("grep -rlF '\(words)' live/threads/").lines
            #expect(found == [conversation], "\(words): \(found)")
        }
        #expect(try await mount.sh("ls live/inbox live/search/Budget inbox | grep -c conversation || true").lines == ["0"])
    }

    @Test("a flag swap that keeps its size and date, a cp into a folder and an rm each show in conversation.txt at once")
    func live() async throws {
        let (mount, conversation) = try await mounted()
        let before = mount.text(conversation)
        #expect(before.contains("=== 1/3  2026-11-21 10:00 UTC  Tester <t@example.org>  (unread)\n"))
        let size = try await mount.sh("stat -c %s '\(conversation)'").output

        // The unread message changes, not the count, the size or the date: only dropping the
        // kernel's cached pages shows it.
        #expect(try await mount.sh("""
            setfattr -n user.mailfs.seen -v 1 'live/inbox/\(Self.rootFile)' &&
            setfattr -n user.mailfs.seen -v 0 'live/inbox/\(Self.replyFile)'
            """).status == 0)
        var started = Date()
        try await expect(Poll.until(seconds: 10, every: .milliseconds(20)) {
            mount.text(conversation).contains("=== 2/3  2026-11-21 11:00 UTC  Tester <t@example.org>  (unread)\n")
        }, orExplain: { mount.text(conversation) })
        print("conversation.txt after a flag change: \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        #expect(try await mount.sh("stat -c %s '\(conversation)'").output == size)
        #expect(mount.text(conversation).contains("Messages: 3, 1 unread"))

        let late = LiveMountTests.message("r3@t", subject: "Re: Budget 2027", date: "Sat, 21 Nov 2026 13:00:00 +0000",
                                          inReplyTo: Self.root, body: "Copied in late.\r\n")
        let copy = mount.root.appendingPathComponent("late.eml")
        try Data(late).write(to: copy)
        started = Date()
        #expect(try await mount.sh("cp '\(copy.path)' live/inbox/").status == 0)
        try await expect(Poll.until(seconds: 10, every: .milliseconds(20)) {
            mount.text(conversation).contains("Copied in late.")
        }, orExplain: { mount.text(conversation) })
        print("conversation.txt after cp into a folder: \(String(format: "%.2f", Date().timeIntervalSince(started))) s")
        #expect(try await mount.sh("stat -c %s '\(conversation)'").output == "\(mount.text(conversation).utf8.count)\n")

        #expect(try await mount.sh("rm 'live/inbox/\(Self.replyFile)'").status == 0)
        try await expect(Poll.until(seconds: 10, every: .milliseconds(20)) {
            !mount.text(conversation).contains(Self.replyFile)
        }, orExplain: { mount.text(conversation) })
        #expect(mount.text(conversation).contains("Messages: 3, 0 unread"))
    }

    @Test("a reply arriving by sync joins its thread's conversation.txt")
    func arrivesBySync() async throws {
        let kind = IMAPServerKind.dovecot
        try await kind.shared {
            let first = Letter("Conversation")
            let (mount, folder) = try await MountedMailfs.seededFolder(
                "Talk", holding: [first], account: WriteBackAccount(user: "bob", kind: kind))
            let thread = try #require(try await mount.sh("ls bob/threads | grep -F '\(first.subject)'").lines.first)
            let conversation = "bob/threads/\(thread)/conversation.txt"
            #expect(mount.text(conversation).contains("Messages: 1, 1 unread"))

            var reply = Letter("Re: reply")
            reply.inReplyTo = first.id
            reply.body = "An answer that arrived by sync.\r\n"
            try await WriteBack.append([reply], user: "bob", mailbox: folder, on: kind)
            #expect(try await mount.sh("echo sync > bob/.control").status == 0)
            try await expect(Poll.until(seconds: 15, every: .milliseconds(50)) {
                mount.text(conversation).contains("An answer that arrived by sync.")
            }, orExplain: { "\(mount.text(conversation))\n\(mount.text("bob/.log"))" })
            #expect(mount.text(conversation).contains("Messages: 2, 2 unread"))
            #expect(try await mount.sh("stat -c %s '\(conversation)'").output == "\(mount.text(conversation).utf8.count)\n")
        }
    }

    @Test("conversation.txt cannot be written, removed or renamed")
    func readOnly() async throws {
        let (mount, conversation) = try await mounted()
        let before = mount.text(conversation)
        #expect(try await mount.sh("echo x > '\(conversation)'").status != 0)
        #expect(try await mount.sh("echo x >> '\(conversation)'").status != 0)
        let removed = try await mount.sh("rm -f '\(conversation)' 2>&1")
        #expect(removed.status != 0 && removed.output.contains("Operation not permitted"), "\(removed.output)")
        #expect(try await mount.sh("mv '\(conversation)' '\(conversation).old'").status != 0)
        #expect(try await mount.sh("setfattr -n user.mailfs.seen -v 1 '\(conversation)'").status != 0)
        #expect(mount.text(conversation) == before)
    }
}
