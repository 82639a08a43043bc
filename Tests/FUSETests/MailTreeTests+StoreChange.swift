@testable import FUSE
import Foundation
@testable import Store
import Synchronization
import Testing

/// What a store change tells the kernel, recorded instead of sent.
final class RecordingInvalidator: KernelCacheInvalidator {
    struct Calls {
        var entries: [(parent: Inode, name: String)] = []
        /// In the order they were told.
        var inodes: [Inode] = []
        var attributes: Set<Inode> = []
    }

    let calls = Mutex(Calls())

    func invalidateEntry(parent: Inode, name: String) { calls.withLock { $0.entries.append((parent, name)) } }
    func invalidateInode(_ inode: Inode) { calls.withLock { $0.inodes.append(inode) } }
    func invalidateAttributes(_ inode: Inode) { calls.withLock { _ = $0.attributes.insert(inode) } }
}

extension MailTreeTests {
    @Test("a store change rebuilds the listings the kernel was sent within its trust, drops the others unbuilt, and tells it about both")
    func storeChangeRebuildsOnlyTrustedListings() throws {
        let kernel = RecordingInvalidator()
        let inbox = try path("work", "inbox").inode
        let threadName = try #require(try names("work", "threads").first)
        let thread = try path("work", "threads", threadName).inode
        let reply = "2026-11-20 1432 Alice Smith - Re: Lunch plans.eml"
        let first = try path("work", "inbox", "2026-11-20 1432 Alice Smith - Lunch plans.eml").inode
        #expect(try tree.readdir(thread).map(\.name).contains(reply))
        tree.sentListingPage(of: thread)
        let threadSent = ContinuousClock.now
        Thread.sleep(forTimeInterval: 1)
        #expect(try tree.readdir(inbox).map(\.name).contains(reply))
        tree.sentListingPage(of: inbox)
        _ = try tree.getattr(first)

        try store.pool.write { db in try db.execute(sql: "DELETE FROM email WHERE messageId = 're@t'") }
        // A trust that ended 0.3 s after the thread was sent (two tenths of margin for the
        // stamps' rounding), however long the steps since took on a loaded machine.
        tree.attach(kernel, trustedFor: ContinuousClock.now - threadSent - .milliseconds(300))
        tree.storeDidChange()

        let calls = kernel.calls.withLock { $0 }
        #expect(calls.entries.contains { $0.parent == inbox && $0.name == reply }, "the inbox was listed just now")
        #expect(!calls.entries.contains { $0.parent == thread }, "the kernel no longer trusts the thread's names")
        #expect(Set(calls.inodes).isSuperset(of: [inbox, thread]), "both listings may sit in the kernel's page cache")
        #expect(calls.attributes.contains(first), "its attributes were sent by GETATTR just now")
        #expect(tree.listings.listing(inbox)?.entries.map(\.name).contains(reply) == false)
        #expect(tree.listings.listing(thread) == nil, "not rebuilt")
        #expect(try tree.readdir(thread).map(\.name) == [MailTree.conversationFileName, "2026-11-20 1432 Alice Smith - Lunch plans.eml"])
    }

    @Test("a store change tells the kernel about folders before threads, however many threads were listed")
    func storeChangeRefreshesFoldersFirst() throws {
        let kernel = RecordingInvalidator()
        tree.attach(kernel, trustedFor: .seconds(60))
        let inbox = try path("work", "inbox").inode
        let threads = try path("work", "threads").inode
        let thread = try path("work", "threads", try #require(try names("work", "threads").first)).inode
        for directory in [thread, inbox, threads] {
            _ = try tree.readdir(directory)
            tree.sentListingPage(of: directory)
        }
        tree.storeDidChange()
        let order = kernel.calls.withLock { $0.inodes }
        #expect(Set(order).isSuperset(of: [inbox, threads, thread]))
        #expect(order.last == thread, "the only thread directory listed comes after every other one")
    }

    @Test("the minute's tick forgets what was sent longer ago than the kernel trusts it")
    func clockTickForgetsServed() throws {
        let kernel = RecordingInvalidator()
        tree.attach(kernel, trustedFor: .milliseconds(100))
        let first = try path("work", "inbox", "2026-11-20 1432 Alice Smith - Lunch plans.eml").inode
        _ = try tree.getattr(first)
        Thread.sleep(forTimeInterval: 0.3)
        tree.clockDidTick()
        tree.attach(kernel, trustedFor: .seconds(60))
        tree.storeDidChange()
        #expect(!kernel.calls.withLock { $0.attributes }.contains(first), "forgotten at the tick, so not counted by a longer trust")
    }
}

extension ThreadWalkTreeTests {
    @Test("thread listings the kernel may trust are rebuilt a batch to a query: the one vanished name is told, every listing is kept as its thread gives it")
    func storeChangeRebuildsTrustedThreadsInBatches() throws {
        let count = MailTree.refreshBatch + 10
        var messages = (0..<count).map { MailTreeTests.message(id: "t\($0)@t", subject: "Topic \($0)") }
        messages.append(MailTreeTests.message(id: "re@t", subject: "Re: Topic 7", inReplyTo: "t7@t"))
        let (store, tree) = try Self.imported(messages)
        let kernel = RecordingInvalidator()
        tree.attach(kernel, trustedFor: .seconds(60))
        let account = try tree.lookup(parent: Node.Directory.root.inode, name: "work")
        let threads = try tree.readdir(try tree.lookup(parent: account.inode, name: "threads").inode).map(\.attributes.inode)
        #expect(threads.count == count)
        var replyThread: (inode: Inode, names: [String])?
        for thread in threads {
            let names = try tree.readdir(thread).map(\.name)
            if names.count == 3 { replyThread = (thread, names) }
            tree.sentListingPage(of: thread)
        }
        let (replied, names) = try #require(replyThread)
        let reply = try #require(names.first { $0.contains("Re: Topic 7") })

        try store.pool.write { db in try db.execute(sql: "DELETE FROM email WHERE messageId = 're@t'") }
        tree.storeDidChange()

        let calls = kernel.calls.withLock { $0 }
        #expect(calls.entries.map(\.parent) == [replied] && calls.entries.map(\.name) == [reply])
        #expect(Set(calls.inodes).isSuperset(of: threads))
        for thread in threads {
            guard case .directory(.thread(let id))? = Node(inode: thread) else { Issue.record("not a thread"); continue }
            #expect(tree.listings.listing(thread)?.entries.map(\.name)
                    == [MailTree.conversationFileName] + (try store.tree.messages(inThread: id)).map(\.fileName),
                    "rebuilt as the thread is now, and kept")
        }
    }
}
