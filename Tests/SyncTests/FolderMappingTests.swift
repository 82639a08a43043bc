import IMAP
import Testing
@testable import Sync

@Suite("Folder discovery mapping (FR-SYNC-01)")
struct FolderMappingTests {
    func folder(_ name: String, _ attributes: String...) -> ServerFolder {
        ServerFolder(name: name, delimiter: "/", attributes: Set(attributes))
    }

    @Test("Gmail special-use folders map to their roles; All Mail and Important are not synced")
    func gmail() {
        let mapped = FolderMapping.map([
            folder("INBOX"), folder("[Gmail]", "\\noselect"), folder("[Gmail]/All Mail", "\\all"),
            folder("[Gmail]/Important", "\\important"), folder("[Gmail]/Gesendet", "\\sent"),
            folder("[Gmail]/Entw&APw-rfe", "\\drafts"), folder("[Gmail]/Trash", "\\trash"),
            folder("[Gmail]/Spam", "\\junk"), folder("[Gmail]/Starred", "\\flagged"), folder("Receipts/2026"),
        ])
        let byPath = Dictionary(uniqueKeysWithValues: mapped.map { ($0.path, $0) })
        #expect(byPath["inbox"]?.imapPath == "INBOX")
        #expect(byPath["sent"]?.imapPath == "[Gmail]/Gesendet")
        #expect(byPath["drafts"]?.imapPath == "[Gmail]/Entw&APw-rfe")
        #expect(byPath["spam"]?.type == .spam && byPath["starred"]?.type == .starred)
        #expect(byPath["[Gmail]"]?.isSelectable == false)
        #expect(byPath["Receipts/2026"]?.type == .custom)
        #expect(!mapped.contains { $0.imapPath.contains("All Mail") || $0.imapPath.contains("Important") })
    }

    @Test("modified UTF-7 names are decoded and names the tree reserves are suffixed")
    func names() {
        let mapped = FolderMapping.map([folder("Entw&APw-rfe"), folder("threads"), folder("a/b/c")],
                                       rules: RoleRules(byName: false))
        let paths = Set(mapped.map(\.path))
        #expect(paths == ["Entwürfe", "threads (folder)", "a/b/c"])
    }

    @Test("a second folder claiming a role stays an ordinary folder")
    func duplicateRoles() {
        let mapped = FolderMapping.map([folder("Sent", "\\sent"), folder("Sent Messages", "\\sent")])
        #expect(Set(mapped.map(\.path)) == ["sent", "Sent Messages"])
    }
}

@Suite("Sync building blocks")
struct SyncBlocksTests {
    @Test("SEARCH SINCE dates are in IMAP date format")
    func searchDate() {
        let date = IMAPDate.search(FolderSynchronizer.windowStart(daysBack: 31, now: .init(timeIntervalSince1970: 1_795_000_000)))
        #expect(date == "18-Oct-2026")
    }

    @Test("IMAP flags become stored flags")
    func flags() {
        let flags = FolderSynchronizer.storedFlags(["\\Seen", "\\FLAGGED", "$Junk"])
        #expect(flags.seen && flags.flagged && !flags.answered && !flags.draft)
    }

    @Test("a credential command's first line is the secret; failures say why without output")
    func secretCommand() async throws {
        #expect(try await SecretCommand.run("printf 'hunter2\\nsecond line\\n'") == "hunter2")
        await #expect(throws: SecretCommand.Failure.self) { try await SecretCommand.run("echo oops; exit 3") }
        do {
            _ = try await SecretCommand.run("echo leaked-secret; exit 1")
        } catch {
            #expect(!error.description.contains("leaked-secret"))
        }
        await #expect(throws: SecretCommand.Failure.self) { try await SecretCommand.run("true") }
        await #expect(throws: SecretCommand.Failure.self) { try await SecretCommand.run("sleep 5", timeout: 0.3) }
    }

    @Test("a trigger wakes a waiting loop; without one the wait ends at the interval")
    func trigger() async {
        let trigger = SyncTrigger()
        let clock = ContinuousClock()
        var start = clock.now
        await trigger.wait(upTo: .milliseconds(100))
        #expect(clock.now - start >= .milliseconds(90))
        trigger.fire()
        start = clock.now
        // Ended by the trigger, not the interval; the margin is the interval itself, so a
        // machine that stalls the test for a while does not fail it.
        await trigger.wait(upTo: .seconds(120))
        #expect(clock.now - start < .seconds(120))
    }

    @Test("the semaphore queues callers beyond its permits")
    func semaphore() async {
        let semaphore = AsyncSemaphore(permits: 1)
        await semaphore.acquire()
        let waiter = Task { await semaphore.acquire(); semaphore.release() }
        try? await Task.sleep(for: .milliseconds(50))
        #expect(semaphore.counts.waiting == 1)
        semaphore.release()
        await waiter.value
        #expect(semaphore.counts.available == 1)
    }
}
