@testable import FUSE
import Activity
import Foundation
import Import
@testable import Store
import TestSupport
import Testing

/// The mounted tree's answers, called directly (no kernel, no mount): names, inodes,
/// attributes, content, flags as extended attributes, write-back of an imported account,
/// and the errno of what the tree refuses.
@Suite("Mail tree without a mount")
struct MailTreeTests {
    let store: MailStore
    let directory: URL
    let tree: MailTree

    init() throws {
        (store, directory) = try MailStore.temporary()
        let maildir = directory.appendingPathComponent("maildir")
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(at: maildir.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
        try Data(Self.message(id: "lunch@t", subject: "Lunch plans")).write(to: maildir.appendingPathComponent("cur/1:2,"))
        try Data(Self.message(id: "re@t", subject: "Re: Lunch plans", inReplyTo: "lunch@t"))
            .write(to: maildir.appendingPathComponent("cur/2:2,S"))
        _ = try MailboxImporter(store: store.importer).importMail(from: maildir, account: "work")
        tree = MailTree(store: store.tree, activities: AccountActivities(profiles: []))
    }

    /// A message from Alice to me, on 20 November 2026.
    static func message(id: String, subject: String, inReplyTo: String? = nil, headers: [String] = [],
                        body: String = "See you at noon.\r\n") -> [UInt8] {
        TestMessage(from: "Alice Smith <alice@example.org>", to: "me@example.org", subject: subject,
                    date: "Fri, 20 Nov 2026 14:32:00 +0000", messageID: id, inReplyTo: inReplyTo, headers: headers,
                    body: body).bytes
    }

    func path(_ components: String...) throws -> FileAttributes {
        var attributes = try tree.getattr(Node.Directory.root.inode)
        for name in components { attributes = try tree.lookup(parent: attributes.inode, name: name) }
        return attributes
    }

    func names(_ components: String...) throws -> [String] {
        var inode = Node.Directory.root.inode
        for name in components { inode = try tree.lookup(parent: inode, name: name).inode }
        return try tree.readdir(inode).map(\.name)
    }

    @Test("the root lists .status, the unified inbox and the account; the account its folders and views")
    func layout() throws {
        #expect(try names() == [".status", "inbox", "search", "work"])
        let account = try names("work")
        #expect(Set(account).isSuperset(of: [".status", ".log", ".control", "inbox", "threads", "attachments"]))
        let inbox = try names("work", "inbox").sorted()
        #expect(inbox == ["2026-11-20 1432 Alice Smith - Lunch plans.eml", "2026-11-20 1432 Alice Smith - Re: Lunch plans.eml"])
        #expect(try names("inbox").allSatisfy { $0.hasPrefix("work - ") })
    }

    @Test("one message is one inode in its folder, its thread and the unified inbox, with its exact size")
    func oneInode() throws {
        let name = "2026-11-20 1432 Alice Smith - Lunch plans.eml"
        let inFolder = try path("work", "inbox", name)
        let thread = try #require(try names("work", "threads").first)
        let inThread = try path("work", "threads", thread, name)
        let unified = try path("inbox", "work - \(name)")
        #expect(inFolder.inode == inThread.inode && inFolder.inode == unified.inode)
        #expect(inFolder.size == UInt64(Self.message(id: "lunch@t", subject: "Lunch plans").count))
        #expect(try names("work", "threads", thread) == [MailTree.conversationFileName, name, "2026-11-20 1432 Alice Smith - Re: Lunch plans.eml"],
                "the reply joined the thread, after its conversation")
    }

    @Test("reading a message gives its exact bytes, at any offset")
    func content() throws {
        let file = try path("work", "inbox", "2026-11-20 1432 Alice Smith - Lunch plans.eml")
        let opened = try tree.open(file.inode, flags: O_RDONLY)
        defer { tree.release(file.inode, handle: opened.handle) }
        let raw = Self.message(id: "lunch@t", subject: "Lunch plans")
        #expect(try tree.read(file.inode, handle: opened.handle, offset: 0, size: 1 << 16) == raw)
        #expect(try tree.read(file.inode, handle: opened.handle, offset: 10, size: 5) == Array(raw[10..<15]))
        #expect(try tree.read(file.inode, handle: opened.handle, offset: UInt64(raw.count), size: 5).isEmpty)
    }

