import Foundation
import IMAP
import Store
@testable import Sync
import Testing

/// When a folder counts as unchanged since its last complete sync (its sync then stops
/// after EXAMINE): every value the server reports, and the folder's own listing, must be
/// as that sync left them.
@Suite("An unchanged folder: the decision")
struct UnchangedFolderTests {
    static let since = Date(timeIntervalSince1970: 1_700_000_000)

    static var settled: FolderRecord {
        var folder = FolderRecord(accountId: 1, path: "inbox", imapPath: "INBOX", type: .inbox, isSelectable: true)
        folder.uidValidity = 7
        folder.uidNext = 101
        folder.highestModSeq = 500
        folder.settledMessages = 100
        folder.settledSince = since
        folder.settledLinks = 90
        return folder
    }

    static func mailbox(exists: Int = 100, uidValidity: UInt32? = 7, uidNext: UInt32? = 101,
                        highestModSeq: UInt64? = 500) -> SelectedMailbox {
        SelectedMailbox(name: "INBOX", exists: exists, uidValidity: uidValidity, uidNext: uidNext, highestModSeq: highestModSeq)
    }

    @Test("as the last complete sync left it, a window that moved on: unchanged")
    func unchanged() {
        #expect(FolderSynchronizer.isUnchanged(Self.settled, Self.mailbox(), windowStart: Self.since, listed: 90))
        #expect(FolderSynchronizer.isUnchanged(Self.settled, Self.mailbox(), windowStart: Self.since + 86_400, listed: 90))
    }

    @Test("any difference on the server means a look at the whole folder",
          arguments: [
              ("a message added", UnchangedFolderTests.mailbox(uidNext: 102)),
              ("a message added, another removed", UnchangedFolderTests.mailbox(exists: 100, uidNext: 102)),
              ("a message removed", UnchangedFolderTests.mailbox(exists: 99)),
              ("a flag changed", UnchangedFolderTests.mailbox(highestModSeq: 501)),
              ("UIDVALIDITY changed", UnchangedFolderTests.mailbox(uidValidity: 8)),
              ("no UIDNEXT reported", UnchangedFolderTests.mailbox(uidNext: nil)),
              ("no CONDSTORE, so no HIGHESTMODSEQ", UnchangedFolderTests.mailbox(highestModSeq: nil)),
          ])
    func serverChanged(_ change: String, _ mailbox: SelectedMailbox) {
        #expect(!FolderSynchronizer.isUnchanged(Self.settled, mailbox, windowStart: Self.since, listed: 90), "\(change)")
    }

    @Test("a listing that lost or gained a message here, a wider window, or no complete sync yet: not unchanged")
    func localReasons() {
        #expect(!FolderSynchronizer.isUnchanged(Self.settled, Self.mailbox(), windowStart: Self.since, listed: 89))
        #expect(!FolderSynchronizer.isUnchanged(Self.settled, Self.mailbox(), windowStart: Self.since, listed: nil))
        #expect(!FolderSynchronizer.isUnchanged(Self.settled, Self.mailbox(), windowStart: Self.since - 1, listed: 90))
        var unsettled = Self.settled
        unsettled.settledMessages = nil
        #expect(!FolderSynchronizer.isUnchanged(unsettled, Self.mailbox(), windowStart: Self.since, listed: 90))
    }
}
