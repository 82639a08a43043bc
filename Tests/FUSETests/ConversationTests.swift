@testable import FUSE
import Activity
import Foundation
import Import
import MailCore
@testable import Store
import TestSupport
import Testing

/// `threads/<thread>/conversation.txt` without a mount: its entry, attributes and text, what
/// a store change does to it, and what the tree refuses of it.
@Suite("A thread's conversation.txt without a mount")
struct ConversationTests {
    let store: MailStore
    let directory: URL
    let tree: MailTree
    static let lunch = "2026-11-20 1432 Alice Smith - Lunch plans.eml"
    static let reply = "2026-11-20 1432 Alice Smith - Re: Lunch plans.eml"

    /// The lunch thread of `MailTreeTests`: the first message unread, the reply read.
    init() throws {
        (store, directory) = try MailStore.temporary()
        let maildir = directory.appendingPathComponent("maildir")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        let body = "Caf=C3=A9 at noon? Zo=C3=AB Laurent =E2=80=94 Atelier\r\n"
        try Data(MailTreeTests.message(id: "lunch@t", subject: "Lunch plans",
                                       headers: ["Content-Type: text/plain; charset=utf-8",
                                                 "Content-Transfer-Encoding: quoted-printable"], body: body))
            .write(to: maildir.appendingPathComponent("cur/1:2,"))
        try Data(MailTreeTests.message(id: "re@t", subject: "Re: Lunch plans", inReplyTo: "lunch@t"))
            .write(to: maildir.appendingPathComponent("cur/2:2,S"))
        _ = try MailboxImporter(store: store.importer).importMail(from: maildir, account: "work")
        tree = MailTree(store: store.tree, activities: AccountActivities(profiles: []))
    }

    func lookup(_ components: String...) throws -> FileAttributes {
        var attributes = try tree.getattr(Node.Directory.root.inode)
        for name in components { attributes = try tree.lookup(parent: attributes.inode, name: name) }
        return attributes
    }

    func thread() throws -> (inode: Inode, id: Int64) {
        let threads = try tree.readdir(try lookup("work", "threads").inode)
        let inode = try #require(threads.first?.attributes.inode)
        guard case .directory(.thread(let id))? = Node(inode: inode) else { throw FSError(ENOENT) }
        return (inode, id)
    }

