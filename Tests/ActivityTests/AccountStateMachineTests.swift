@testable import Activity
import Testing

/// What `.status` shows after each event of an account's sync, without a server.
@Suite("Account state machine")
struct AccountStateMachineTests {
    func state(after events: [AccountStateMachine.Event], from start: AccountActivity.State = .init())
        -> AccountActivity.State {
        var state = start
        for event in events { AccountStateMachine.apply(event, to: &state) }
        return state
    }

    @Test("a full sync goes connecting, authenticating, folders, headers, indexing, then idle and online")
    func fullCycle() {
        var state = AccountActivity.State()
        var phases: [SyncPhase] = []
        let events: [AccountStateMachine.Event] = [
            .connecting, .connectionsChanged("1 active, 5 max, 0 idle, 0 waiting"), .authenticating,
            .listingFolders, .folderStarted(index: 0, of: 2), .messagesFetched(200, of: 350, folder: 0, folders: 2),
            .indexing, .folderStarted(index: 1, of: 2), .foldersDone(2),
            .connectionsChanged("0 active, 5 max, 1 idle, 0 waiting"), .synced(failedFolders: []),
        ]
        for event in events {
            AccountStateMachine.apply(event, to: &state)
            if phases.last != state.phase { phases.append(state.phase) }
        }
        #expect(phases == [.connecting, .authenticating, .syncingFolders, .syncingHeaders, .indexing, .syncingHeaders, .idle])
        #expect(state.online && state.lastError == nil && state.progress == "none")
        #expect(state.connections == "0 active, 5 max, 1 idle, 0 waiting")
    }

    @Test("progress says the folder and the messages fetched")
    func progress() {
        let state = state(after: [.folderStarted(index: 3, of: 9), .messagesFetched(400, of: 1000, folder: 3, folders: 9)])
        #expect(state.progress == "3/9 folders, 400/1000 messages")
        #expect(self.state(after: [.folderStarted(index: 3, of: 9)]).progress == "3/9 folders, 0/0 messages")
    }

    @Test("failed folders leave the account idle with the reasons; a failed cycle is an offline error")
    func failures() {
        let partial = state(after: [.synced(failedFolders: ["A: gone", "B: refused"])])
        #expect(partial.phase == .idle && partial.online)
        #expect(partial.lastError == "2 folders failed: A: gone; B: refused")
        let failed = state(after: [.listingFolders, .syncFailed(reason: "authentication failed: no")])
        #expect(failed.phase == .error && !failed.online && failed.lastError == "authentication failed: no")
        let recovered = state(after: [.synced(failedFolders: [])], from: failed)
        #expect(recovered.phase == .idle && recovered.online && recovered.lastError == nil)
    }

    @Test("a retried connection shows its reason without leaving the phase, and the account offline")
    func retry() {
        let online = state(after: [.listingFolders])
        let state = state(after: [.connecting, .connectionRetry(reason: "refused; next attempt in 4 s")],
                          from: online)
        #expect(state.phase == .connecting && state.lastError == "refused; next attempt in 4 s")
        #expect(!state.online)
    }

    @Test("an unreachable server says offline with the reason; IDLE active again says online")
    func unreachable() {
        let synced = state(after: [.synced(failedFolders: []), .idleChanged(.active)])
        let down = state(after: [.idleChanged(.reconnecting), .serverUnreachable(reason: "connection refused")], from: synced)
        #expect(!down.online && down.lastError == "connection refused" && down.idle == .reconnecting)
        let back = state(after: [.idleChanged(.active)], from: down)
        #expect(back.online && back.idle == .active)
    }