    @Test("a message deleted while open reads whole until it is closed, past a punching pass; opening it again is ENOENT")
    func deletedWhileOpen() throws {
        let file = try path("work", "inbox", "2026-11-20 1432 Alice Smith - Lunch plans.eml")
        guard case .content(.message(let id))? = Node(inode: file.inode) else {
            Issue.record("not a message")
            return
        }
        let raw = Self.message(id: "lunch@t", subject: "Lunch plans")
        let opened = try tree.open(file.inode, flags: O_RDONLY)
        #expect(try tree.read(file.inode, handle: opened.handle, offset: 0, size: 10) == Array(raw[0..<10]))
        try store.pool.write { db in try db.execute(sql: "DELETE FROM email WHERE id = ?", arguments: [id]) }
        try store.packHoles.punchAll()
        #expect(try tree.read(file.inode, handle: opened.handle, offset: 10, size: 1 << 16) == Array(raw[10...]))
        tree.release(file.inode, handle: opened.handle)
        #expect(throws: FSError(ENOENT)) { try tree.open(file.inode, flags: O_RDONLY) }
    }

    @Test("a listed or looked-up message opens from the pack region read with it; after a punching pass, one deleted meanwhile is ENOENT")
    func listedRegions() throws {
        // A name looked up in a folder whose listing is not built comes from the store with its region.
        let lookedUp = try path("work", "inbox", "2026-11-20 1432 Alice Smith - Lunch plans.eml")
        #expect(tree.contentSources.source(lookedUp.inode) != nil)
        tree.storeDidChange()
        #expect(tree.contentSources.source(lookedUp.inode) == nil)
        _ = try names("work", "inbox")
        let lunch = try path("work", "inbox", "2026-11-20 1432 Alice Smith - Lunch plans.eml")
        let reply = try path("work", "inbox", "2026-11-20 1432 Alice Smith - Re: Lunch plans.eml")
        guard case .content(.message(let lunchId))? = Node(inode: lunch.inode), case .content(.message(let replyId))? = Node(inode: reply.inode) else {
            Issue.record("not messages")
            return
        }
        // The listing read the regions; they are the store's own.
        guard case .packed(let listed)? = tree.contentSources.source(lunch.inode) else {
            Issue.record("the listing left no pack region for its message")
            return
        }
        #expect(try store.tree.rawLocation(emailId: lunchId) == .packed(listed))

        try store.pool.write { db in try db.execute(sql: "DELETE FROM email WHERE id = ?", arguments: [replyId]) }
        try store.packHoles.punchAll()
        #expect(throws: FSError(ENOENT)) { try tree.open(reply.inode, flags: O_RDONLY) }
        let opened = try tree.open(lunch.inode, flags: O_RDONLY)
        defer { tree.release(lunch.inode, handle: opened.handle) }
        #expect(try tree.read(lunch.inode, handle: opened.handle, offset: 0, size: 1 << 16)
                == Self.message(id: "lunch@t", subject: "Lunch plans"))
    }

    @Test("flags are user.mailfs attributes; setting one takes effect at once and, offline, is not pending")
    func flags() throws {
        let file = try path("work", "inbox", "2026-11-20 1432 Alice Smith - Lunch plans.eml")
        #expect(try tree.getxattr(file.inode, name: "user.mailfs.seen") == Array("0".utf8))
        try tree.setxattr(file.inode, name: "user.mailfs.seen", value: Array("1".utf8))
        #expect(try tree.getxattr(file.inode, name: "user.mailfs.seen") == Array("1".utf8))
        #expect(try tree.getxattr(file.inode, name: "user.mailfs.pending") == Array("0".utf8))
        #expect(throws: FSError(EINVAL)) { try tree.setxattr(file.inode, name: "user.mailfs.seen", value: Array("maybe".utf8)) }
    }

    @Test("rm of an imported message removes it from the folder at once; unknown names are ENOENT")
    func remove() throws {
        let inbox = try path("work", "inbox")
        try tree.unlink(parent: inbox.inode, name: "2026-11-20 1432 Alice Smith - Lunch plans.eml")
        #expect(try names("work", "inbox") == ["2026-11-20 1432 Alice Smith - Re: Lunch plans.eml"])
        #expect(throws: FSError(ENOENT)) { try tree.lookup(parent: inbox.inode, name: "no such.eml") }
        #expect(throws: FSError(ENOENT)) { try tree.unlink(parent: inbox.inode, name: "no such.eml") }
    }

    @Test("a message being copied into a folder is busy to any other open until its writer closes it")
    func newMessageBusy() throws {
        let inbox = try path("work", "inbox")
        let (attributes, writer) = try tree.create(parent: inbox.inode, name: "note.eml", flags: O_WRONLY)
        #expect(throws: FSError(EBUSY)) { try tree.open(attributes.inode, flags: O_RDONLY) }
        tree.release(attributes.inode, handle: writer.handle)
    }

    @Test("a store change moves folder mtimes on (the kernel drops a listing cached under an older one); threads keep their latest date")
    func storeChangeMovesDirectoryMtimes() throws {
        let thread = try #require(try names("work", "threads").first)
        let before = (inbox: try path("work", "inbox"), thread: try path("work", "threads", thread))
        tree.storeDidChange()
        let once = try path("work", "inbox")
        #expect(once.modified > before.inbox.modified)
        #expect(try tree.getattr(once.inode).modified == once.modified, "lookup and getattr agree")
        tree.storeDidChange()
        #expect(try path("work", "inbox").modified > once.modified, "two changes in a row give two mtimes")
        #expect(try path("work", "threads", thread).modified == before.thread.modified)
    }

    @Test("a quiet mount's release drops the sources of downloaded content; listings, their pack regions and kept attributes stay, and open answers as before")
    func releaseMemory() throws {
        let name = try #require(try names("work", "inbox").first)
        let message = try path("work", "inbox", name)
        let opened = try tree.open(message.inode, flags: O_RDONLY)
        let before = try tree.read(message.inode, handle: opened.handle, offset: 0, size: Int(message.size))
        tree.release(message.inode, handle: opened.handle)
        #expect(tree.contentSources.source(message.inode) != nil)

        let downloaded = Node.ContentFile.message(999).inode
        tree.contentSources.remember(.server(ContentKey(emailId: 999), size: 1, sizeIsExact: true), for: downloaded)

        tree.releaseMemory()
        #expect(tree.contentSources.source(downloaded) == nil, "a download's source goes")
        #expect(tree.contentSources.source(message.inode) != nil, "pack regions stay with the listings that read them")
        let inbox = try path("work", "inbox")
        #expect(tree.listings.listing(inbox.inode) != nil, "listings stay")
        #expect(tree.listings.attributes(message.inode) == message, "kept attributes stay")
        let again = try tree.open(message.inode, flags: O_RDONLY)
        let after = try tree.read(message.inode, handle: again.handle, offset: 0, size: Int(message.size))
        tree.release(message.inode, handle: again.handle)
        #expect(!before.isEmpty && after == before, "the message reads the same after the release")
    }

    @Test("the tree refuses removing a view and making an account")
    func refusals() throws {
        let account = try path("work")
        #expect(throws: FSError(EPERM)) { try tree.rmdir(parent: account.inode, name: "threads") }
        #expect(throws: FSError(EPERM)) { try tree.mkdir(parent: Node.Directory.root.inode, name: "new-account") }
    }

    /// `stat` of a folder answers from the folder rows (a folder's listing can be 10,000
    /// messages to rebuild after every change), and a LOOKUP in a folder whose listing a
    /// change dropped from the store too: both must agree with what the parent listed.
    @Test("a folder's link count is 2 plus its subfolders, the same in its listing entry, its GETATTR and a LOOKUP from the store")
    func folderLinkCounts() throws {
        let account = try path("work")
        let lists = try tree.mkdir(parent: account.inode, name: "Lists")
        let dev = try tree.mkdir(parent: lists.inode, name: "dev")
        _ = try tree.mkdir(parent: dev.inode, name: "old")
        _ = try tree.mkdir(parent: lists.inode, name: "announce")
        let expected = ["Lists": 4, "inbox": 2, "Lists/dev": 3, "Lists/dev/old": 2, "Lists/announce": 2]
        for (folder, links) in expected {
            let components = folder.split(separator: "/").map(String.init)
            let parent = try components.dropLast().reduce(account.inode) { try tree.lookup(parent: $0, name: $1).inode }
            let name = try #require(components.last)
            let entry = try #require(try tree.readdir(parent).first { $0.name == name })
            #expect(entry.attributes.linkCount == UInt32(links), "\(folder) as listed")
            // Fresh trees: nothing remembered from the listings, every answer from the store.
            let fresh = MailTree(store: store.tree, activities: AccountActivities(profiles: []))
            #expect(try fresh.getattr(entry.attributes.inode).linkCount == UInt32(links), "\(folder) by GETATTR")
            let looked = MailTree(store: store.tree, activities: AccountActivities(profiles: []))
            #expect(try looked.lookup(parent: parent, name: name).linkCount == UInt32(links), "\(folder) by LOOKUP")
        }
    }
}

