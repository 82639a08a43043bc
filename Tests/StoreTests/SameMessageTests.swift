import Foundation
import MailCore
import StoreTestSupport
import Testing
@testable import Store

/// Messages are the same only when they are the same message: identical bytes for
/// imports, the same server message in several folders for IMAP; never a shared Message-ID.
@Suite("The same message, and only the same message")
struct SameMessageTests {
    let torture = Fixture.long(id: "torture@x", subject: "Torture test", lines: 4000)

    /// A store with one account, synced (`work`) or imported (`mine`), and its inbox.
    struct Account {
        let temp: TemporaryStore
        let name: String
        let id: Int64
        let inbox: Int64

        init(imported: Bool = false) throws {
            temp = try TemporaryStore()
            name = imported ? "mine" : "work"
            id = imported ? try temp.account(name) : try temp.serverAccount(name)
            inbox = try temp.folder(id, "inbox", type: .inbox)
        }

        var store: MailStore { temp.store }

        func folder(_ path: String) throws -> Int64 { try temp.folder(id, path) }

        /// Ingests each message into its folder under its UID, in one batch.
        @discardableResult
        func ingest(_ messages: [(raw: [UInt8], folder: Int64, uid: Int64)]) throws -> IngestSummary {
            try store.sync.ingest(messages.map { temp.incoming($0.raw, folder: $0.folder, uid: $0.uid) }, accountId: id)
        }

        func counts(_ folder: String) throws -> ListingInvariant.Counts {
            try ListingInvariant.counts(store, account: name, folder: folder)
        }

        func listed(_ folder: Int64) throws -> [MessageEntry] { try store.tree.messages(inFolder: folder) }
    }

    @Test("IMAP: two UIDs of one folder sharing a Message-ID are two messages, with two names")
    func sameIdOneFolder() throws {
        let account = try Account()
        let fragment = Fixture.fragment(of: torture, bytes: 3000)
        #expect(try account.ingest([(torture, account.inbox, 1), (fragment, account.inbox, 2)]).added == 2)
        #expect(try account.counts("inbox") == .agreeing(on: 2))
        let stored = try account.listed(account.inbox).map { try account.store.tree.rawMessage(emailId: $0.id) }
        #expect(Set(stored) == [torture, fragment], "each file holds its own message's bytes")
    }

    @Test("IMAP: the same bytes under two UIDs of one folder are two server messages")
    func identicalBytesOneFolder() throws {
        let account = try Account()
        let raw = Fixture.message(id: "twice@x", subject: "Appended twice")
        try account.ingest([(raw, account.inbox, 1), (raw, account.inbox, 2)])
        #expect(try account.counts("inbox") == .agreeing(on: 2))
        #expect(try account.ingest([(raw, account.inbox, 2)]).alreadyPresent == 1, "a UID already held is not stored twice")
    }

