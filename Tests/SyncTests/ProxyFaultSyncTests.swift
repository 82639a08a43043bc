import Foundation
import Store
import Sync
import Synchronization
import TestSupport
import Testing

/// The IMAP connection broken under an initial sync by a proxy on 127.0.0.1 (cut, reset,
/// stalled), at known points of the server's byte stream. A folder whose connection breaks
/// is synced again at once on a fresh connection; when that one breaks too, the sync ends
/// with a clear error (never a hang or a crash), and the next sync through a healthy path
/// stores every message once. Only these tests use dave's account, so the byte offsets
/// below are where they say.
@Suite("Sync faults on the wire: cut, reset and stalled connections", .serialized)
struct ProxyFaultSyncTests {
    /// 200 small messages (the first batch: its identity FETCH answer alone is about 35 KB,
    /// after about 6 KB of TLS handshake, login, LIST and an empty INBOX), then 30 of 200 KB
    /// (the second batch: its BODY.PEEK[] answer is 6 MB of literals, from about 0.5 MB on).
    static let (smallCount, largeCount) = (200, 30)
    static let messageCount = smallCount + largeCount

    struct Case: Sendable, CustomTestStringConvertible {
        var fault: FaultProxy.Fault
        var afterBytes: Int
        var place: String
        /// Connections that meet the fault: the first alone, or also the fresh one the
        /// folder is retried on.
        var faultyConnections = 2
        /// A fault before the greeting is a failed connection attempt, which the connector
        /// retries at once; a fault under a folder on the first connection only is healed by
        /// the folder's retry on a fresh one: either way that same sync completes.
        var retriedAtOnce = false
        /// Messages stored by the faulty sync: the batches before the fault are checkpoints.
        var storedBeforeFault = 0

        var testDescription: String {
            "\(fault) \(place) (after \(afterBytes) bytes)" + (faultyConnections == 1 ? ", first connection only" : "")
        }
    }

    static let cases = [
        Case(fault: .cut, afterBytes: 1_000, place: "in the TLS handshake", faultyConnections: 1, retriedAtOnce: true,
             storedBeforeFault: messageCount),
        Case(fault: .stall, afterBytes: 0, place: "before the TLS handshake", faultyConnections: 1, retriedAtOnce: true,
             storedBeforeFault: messageCount),
        Case(fault: .reset, afterBytes: 2_000_000, place: "mid-literal of the second batch's bodies", faultyConnections: 1,
             retriedAtOnce: true, storedBeforeFault: messageCount),
        Case(fault: .cut, afterBytes: 20_000, place: "mid-FETCH of the first batch's identities"),
        Case(fault: .cut, afterBytes: 2_000_000, place: "mid-literal of the second batch's bodies",
             storedBeforeFault: smallCount),
        Case(fault: .reset, afterBytes: 20_000, place: "mid-FETCH of the first batch's identities"),
        Case(fault: .reset, afterBytes: 2_000_000, place: "mid-literal of the second batch's bodies",
             storedBeforeFault: smallCount),
        Case(fault: .stall, afterBytes: 2_000_000, place: "mid-literal of the second batch's bodies",
             storedBeforeFault: smallCount),
    ]

    /// Short enough for a test, long enough for a healthy Dovecot on a loaded machine.
    static var timing: SyncTiming {
        var timing = SyncTiming()
        timing.connectTimeout = .seconds(10)
        timing.responseTimeout = .seconds(10)
        timing.retryDelays = [.zero, .zero, .zero]
        return timing
    }