    @Test("a server alert is shown printable, bounded, and logged once per text")
    func serverAlert() {
        let activity = AccountActivity(profile: AccountProfile(
            name: "a", address: "a@example.test", provider: .generic, auth: .plain, imap: "", smtp: "none", deleteGuard: 100))
        activity.recordServerAlert("Mailbox\tis 95%\u{1B}[31m full\r\n")
        activity.recordServerAlert("Mailbox\tis 95%\u{1B}[31m full\r\n")
        #expect(activity.snapshot.serverAlert == "Mailbox\\x09is 95%\\x1B[31m full\\x0D\\x0A")
        #expect(activity.log.snapshot.filter { $0.message.contains("server alert") }.count == 1)
        activity.recordServerAlert(String(repeating: "x", count: 2000))
        #expect(activity.snapshot.serverAlert?.count == AccountActivity.alertLengthLimit + 1)
        #expect(activity.log.snapshot.filter { $0.message.contains("server alert") }.count == 2)
    }

    @Test("a one-folder sync ending never hides a full sync still running", arguments: [
        SyncPhase.connecting, .authenticating, .syncingFolders, .syncingHeaders, .syncingBodies, .indexing,
    ])
    func folderSyncDuringFullSync(phase: SyncPhase) {
        var running = AccountActivity.State()
        running.phase = phase
        running.progress = "2/9 folders, 0/0 messages"
        let after = state(after: [.folderSynced], from: running)
        #expect(after.phase == phase && after.progress == "2/9 folders, 0/0 messages")
    }

    @Test("a one-folder sync ending after an error shows the account idle again")
    func folderSyncAfterError() {
        let failed = state(after: [.syncFailed(reason: "connection reset")])
        #expect(state(after: [.folderSynced], from: failed).phase == .idle)
    }

    @Test("outbox, write-back, download, retention and IDLE events set their own lines")
    func sideLines() {
        let state = state(after: [
            .outboxFailed("a.eml failed: 550 no"), .changeReverted("move reverted: gone"), .downloadFailed("download failed"),
            .purged(3), .purged(2), .idleChanged(.active),
        ])
        #expect(state.outboxError == "a.eml failed: 550 no" && state.changeError == "move reverted: gone")
        #expect(state.lastError == "download failed" && state.purgedOutsideWindow == 5 && state.idle == .active)
        #expect(self.state(after: [.delivered], from: state).outboxError == nil)
    }
}

/// `.log` and `.status` quote servers and users: nothing a terminal would run gets through.
@Suite("Terminal-safe text")
struct TerminalSafeTextTests {
    @Test("control characters become \\xHH, the rest is kept", arguments: [
        ("\u{1B}[2Jboom", "\\x1B[2Jboom"),
        ("a\nb\rc\td", "a\\x0Ab\\x0Dc\\x09d"),
        ("\u{7F}\u{85}\u{9B}", "\\x7F\\x85\\x9B"),
        ("Zoë — Atelier", "Zoë — Atelier"),
        ("", ""),
    ])
    func escapes(input: String, expected: String) {
        #expect(TerminalSafeText.escaped(input) == expected)
    }

    @Test(".log and .status hold no control character, whatever was recorded")
    func logAndStatus() {
        let log = EventLog()
        log.record("unknown .control command: \u{1B}]0;pwned\u{7}")
        #expect(!log.rendered().dropLast().unicodeScalars.contains { TerminalSafeText.isControl($0) })
        #expect(log.rendered().hasSuffix("unknown .control command: \\x1B]0;pwned\\x07\n"))
        var state = AccountActivity.State()
        AccountStateMachine.apply(.syncFailed(reason: "NO \u{1B}[2J gone"), to: &state)
        let profile = AccountProfile(name: "a", address: "a@example.test", provider: .generic, auth: .plain,
                                     imap: "", smtp: "none", deleteGuard: 100)
        let status = StatusReport.account(.init(activity: state, profile: profile, lastSync: nil, outbox: (0, 0, 0),
                                                cacheBytes: 0, cacheLimitBytes: 0, folders: [], journal: (0, 0)))
        #expect(status.contains("last_error: NO \\x1B[2J gone\n"))
        #expect(!status.unicodeScalars.contains { $0 == "\u{1B}" })
    }
}