/// A walk over threads/, attachments/ or an account's directories is read ahead
/// (`DirectoryWalk`, `ListingReadAhead`): what it lists must be what listing each
/// directory alone gives.
@Suite("A walk over threads/ and attachments/ without a mount")
struct ThreadWalkTreeTests {
    /// A store with `messages` imported into account "work", and a tree over it.
    static func imported(_ messages: [[UInt8]], folders: [String] = [""]) throws -> (MailStore, MailTree) {
        let (store, directory) = try MailStore.temporary()
        let maildir = directory.appendingPathComponent("maildir")
        for folder in folders {
            for sub in ["cur", "new", "tmp"] {
                try FileManager.default.createDirectory(at: maildir.appendingPathComponent(folder).appendingPathComponent(sub),
                                                        withIntermediateDirectories: true)
            }
        }
        for (index, bytes) in messages.enumerated() {
            let folder = folders[index % folders.count]
            try Data(bytes).write(to: maildir.appendingPathComponent(folder).appendingPathComponent("cur/\(index + 1):2,"))
        }
        _ = try MailboxImporter(store: store.importer).importMail(from: maildir, account: "work")
        return (store, MailTree(store: store.tree, activities: AccountActivities(profiles: [])))
    }

    /// Lists `view` of account "work", then each of its directories in a row, as `find`
    /// does; checks that from the walk's fourth directory on each came with the batch the
    /// fourth loaded, and returns every directory's node and listed names.
    static func walk(_ tree: MailTree, view: String) throws -> [(node: Node?, names: [String])] {
        let account = try tree.lookup(parent: Node.Directory.root.inode, name: "work")
        let directories = try tree.readdir(try tree.lookup(parent: account.inode, name: view).inode)
        return try directories.enumerated().map { index, directory in
            if index >= MailTree.missesForSmallDirectoriesWalk {
                #expect(tree.listings.listing(directory.attributes.inode) != nil, "\(directory.name) came with its batch")
            }
            return (Node(inode: directory.attributes.inode), try tree.readdir(directory.attributes.inode).map(\.name))
        }
    }

