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

    @Test("IMAP: two UIDs of one folder sharing a Message-ID are two messages, with two names")
    func sameIdOneFolder() throws {
        let temp = try TemporaryStore()
        let account = try temp.serverAccount()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let fragment = Fixture.fragment(of: torture, bytes: 3000)
        let summary = try temp.store.ingest([temp.incoming(torture, folder: inbox, uid: 1),
                                             temp.incoming(fragment, folder: inbox, uid: 2)], accountId: account)
        #expect(summary.added == 2)
        #expect(try ListingInvariant.counts(temp.store, account: "work", folder: "inbox") == .agreeing(on: 2))
        let stored = try temp.store.messages(inFolder: inbox).map { try temp.store.rawMessage(emailId: $0.id) }
        #expect(Set(stored) == [torture, fragment], "each file holds its own message's bytes")
    }

    @Test("IMAP: the same bytes under two UIDs of one folder are two server messages")
    func identicalBytesOneFolder() throws {
        let temp = try TemporaryStore()
        let account = try temp.serverAccount()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let raw = Fixture.message(id: "twice@x", subject: "Appended twice")
        _ = try temp.store.ingest([temp.incoming(raw, folder: inbox, uid: 1), temp.incoming(raw, folder: inbox, uid: 2)],
                                  accountId: account)
        #expect(try ListingInvariant.counts(temp.store, account: "work", folder: "inbox") == .agreeing(on: 2))
        let again = try temp.store.ingest([temp.incoming(raw, folder: inbox, uid: 2)], accountId: account)
        #expect(again.alreadyPresent == 1, "a UID already held is not stored twice")
    }

    @Test("IMAP: a copy in another folder is linked; a message sharing only its Message-ID is not")
    func acrossFolders() throws {
        let temp = try TemporaryStore()
        let account = try temp.serverAccount()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let archive = try temp.folder(account, "Archive")
        let lists = try temp.folder(account, "Lists")
        let fragment = Fixture.fragment(of: torture, bytes: 3000)
        _ = try temp.store.ingest([temp.incoming(torture, folder: inbox, uid: 1)], accountId: account)
        let copy = try temp.store.ingest([temp.incoming(torture, folder: archive, uid: 9)], accountId: account)
        let other = try temp.store.ingest([temp.incoming(fragment, folder: lists, uid: 4)], accountId: account)
        #expect(copy.linked == 1 && other.added == 1)
        let original = try #require(try temp.store.messages(inFolder: inbox).first)
        #expect(try temp.store.messages(inFolder: archive).map(\.id) == [original.id])
        #expect(original.folderCount == 2, "one message, one inode, two folders")
        #expect(try temp.store.messages(inFolder: lists).first?.id != original.id)
        for folder in ["inbox", "Archive", "Lists"] {
            #expect(try ListingInvariant.counts(temp.store, account: "work", folder: folder) == .agreeing(on: 1))
        }
    }

    @Test("IMAP: messages without a Message-ID are never merged, even with the same bytes")
    func noMessageIdNeverMerged() throws {
        let temp = try TemporaryStore()
        let account = try temp.serverAccount()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let archive = try temp.folder(account, "Archive")
        let raw = Fixture.message(id: nil, subject: "No id")
        _ = try temp.store.ingest([temp.incoming(raw, folder: inbox, uid: 1), temp.incoming(raw, folder: archive, uid: 1)],
                                  accountId: account)
        let ids = try [inbox, archive].flatMap { try temp.store.messages(inFolder: $0).map(\.id) }
        #expect(Set(ids).count == 2)
        #expect(!(try temp.store.linkKnownMessage(fingerprint: MessageFingerprint(message: raw), messageID: nil,
                                                  accountId: account, folderId: archive, uid: 2)))
    }

    @Test("IMAP: the sync links a new UID by fingerprint, never a fragment sharing the Message-ID")
    func linkKnownMessage() throws {
        let temp = try TemporaryStore()
        let account = try temp.serverAccount()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let archive = try temp.folder(account, "Archive")
        _ = try temp.store.ingest([temp.incoming(torture, folder: inbox, uid: 1)], accountId: account)
        let fragment = MessageFingerprint(message: Fixture.fragment(of: torture, bytes: 3000))
        #expect(!(try temp.store.linkKnownMessage(fingerprint: fragment, messageID: "torture@x",
                                                  accountId: account, folderId: archive, uid: 1)))
        #expect(try temp.store.linkKnownMessage(fingerprint: MessageFingerprint(message: torture), messageID: "torture@x",
                                                accountId: account, folderId: archive, uid: 2))
        #expect(try temp.store.messages(inFolder: archive).count == 1)
    }

    @Test("IMAP: after a UIDVALIDITY change each message comes back to its own row")
    func uidValidityReset() throws {
        let temp = try TemporaryStore()
        let account = try temp.serverAccount()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let raw = Fixture.message(id: "twice@x", subject: "Appended twice")
        _ = try temp.store.ingest([temp.incoming(raw, folder: inbox, uid: 1), temp.incoming(raw, folder: inbox, uid: 2)],
                                  accountId: account)
        let before = Set(try temp.store.messages(inFolder: inbox).map(\.id))
        try temp.store.beginUIDValidityReset(folderId: inbox, newUIDValidity: 2)
        for uid in [Int64(11), 12] {
            #expect(try temp.store.linkKnownMessage(fingerprint: MessageFingerprint(message: raw), messageID: "twice@x",
                                                    accountId: account, folderId: inbox, uid: uid))
        }
        #expect(!(try temp.store.linkKnownMessage(fingerprint: MessageFingerprint(message: raw), messageID: "twice@x",
                                                  accountId: account, folderId: inbox, uid: 13)),
                "a third copy is new: both stored ones are held again")
        try temp.store.dropStaleAssociations(folderId: inbox)
        #expect(Set(try temp.store.messages(inFolder: inbox).map(\.id)) == before)
    }

    @Test("import: the same Message-ID with other bytes is a second message; the same bytes are one")
    func importRule() throws {
        let temp = try TemporaryStore()
        let account = try temp.account("mine")
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let sent = try temp.folder(account, "sent", type: .sent)
        let fragment = Fixture.fragment(of: torture, bytes: 3000)
        let summary = try temp.store.ingest([
            temp.incoming(torture, folder: inbox, uid: 1), temp.incoming(fragment, folder: inbox, uid: 2),
            temp.incoming(torture, folder: inbox, uid: 3), temp.incoming(torture, folder: sent, uid: 1),
        ], accountId: account)
        #expect(summary.added == 2 && summary.linked == 1 && summary.alreadyPresent == 1)
        #expect(try ListingInvariant.counts(temp.store, account: "mine", folder: "inbox") == .agreeing(on: 2))
        #expect(try ListingInvariant.counts(temp.store, account: "mine", folder: "sent") == .agreeing(on: 1))
    }

    @Test("cp into a folder: the same bytes are linked to the stored message, an edited copy is a new one")
    func appendedCopies() throws {
        let temp = try TemporaryStore()
        let account = try temp.serverAccount()
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let archive = try temp.folder(account, "Archive")
        let raw = Fixture.message(id: "cp@x", subject: "Copied")
        let edited = Fixture.message(id: "cp@x", subject: "Copied", body: "Edited before copying back.\n")
        _ = try temp.store.ingest([temp.incoming(raw, folder: inbox, uid: 1)], accountId: account)
        let context = WriteContext(accountId: account, isOffline: false, isGmail: false, deleteGuard: 100)
        _ = try temp.store.recordAppend(raw, folderId: archive, flags: .init(seen: true), context: context)
        _ = try temp.store.recordAppend(edited, folderId: archive, flags: .init(seen: true), context: context)
        let original = try #require(try temp.store.messages(inFolder: inbox).first)
        let inArchive = try temp.store.messages(inFolder: archive)
        #expect(inArchive.count == 2)
        #expect(inArchive.contains { $0.id == original.id })
        #expect(try inArchive.compactMap { try temp.store.rawMessage(emailId: $0.id) }.contains(edited))
        #expect(try ListingInvariant.counts(temp.store, account: "work", folder: "Archive") == .agreeing(on: 2))
    }

    @Test("cp into an offline folder of bytes it already holds leaves it as it is")
    func offlineAppendOfHeldBytes() throws {
        let temp = try TemporaryStore()
        let account = try temp.account("mine")
        let inbox = try temp.folder(account, "inbox", type: .inbox)
        let raw = Fixture.message(id: "held@x", subject: "Held")
        _ = try temp.store.ingest([temp.incoming(raw, folder: inbox, uid: 1)], accountId: account)
        let name = try #require(try temp.store.messages(inFolder: inbox).first?.fileName)
        let context = WriteContext(accountId: account, isOffline: true, isGmail: false, deleteGuard: 100)
        #expect(try temp.store.recordAppend(raw, folderId: inbox, flags: .init(seen: true), context: context) == name)
        #expect(try ListingInvariant.counts(temp.store, account: "mine", folder: "inbox") == .agreeing(on: 1))
        #expect(try temp.store.journalCounts(accountId: account).pending == 0)
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