    func text(_ inode: Inode) throws -> String {
        let opened = try tree.open(inode, flags: O_RDONLY)
        defer { tree.release(inode, handle: opened.handle) }
        var bytes: [UInt8] = []
        while true {
            let chunk = try tree.read(inode, handle: opened.handle, offset: UInt64(bytes.count), size: 4096)
            if chunk.isEmpty { break }
            bytes += chunk
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("a thread lists conversation.txt first, without its attributes; LOOKUP gives 0400, the thread's date and the text's exact size")
    func attributes() throws {
        let (thread, id) = try thread()
        let listing = try tree.readdir(thread)
        #expect(listing.map(\.name) == [MailTree.conversationFileName, Self.lunch, Self.reply])
        #expect(listing.first?.attributesAtLookup == true)
        let file = try tree.lookup(parent: thread, name: MailTree.conversationFileName)
        #expect(file.inode == Node.RenderedFile.conversation(id).inode)
        #expect(file.permissions == 0o400 && file.kind == .regular && file.linkCount == 1)
        let threadEntry = try #require(try store.tree.thread(id: id))
        #expect(file.modified == threadEntry.latestDate)
        let text = try text(file.inode)
        #expect(file.size == UInt64(text.utf8.count))
        #expect(try tree.getattr(file.inode) == file)
    }

    @Test("the text is the thread decoded: head, each message with its file name, quoted-printable read")
    func content() throws {
        let file = try lookup("work", "threads", try tree.readdir(try lookup("work", "threads").inode)[0].name,
                              MailTree.conversationFileName)
        let text = try text(file.inode)
        #expect(text.hasPrefix("Thread: Lunch plans\n"))
        #expect(text.contains("Messages: 2, 1 unread\n"))
        #expect(text.contains("=== 1/2  2026-11-20 14:32 UTC  Alice Smith <alice@example.org>  (unread)\n"))
        #expect(text.contains("File: \(Self.lunch)\n") && text.contains("File: \(Self.reply)\n"))
        #expect(text.contains("Zoë Laurent — Atelier"))
        #expect(!text.contains("=C3=AB"))
    }

    @Test("conversation.txt is in no folder, no unified inbox, no search directory")
    func onlyInThreads() throws {
        for path in [["work", "inbox"], ["inbox"], ["work", "search", "lunch"], ["search", "lunch"]] {
            var inode = Node.Directory.root.inode
            for name in path { inode = try tree.lookup(parent: inode, name: name).inode }
            let names = try tree.readdir(inode).map(\.name)
            #expect(!names.isEmpty && !names.contains { $0.hasSuffix(MailTree.conversationFileName) }, "\(path)")
        }
    }

    @Test("a flag change or a deletion drops the kernel's pages of the conversation, and the text follows")
    func storeChanges() throws {
        let kernel = RecordingInvalidator()
        tree.attach(kernel, trustedFor: .seconds(60))
        let (thread, _) = try thread()
        let file = try tree.lookup(parent: thread, name: MailTree.conversationFileName)
        #expect(try text(file.inode).contains("Messages: 2, 1 unread"))

        let lunch = try tree.lookup(parent: thread, name: Self.lunch)
        try tree.setxattr(lunch.inode, name: "user.mailfs.seen", value: Array("1".utf8))
        tree.storeDidChange()
        #expect(kernel.calls.withLock { $0.inodes }.contains(file.inode), "its pages may hold the old text")
        let read = try text(file.inode)
        #expect(read.contains("Messages: 2, 0 unread") && !read.contains("(unread)"))
        #expect(try tree.getattr(file.inode).size == UInt64(read.utf8.count))

        kernel.calls.withLock { $0 = RecordingInvalidator.Calls() }
        try tree.unlink(parent: try lookup("work", "inbox").inode, name: Self.reply)
        tree.storeDidChange()
        #expect(kernel.calls.withLock { $0.inodes }.contains(file.inode))
        let left = try text(file.inode)
        #expect(left.contains("Messages: 1, 0 unread") && !left.contains(Self.reply))
    }

    @Test("a store change that leaves the thread alone tells the kernel nothing of its conversation")
    func otherChanges() throws {
        let kernel = RecordingInvalidator()
        tree.attach(kernel, trustedFor: .seconds(60))
        let (thread, _) = try thread()
        let file = try tree.lookup(parent: thread, name: MailTree.conversationFileName)
        let lunch = try tree.lookup(parent: thread, name: Self.lunch)
        try tree.setxattr(lunch.inode, name: "user.mailfs.flagged", value: Array("1".utf8))
        tree.storeDidChange()
        #expect(!kernel.calls.withLock { $0.inodes }.contains(file.inode), "a star is not in the text")
    }

    @Test("conversation.txt cannot be written, removed, renamed or given flags")
    func readOnly() throws {
        let (thread, _) = try thread()
        let file = try tree.lookup(parent: thread, name: MailTree.conversationFileName)
        #expect(throws: FSError(EROFS)) { try tree.open(file.inode, flags: O_WRONLY) }
        #expect(throws: FSError(EROFS)) { try tree.open(file.inode, flags: O_RDWR) }
        #expect(throws: FSError(EPERM)) { try tree.unlink(parent: thread, name: MailTree.conversationFileName) }
        #expect(throws: FSError(EPERM)) {
            try tree.rename(parent: thread, name: MailTree.conversationFileName, newParent: thread, newName: "x.txt")
        }
        #expect(throws: FSError(ENOTSUP)) { try tree.setxattr(file.inode, name: "user.mailfs.seen", value: Array("1".utf8)) }
        #expect(throws: FSError(ENODATA)) { try tree.getxattr(file.inode, name: "user.mailfs.seen") }
        #expect(try tree.listxattr(file.inode).isEmpty)
    }

    @Test("a message whose text is not stored says so and names its .eml; its texts kept in the store are shown")
    func partialMessages() throws {
        let account = try store.sync.ensureAccount(name: "remote", address: "me@example.org", isOffline: true).id ?? -1
        let folder = try store.sync.ensureFolder(accountId: account, path: "inbox", imapPath: "INBOX", type: .inbox).id ?? -1
        let kept = PartialContent(header: MailTreeTests.message(id: "big@t", subject: "Big", body: ""),
                                  bodyPlain: "The plain text kept for a big message.", bodyHTML: nil, attachments: [
                                      AttachmentInfo(partID: "2", filename: "plan.pdf", mimeType: "application/pdf",
                                                     encoding: "base64", size: 2048, isInline: false, contentID: nil),
                                  ], size: 900_000)
        let bare = PartialContent(header: MailTreeTests.message(id: "bare@t", subject: "Re: Big", inReplyTo: "big@t", body: ""),
                                  bodyPlain: nil, bodyHTML: nil, attachments: [], size: 800_000)
        _ = try store.sync.ingest([kept, bare].enumerated().map { index, content in
            IncomingMessage(content: .partial(content), folderId: folder, uid: Int64(index + 1), flags: MessageFlags(seen: true),
                            arrival: Date())
        }, accountId: account)
        _ = try store.sync.rethread(accountId: account)

        let threads = try tree.readdir(try lookup("remote", "threads").inode)
        let thread = try #require(threads.first?.attributes.inode)
        let file = try tree.lookup(parent: thread, name: MailTree.conversationFileName)
        let text = try text(file.inode)
        #expect(file.size == UInt64(text.utf8.count))
        #expect(text.contains("The plain text kept for a big message."))
        let attachmentDirectory = "attachments/2026-11-20 1432 Alice Smith - Big/plan.pdf"
        #expect(text.contains("Attachment: plan.pdf (application/pdf, 2 KB) \(attachmentDirectory)"))
        #expect(text.contains("[the text of this message is not stored locally: read \"2026-11-20 1432 Alice Smith - Re: Big.eml\", which downloads it]"))
        #expect(try tree.readdir(try lookup("remote", "attachments", "2026-11-20 1432 Alice Smith - Big").inode)
            .map(\.name) == ["plan.pdf"], "the path it gives is the one the tree serves")
    }
}