    @Test("listing every thread in a row gives each thread's own messages, in order; later threads come with one batch")
    func walkMatchesEachThread() throws {
        var messages: [[UInt8]] = []
        for thread in 0..<12 {
            messages.append(MailTreeTests.message(id: "t\(thread)-0@t", subject: "Topic \(thread)"))
            for reply in 0..<(thread % 3) {
                messages.append(MailTreeTests.message(id: "t\(thread)-\(reply + 1)@t", subject: "Re: Topic \(thread)",
                                                      inReplyTo: "t\(thread)-0@t"))
            }
        }
        let (store, tree) = try Self.imported(messages)
        let walked = try Self.walk(tree, view: "threads")
        #expect(walked.count == 12)
        for (node, names) in walked {
            guard case .directory(.thread(let id))? = node else { Issue.record("not a thread: \(String(describing: node))"); continue }
            #expect(names == [MailTree.conversationFileName] + (try store.tree.messages(inThread: id)).map(\.fileName))
        }
        let listed = walked.reduce(0) { $0 + $1.names.count }
        #expect(listed == 24 + 12, "every message once, in its thread, and each thread's conversation")
    }

    static func withAttachments(id: String, count: Int) -> [UInt8] {
        var body = "--b\r\nContent-Type: text/plain\r\n\r\nSee attached.\r\n"
        for file in 0..<count {
            body += "--b\r\nContent-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"part\(file).pdf\"\r\n"
                + "Content-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n"
        }
        return MailTreeTests.message(id: id, subject: "Files \(id)",
                                     headers: ["MIME-Version: 1.0", "Content-Type: multipart/mixed; boundary=b"],
                                     body: body + "--b--\r\n")
    }

    @Test("listing every attachments/<message>/ in a row gives each message's own attachments; later ones come with one batch")
    func walkMatchesEachMessage() throws {
        let (store, tree) = try Self.imported((0..<10).map { Self.withAttachments(id: "m\($0)@t", count: $0 % 3 + 1) })
        let walked = try Self.walk(tree, view: "attachments")
        #expect(walked.count == 10)
        for (node, names) in walked {
            guard case .directory(.attachmentMessage(let id))? = node else { Issue.record("not a message: \(String(describing: node))"); continue }
            #expect(names == (try store.sync.attachments(ofEmail: id)).map(\.fileName))
        }
        let listed = walked.reduce(0) { $0 + $1.names.count }
        #expect(listed == 19, "every attachment once")
    }

