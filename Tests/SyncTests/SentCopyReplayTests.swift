import Foundation
import Store
@testable import Sync
import TestSupport
import Testing

/// The Sent copy is journaled like every other write: a run that dies between its APPEND
/// and the row leaving the queue must not file it twice. The crash is the appender's own
/// APPEND step run without the `filed` that follows it; the replay is the next round.
@Suite("Sent copy replay after a crash", .serialized)
struct SentCopyReplayTests {
    /// An IMAP server of the matrix: the port of its IMAPS and seed.py's name for it.
    struct Server: Sendable, CustomTestStringConvertible {
        var kind: String
        var port: String
        var testDescription: String { kind }
    }

    static let servers = [Server(kind: "dovecot", port: "IMAPS_PORT"), Server(kind: "cyrus", port: "CYRUS_IMAPS_PORT"),
                          Server(kind: "courier", port: "COURIER_IMAPS_PORT")]

    /// A synced account on `server` whose message was accepted by the test Postfix (the
    /// SMTP side plays no part here): the row waits for its Sent copy.
    static func accepted(on server: Server, subject: String) throws -> (SyncHarness, OutboxItem, SentCopyAppender) {
        let toml = try TestServers.accountTOML(name: "work", user: "alice", port: server.port, extra: "undo_seconds = 0")
            + "[accounts.work.smtp]\nhost = \"127.0.0.1\"\nport = \(try TestServers.env("SMTPS_PORT"))\nsecurity = \"tls\"\n"
        let harness = try SyncHarness(toml)
        let item = try SendingTests.queue(harness, "work", to: "bob@example.test", subject: subject)
        try harness.store.sync.transition(send: item.id, .claim)
        try harness.store.sync.transition(send: item.id, .answered(refused: []), deliveredTo: item.recipients)
        let appender = try #require(harness.coordinator.accounts["work"]?.sender?.sentCopies)
        return (harness, item, appender)
    }

    static func sentCount(_ subject: String, on server: Server) async throws -> Int {
        try await TestServers.seed(["list", "--server", server.kind, "--user", "alice", "--mailbox", "Sent"])
            .split(separator: "\n").count { $0.hasSuffix("\t\(subject)") }
    }

    @Test("killed after the APPEND, before the row left the queue: the replay finds the copy, Sent holds it once",
          arguments: servers)
    func killedAfterAppend(server: Server) async throws {
        try await SharedServers.shared(server.kind) {
            let subject = "Sent replay \(UUID().uuidString.prefix(8))"
            let (harness, item, appender) = try Self.accepted(on: server, subject: subject)
            await harness.sync("work")
            let copy = try await appender.putInSent(itemId: item.id)
            #expect(copy?.appended == true)
            #expect(try harness.store.sync.outboxItem(id: item.id)?.state == .filing)
            // The restart's round.
            await appender.appendPending(accountId: item.accountId)
            #expect(try harness.store.sync.outboxItem(id: item.id) == nil, "\(harness.log("work"))")
            #expect(harness.log("work").contains("copy found in"), "\(harness.log("work"))")
            #expect(try await Self.sentCount(subject, on: server) == 1)
        }
    }

    @Test("killed after the row was marked, before the APPEND went out: the replay appends it once", arguments: servers)
    func killedBeforeAppend(server: Server) async throws {
        try await SharedServers.shared(server.kind) {
            let subject = "Sent unsent \(UUID().uuidString.prefix(8))"
            let (harness, item, appender) = try Self.accepted(on: server, subject: subject)
            await harness.sync("work")
            try harness.store.sync.transition(send: item.id, .appendingCopy)
            await appender.appendPending(accountId: item.accountId)
            #expect(try harness.store.sync.outboxItem(id: item.id) == nil, "\(harness.log("work"))")
            #expect(harness.log("work").contains("copy saved in"), "\(harness.log("work"))")
            #expect(try await Self.sentCount(subject, on: server) == 1)
        }
    }
}
