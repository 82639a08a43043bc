import Foundation
import MailCore
import Store
@testable import Sync
import TestSupport
import Testing

/// Sending to more recipients than the server takes in one transaction, through the test
/// Postfix's SMTPS_RCPT_LIMIT port (`smtpd_recipient_limit` = RCPT_LIMIT, 3): every
/// recipient gets the message exactly once, also across a crash between transactions.
@Suite("Sending over a server's recipient limit", .serialized)
struct RecipientLimitSendingTests {
    static func harness() throws -> SyncHarness {
        try SyncHarness(try SendingTests.sendingTOML(name: "work", user: "alice", port: "SMTPS_RCPT_LIMIT_PORT"))
    }

    @Test("8 recipients, 3 a transaction: each gets the message once, the Sent copy is filed once")
    func everyRecipientOnce() async throws {
        try await SharedServers.shared {
            #expect(try TestServers.env("RCPT_LIMIT") == "3")
            let harness = try Self.harness()
            await harness.sync("work")
            let subject = "Limit \(UUID().uuidString.prefix(8))"
            let recipients = try RecipientCopies.addresses(8)
            let item = try await SendingTests.send(harness, "work", to: recipients.joined(separator: ", "), subject: subject)
            #expect(item == nil, "delivered and filed: \(harness.log("work"))")
            let copies = try await RecipientCopies.settled(subject: subject, recipients: recipients)
            #expect(copies.values.allSatisfy { $0 == 1 }, "\(copies.sorted { $0.key < $1.key })")
            #expect(try await SendingTests.delivered(subject, to: "alice", mailbox: "Sent") == 1)
        }
    }

    @Test("an unknown recipient among them is reported; the others are all reached")
    func refusedAmongMany() async throws {
        try await SharedServers.shared {
            let harness = try Self.harness()
            await harness.sync("work")
            let subject = "Limit refused \(UUID().uuidString.prefix(8))"
            let recipients = try RecipientCopies.addresses(5)
            let to = ([recipients[0], "nobody@example.test"] + recipients.dropFirst()).joined(separator: ", ")
            #expect(try await SendingTests.send(harness, "work", to: to, subject: subject) == nil, "\(harness.log("work"))")
            let copies = try await RecipientCopies.settled(subject: subject, recipients: recipients)
            #expect(copies.values.allSatisfy { $0 == 1 }, "\(copies.sorted { $0.key < $1.key })")
            #expect(harness.log("work").contains("not delivered to nobody@example.test: 550"), "\(harness.log("work"))")
        }
    }

    /// The first transaction is run as the sender runs it (its recipients recorded by the
    /// acceptance log the moment the server accepts them); then the process "dies" before
    /// SQLite hears of it, and start-up recovers as `mailfs mount` and the sender do.
    @Test("a crash between two transactions: after the restart the message goes to the others only")
    func crashBetweenTransactions() async throws {
        try await SharedServers.shared {
            let harness = try Self.harness()
            await harness.sync("work")
            let subject = "Limit crash \(UUID().uuidString.prefix(8))"
            let recipients = try RecipientCopies.addresses(6)
            let item = try SendingTests.queue(harness, "work", to: recipients.joined(separator: ", "), subject: subject)
            let sender = try #require(harness.coordinator.accounts["work"]?.sender)
            guard case .update(state: .sending, _, _, _, _) = try harness.store.sync.transition(send: item.id, .claim) else {
                Issue.record("not claimed")
                return
            }
            let store = harness.store
            let data = try #require(try store.sync.outboxData(id: item.id))
            // The limit port takes three, then would go on: the first transaction alone is
            // sent to those three, through the sender's own transmitter and callback.
            let first = await sender.transmitter.send(data: data, envelopeFrom: item.envelopeFrom,
                                                      recipients: Array(recipients.prefix(3)),
                                                      onDelivered: { recipients in
                                                          #expect(throws: Never.self) { try store.sync.noteDelivered(send: item.id, to: recipients) }
                                                      })
            #expect(first == .answered(refused: [], sizeLimit: 10_240_000), "\(first)")

            #expect(try store.sync.recoverDeliveries() == 0, "three recipients are still to reach")
            #expect(try store.sync.recoverInterruptedSends(accountId: item.accountId, machine: sender.machine) == 1)
            _ = await sender.sendDue(accountId: item.accountId)
            #expect(try store.sync.outboxItem(id: item.id) == nil, "\(harness.log("work"))")
            #expect(harness.log("work").contains("to the 3 recipient(s) not reached yet"), "\(harness.log("work"))")
            let copies = try await RecipientCopies.settled(subject: subject, recipients: recipients)
            #expect(copies.values.allSatisfy { $0 == 1 }, "\(copies.sorted { $0.key < $1.key })")
        }
    }

    /// What outbox/ takes must arrive whole: the longest address header it accepts is what
    /// Postfix keeps (`header_address_token_limit`), one token more is refused at close.
    @Test("a To of as many addresses as outbox/ takes (10,235 tokens) reaches the recipient whole")
    func longestTo() async throws {
        try await SharedServers.shared {
            let harness = try Self.harness()
            let subject = "Long To \(UUID().uuidString.prefix(8))"
            let addresses = try RecipientCopies.addresses(1706)
            let raw = Array("To: \(addresses.joined(separator: ", "))\nSubject: \(subject)\n\nhi\n".utf8)
            let prepared = try OutgoingPreparer.prepare(raw, policy: OutgoingPolicy(accountAddress: "alice@example.test"),
                                                        now: Date(), uniqueToken: UUID().uuidString).get()
            let sender = try #require(harness.coordinator.accounts["work"]?.sender)
            let sent = await sender.transmitter.send(data: prepared.data, envelopeFrom: prepared.envelopeFrom,
                                                     recipients: [addresses[0]])
            #expect(sent == .answered(refused: [], sizeLimit: 10_240_000), "\(sent)")
            _ = try await RecipientCopies.settled(subject: subject, recipients: [addresses[0]])
            let message = try #require(try RecipientCopies.messages(subject: subject).first)
            let to = MessageParser.parse(Array(message.utf8)).to.map(\.address)
            #expect(to == addresses, "\(to.count) of \(addresses.count) addresses arrived")
        }
    }
}