    /// Waits until `tree` holds the listings of `directories` (the read-ahead loads them on
    /// its own thread); false after five seconds.
    static func held(_ directories: [Inode], by tree: MailTree) async throws -> Bool {
        for _ in 0..<500 {
            if directories.allSatisfy({ tree.listings.listing($0) != nil }) { return true }
            try await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    @Test("a walk over more threads than a batch: the read-ahead loads those ahead of it, each as its own listing gives it")
    func readAheadMatchesEachThread() async throws {
        let count = 3 * MailTree.smallDirectoriesBatch
        let (store, tree) = try Self.imported((0..<count).map { MailTreeTests.message(id: "t\($0)@t", subject: "Topic \($0)") })
        let account = try tree.lookup(parent: Node.Directory.root.inode, name: "work")
        let threads = try tree.readdir(try tree.lookup(parent: account.inode, name: "threads").inode).map(\.attributes.inode)
        #expect(threads.count == count)
        for thread in threads.prefix(MailTree.missesForSmallDirectoriesWalk) { _ = try tree.readdir(thread) }
        #expect(try await Self.held(threads, by: tree), "the rest of the walk was read ahead")
        for thread in threads {
            guard case .directory(.thread(let id))? = Node(inode: thread) else { Issue.record("not a thread"); continue }
            #expect(try tree.readdir(thread).map(\.name)
                    == [MailTree.conversationFileName] + (try store.tree.messages(inThread: id)).map(\.fileName))
        }
    }

    @Test("a walk over an account's folders: the read-ahead loads the folders and views after the second")
    func readAheadOverAccount() async throws {
        let folders = ["", ".Alpha", ".Beta", ".Gamma", ".Delta"]
        let (store, tree) = try Self.imported((0..<20).map { Self.withAttachments(id: "m\($0)@t", count: 1) }, folders: folders)
        let account = try tree.lookup(parent: Node.Directory.root.inode, name: "work")
        let directories = try tree.readdir(account.inode).filter { $0.attributes.kind == .directory }
        let walked = directories.filter { entry in
            switch Node(inode: entry.attributes.inode) {
            case .directory(.folder)?, .directory(.threads)?, .directory(.attachments)?, .directory(.archive)?: return true
            case .directory?, .content?, .generated?, .rendered?, .control?, .outboxItem?, .newMessage?, nil: return false
            }
        }
        #expect(walked.count == folders.count + 3)
        for entry in walked.prefix(MailTree.missesForAccountWalk) { _ = try tree.readdir(entry.attributes.inode) }
        #expect(try await Self.held(walked.map(\.attributes.inode), by: tree), "the rest of the account was read ahead")
        let fresh = MailTree(store: store.tree, activities: AccountActivities(profiles: []))
        for entry in walked {
            #expect(try tree.readdir(entry.attributes.inode) == (try fresh.readdir(entry.attributes.inode)), "\(entry.name)")
        }
    }

    /// The kernel fills a cached listing under the directory's mtime and drops it when a
    /// later GETATTR says otherwise: a directory whose GETATTR disagreed with its entry was
    /// listed again on every `find`.
    @Test("GETATTR of a thread or attachments/<message>/ directory gives the mtime its listing entry gave")
    func directoryAttributesAgreeWithListings() throws {
        let (store, tree) = try Self.imported((0..<4).map { Self.withAttachments(id: "m\($0)@t", count: 1) })
        let account = try tree.lookup(parent: Node.Directory.root.inode, name: "work")
        for view in ["threads", "attachments"] {
            let entries = try tree.readdir(try tree.lookup(parent: account.inode, name: view).inode)
            #expect(entries.count == 4)
            // A fresh tree: nothing remembered from the listing, every answer from the store.
            let fresh = MailTree(store: store.tree, activities: AccountActivities(profiles: []))
            for entry in entries {
                let asked = try fresh.getattr(entry.attributes.inode)
                #expect(asked.modified == entry.attributes.modified, "\(view)/\(entry.name)")
                #expect(asked.kind == .directory)
            }
        }
    }
}