    @Test("a broken connection ends the initial sync with a clear error; the next sync stores every message once",
          arguments: cases)
    func brokenConnection(_ fault: Case) async throws {
        try await SharedServers.shared {
            let work = FileManager.default.temporaryDirectory.appendingPathComponent("mailfs-proxy-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: work) }
            let folder = "Proxy-\(UUID().uuidString.prefix(8))"
            let subjects = try await Self.seedFolder(folder, in: work)
            let imapsPort = try #require(Int(try TestServers.env("IMAPS_PORT")))
            let proxy = try await FaultProxy(to: imapsPort, fault: fault.fault, afterBytes: fault.afterBytes,
                                             faultyConnections: fault.faultyConnections, in: work)
            try await runThenCleanUp({
                let toml = try TestServers.accountTOML(name: "dave", user: "dave")
                    .replacingOccurrences(of: "port = \(imapsPort)", with: "port = \(proxy.port)")
                let harness = try SyncHarness(toml, timing: Self.timing)

                #expect(try await Self.finishes(within: 120) { await harness.sync("dave") },
                        "the faulty sync hangs: \(harness.state("dave"))")
                for connection in 0..<fault.faultyConnections where !fault.retriedAtOnce || connection == 0 {
                    let faulted = proxy.events.first { $0.connection == connection && $0.kind == fault.fault.rawValue }
                    #expect(faulted?.serverBytes == fault.afterBytes, "the fault happened on \(connection): \(proxy.events)")
                }
                let state = harness.state("dave")
                let partial = try Self.stored(harness, folder).count
                #expect(partial == fault.storedBeforeFault, "what the faulty sync kept (batches before the fault)")
                if fault.retriedAtOnce {
                    #expect(state.phase == .idle, "retried on a fresh connection: \(state)\n\(harness.log("dave"))")
                } else {
                    #expect(state.phase == .error, "\(state)")
                    let reason = state.lastError ?? ""
                    let expected = switch fault.fault {
                    case .cut: "connection closed"
                    case .reset: "connection reset by the server"
                    case .stall: "no response from the server within 10"
                    }
                    #expect(reason.contains(expected), "a clear error: \(reason)")
                    #expect(try await Self.finishes(within: 120) { await harness.sync("dave") })
                    #expect(harness.state("dave").phase == .idle, "\(harness.state("dave"))\n\(harness.log("dave"))")
                }
                #expect(harness.state("dave").lastError == nil, "\(harness.log("dave"))")
                let stored = try Self.stored(harness, folder)
                #expect(stored.count == Self.messageCount, "none lost, none duplicated")
                #expect(Set(stored.map(\.fileName)).count == stored.count, "unique names")
                let missing = subjects.filter { subject in !stored.contains { $0.fileName.contains(subject) } }
                #expect(missing.isEmpty, "every message stored: \(missing.prefix(5)) missing")
                // The counts docs/FAULTS.md reports.
                print("fault matrix: \(fault.testDescription): first sync \(state.phase), error: \(state.lastError ?? "none"); "
                      + "\(partial) stored; after the next sync \(missing.count) lost, "
                      + "\(stored.count - (Self.messageCount - missing.count)) duplicated")
            }, cleanUp: {
                await proxy.stop()
                _ = try? await TestServers.seed(["delete-mailbox", "--user", "dave", folder])
            })
        }
    }

    /// Creates dave's `folder` with the small then the large messages; returns their subjects.
    static func seedFolder(_ folder: String, in work: URL) async throws -> [String] {
        try await TestServers.seed(["create-mailbox", "--user", "dave", folder])
        let files = work.appendingPathComponent("messages")
        try FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
        var subjects: [String] = []
        for n in 0..<messageCount {
            // seed.py appends in file-name order: the number is padded so UIDs follow it.
            let number = String(format: "%03d", n)
            let subject = "\(folder) message \(number)"
            let lines = n < smallCount ? 100 : 12_000
            _ = try TestServers.messageFile(id: "\(folder)-\(number)@proxy.test", subject: subject,
                                            body: String(repeating: "payload \(n) of the proxy test\n", count: lines), in: files)
            subjects.append(subject)
        }
        try await TestServers.seed(["append", "--user", "dave", "--mailbox", folder, files.path])
        return subjects
    }

    static func stored(_ harness: SyncHarness, _ folder: String) throws -> [MessageEntry] {
        guard let id = try harness.store.account(named: "dave")?.id,
              let record = try harness.store.folders(accountId: id).first(where: { $0.path == folder }) else { return [] }
        return try harness.store.tree.messages(inFolder: record.id ?? -1)
    }

    /// Whether `work` ends within `seconds`. It runs in a task of its own, so a hang is
    /// reported (and the proxy's end, in the clean-up, unblocks it) instead of hanging the test.
    static func finishes(within seconds: Double, _ work: @escaping @Sendable () async -> Void) async throws -> Bool {
        let finished = Flag()
        Task {
            await work()
            finished.set()
        }
        return try await Poll.until(seconds: seconds, every: .milliseconds(100)) { finished.isSet }
    }
}

/// A boolean set once, from any task.
final class Flag: Sendable {
    private let value = Mutex(false)

    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}
