import Foundation
@testable import Store
import Testing

/// Which journal rows may go ahead of one that waits to be retried.
@Suite("Journal order")
struct ChangeOrderTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    func row(_ id: Int64, _ kind: ChangeKind, email: Int64? = nil, folder: Int64? = nil, target: Int64? = nil,
             waitsFor seconds: TimeInterval = 0) -> JournalChange {
        var change = JournalChange(accountId: 1, kind: kind, now: now)
        change.id = id
        change.emailId = email
        change.folderId = folder
        change.targetFolderId = target
        change.notBefore = now.addingTimeInterval(seconds)
        return change
    }

    @Test("a mkdir and other messages' changes go ahead of an APPEND waiting for its retry")
    func independentRowsGoAhead() {
        let rows = [
            row(1, .append, email: 10, target: 2, waitsFor: 5),
            row(2, .createFolder, folder: 3),
            row(3, .flag, email: 11),
            row(4, .move, email: 12, folder: 2, target: 4),
        ]
        let (runnable, nextDue) = ChangeOrder.runnable(rows, now: now)
        #expect(runnable.compactMap(\.id) == [2, 3, 4])
        #expect(nextDue == now.addingTimeInterval(5))
    }

    @Test("changes of the same message wait, and so does what depends on them")
    func sameMessageWaits() {
        let rows = [
            row(1, .append, email: 10, target: 2, waitsFor: 5),
            row(2, .move, email: 10, folder: 2, target: 3),
            row(3, .deleteFolder, folder: 3),
            row(4, .flag, email: 11),
        ]
        #expect(ChangeOrder.runnable(rows, now: now).runnable.compactMap(\.id) == [4])
    }

    @Test("a folder operation waits for a waiting change in its folder, and changes into a waiting new folder wait for it")
    func folderOperations() {
        let deleteAfterMove = [row(1, .move, email: 10, folder: 2, target: 3, waitsFor: 5), row(2, .deleteFolder, folder: 2)]
        #expect(ChangeOrder.runnable(deleteAfterMove, now: now).runnable.isEmpty)
        let appendIntoNew = [row(1, .createFolder, folder: 5, waitsFor: 5), row(2, .append, email: 10, target: 5),
                             row(3, .append, email: 11, target: 2)]
        #expect(ChangeOrder.runnable(appendIntoNew, now: now).runnable.compactMap(\.id) == [3])
        var parent = row(1, .createFolder, folder: 5, waitsFor: 5)
        parent.newPath = "Projects"
        var child = row(2, .createFolder, folder: 6)
        child.newPath = "Projects/2026"
        var elsewhere = row(3, .createFolder, folder: 7)
        elsewhere.newPath = "Receipts"
        var renamedBelow = row(4, .renameFolder, folder: 8)
        (renamedBelow.oldPath, renamedBelow.newPath) = ("Old", "Projects/Old")
        let nested = ChangeOrder.runnable([parent, child, elsewhere, renamedBelow], now: now)
        #expect(nested.runnable.compactMap(\.id) == [3], "folder operations on nested paths keep their order")
    }

    @Test("with nothing waiting every row runs in order; with everything waiting the first due time is given")
    func edges() {
        let rows = [row(1, .flag, email: 1), row(2, .flag, email: 1)]
        #expect(ChangeOrder.runnable(rows, now: now).runnable.compactMap(\.id) == [1, 2])
        #expect(ChangeOrder.runnable(rows, now: now).nextDue == nil)
        let later = [row(1, .flag, email: 1, waitsFor: 30), row(2, .flag, email: 2, waitsFor: 10)]
        #expect(ChangeOrder.runnable(later, now: now) == ([], now.addingTimeInterval(10)))
    }
}