    @Test("IMAP: a copy in another folder is linked; a message sharing only its Message-ID is not")
    func acrossFolders() throws {
        let account = try Account()
        let (archive, lists) = (try account.folder("Archive"), try account.folder("Lists"))
        try account.ingest([(torture, account.inbox, 1)])
        #expect(try account.ingest([(torture, archive, 9)]).linked == 1)
        #expect(try account.ingest([(Fixture.fragment(of: torture, bytes: 3000), lists, 4)]).added == 1)
        let original = try #require(try account.listed(account.inbox).first)
        #expect(try account.listed(archive).map(\.id) == [original.id])
        #expect(original.folderCount == 2, "one message, one inode, two folders")
        #expect(try account.listed(lists).first?.id != original.id)
        for folder in ["inbox", "Archive", "Lists"] { #expect(try account.counts(folder) == .agreeing(on: 1)) }
    }

    @Test("IMAP: messages without a Message-ID are never merged, even with the same bytes")
    func noMessageIdNeverMerged() throws {
        let account = try Account()
        let archive = try account.folder("Archive")
        let raw = Fixture.message(id: nil, subject: "No id")
        try account.ingest([(raw, account.inbox, 1), (raw, archive, 1)])
        #expect(Set(try [account.inbox, archive].flatMap { try account.listed($0).map(\.id) }).count == 2)
        #expect(!(try account.store.sync.linkKnownMessage(fingerprint: MessageFingerprint(message: raw), messageID: nil,
                                                     accountId: account.id, folderId: archive, uid: 2)))
    }

    @Test("IMAP: the sync links a new UID by fingerprint, never a fragment sharing the Message-ID")
    func linkKnownMessage() throws {
        let account = try Account()
        let archive = try account.folder("Archive")
        try account.ingest([(torture, account.inbox, 1)])
        let fragment = MessageFingerprint(message: Fixture.fragment(of: torture, bytes: 3000))
        #expect(!(try account.store.sync.linkKnownMessage(fingerprint: fragment, messageID: "torture@x",
                                                     accountId: account.id, folderId: archive, uid: 1)))
        #expect(try account.store.sync.linkKnownMessage(fingerprint: MessageFingerprint(message: torture), messageID: "torture@x",
                                                   accountId: account.id, folderId: archive, uid: 2))
        #expect(try account.listed(archive).count == 1)
    }

    @Test("IMAP: the copies a sync would link are found by a read, the same as the write links them")
    func serverCopies() throws {
        let account = try Account()
        let archive = try account.folder("Archive")
        try account.ingest([(torture, account.inbox, 1)])
        let copy = { (uid: Int64, raw: [UInt8]) in
            SyncStore.ServerMessage(fingerprint: MessageFingerprint(message: raw), messageID: "torture@x", uid: uid)
        }
        let batch = [copy(1, Fixture.fragment(of: torture, bytes: 3000)), copy(2, torture), copy(3, torture)]
        let found = try account.store.sync.serverCopies(batch, accountId: account.id, folderId: archive)
        #expect(found == [2], "not the fragment; of two copies of one stored message, the first")
        let linked = try account.store.sync.linkKnownMessages(batch, accountId: account.id, folderId: archive)
        #expect(linked == found)
        #expect(try account.store.sync.serverCopies(batch, accountId: account.id, folderId: archive).isEmpty,
                "the archive holds it now")
    }

    @Test("IMAP: after a UIDVALIDITY change each message comes back to its own row")
    func uidValidityReset() throws {
        let account = try Account()
        let raw = Fixture.message(id: "twice@x", subject: "Appended twice")
        try account.ingest([(raw, account.inbox, 1), (raw, account.inbox, 2)])
        let before = Set(try account.listed(account.inbox).map(\.id))
        try account.store.sync.beginUIDValidityReset(folderId: account.inbox, newUIDValidity: 2)
        let link = { (uid: Int64) in
            try account.store.sync.linkKnownMessage(fingerprint: MessageFingerprint(message: raw), messageID: "twice@x",
                                               accountId: account.id, folderId: account.inbox, uid: uid)
        }
        #expect(try link(11) && link(12))
        #expect(!(try link(13)), "a third copy is new: both stored ones are held again")
        try account.store.sync.dropStaleAssociations(folderId: account.inbox)
        #expect(Set(try account.listed(account.inbox).map(\.id)) == before)
    }

    @Test("import: the same Message-ID with other bytes is a second message; the same bytes are one")
    func importRule() throws {
        let account = try Account(imported: true)
        let sent = try account.folder("sent")
        let fragment = Fixture.fragment(of: torture, bytes: 3000)
        let summary = try account.ingest([(torture, account.inbox, 1), (fragment, account.inbox, 2),
                                          (torture, account.inbox, 3), (torture, sent, 1)])
        #expect(summary.added == 2 && summary.linked == 1 && summary.alreadyPresent == 1)
        #expect(try account.counts("inbox") == .agreeing(on: 2))
        #expect(try account.counts("sent") == .agreeing(on: 1))
    }

    @Test("cp into a folder: the same bytes are linked to the stored message, an edited copy is a new one")
    func appendedCopies() throws {
        let account = try Account()
        let archive = try account.folder("Archive")
        let raw = Fixture.message(id: "cp@x", subject: "Copied")
        let edited = Fixture.message(id: "cp@x", subject: "Copied", body: "Edited before copying back.\n")
        try account.ingest([(raw, account.inbox, 1)])
        let context = WriteContext(accountId: account.id, isOffline: false, isGmail: false, deleteGuard: 100)
        for file in [raw, edited] {
            _ = try account.store.tree.recordAppend(file, folderId: archive, flags: .init(seen: true), context: context)
        }
        let original = try #require(try account.listed(account.inbox).first)
        let inArchive = try account.listed(archive)
        #expect(inArchive.contains { $0.id == original.id })
        #expect(try inArchive.compactMap { try account.store.tree.rawMessage(emailId: $0.id) }.contains(LineEnds.crlf(edited)))
        #expect(try account.counts("Archive") == .agreeing(on: 2))
    }

    @Test("cp into an offline folder of bytes it already holds leaves it as it is")
    func offlineAppendOfHeldBytes() throws {
        let account = try Account(imported: true)
        let raw = Fixture.message(id: "held@x", subject: "Held")
        try account.ingest([(raw, account.inbox, 1)])
        let name = try #require(try account.listed(account.inbox).first?.fileName)
        let context = WriteContext(accountId: account.id, isOffline: true, isGmail: false, deleteGuard: 100)
        #expect(try account.store.tree.recordAppend(raw, folderId: account.inbox, flags: .init(seen: true), context: context) == name)
        #expect(try account.counts("inbox") == .agreeing(on: 1))
        #expect(try account.store.tree.journalCounts(accountId: account.id).pending == 0)
    }

    @Test("the journal accepts a server message as its own by fingerprint, or by size for a row without one")
    func serverMatch() {
        let raw = Fixture.message(id: "m@x", subject: "Mine")
        let mine = MessageFingerprint(message: raw)
        let fragment = MessageFingerprint(message: Fixture.fragment(of: raw, bytes: raw.count - 4))
        #expect(ServerMatch(fingerprint: mine, size: mine.size).accepts(mine))
        #expect(!ServerMatch(fingerprint: mine, size: mine.size).accepts(fragment))
        #expect(ServerMatch(fingerprint: nil, size: mine.size).accepts(mine))
        #expect(!ServerMatch(fingerprint: nil, size: mine.size).accepts(fragment))
    }
}
