import Testing

@testable import SMTP

/// Which recipients each transaction carries, without a server.
@Suite("Recipient batches")
struct RecipientBatchesTests {
    static func answers(_ addresses: ArraySlice<String>, accepted: Int, code: Int = 452) -> [SMTPRecipientResult] {
        addresses.enumerated().map { index, address in
            let reply = index < accepted ? SMTPReply(code: 250, lines: ["2.1.5 Ok"])
                : SMTPReply(code: code, lines: ["4.5.3 Error: too many recipients"])
            return SMTPRecipientResult(address: address, reply: reply)
        }
    }

    @Test("1,500 recipients against a limit of 1,000: the first 1,000 asked, then the 500 the server had no room for")
    func postfixDefault() {
        let recipients = (1...1500).map { "r\($0)@example.test" }
        var batches = RecipientBatches(recipients)
        let first = batches.next()
        #expect(first == Array(recipients.prefix(1000)))
        batches.finished(Self.answers(first[...], accepted: 1000), delivered: true)
        let second = batches.next()
        #expect(second == Array(recipients.suffix(500)))
        batches.finished(Self.answers(second[...], accepted: 500), delivered: true)
        #expect(batches.isEmpty)
    }

    @Test("a full transaction sets the size of the next ones; those refused as too many go first")
    func learnedLimit() {
        let recipients = (1...10).map { "r\($0)@example.test" }
        var batches = RecipientBatches(recipients)
        let first = batches.next()
        #expect(first.count == 10)
        batches.finished(Self.answers(first[...], accepted: 3), delivered: true)
        #expect(batches.limit == 3)
        var sizes: [Int] = []
        while !batches.isEmpty {
            let batch = batches.next()
            sizes.append(batch.count)
            batches.finished(Self.answers(batch[...], accepted: batch.count), delivered: true)
        }
        #expect(sizes == [3, 3, 1])
    }

    @Test("without progress (nothing delivered) the recipients refused as too many are not asked again")
    func noProgress() {
        var batches = RecipientBatches(["a@example.test", "b@example.test"])
        let first = batches.next()
        batches.finished(Self.answers(first[...], accepted: 0), delivered: false)
        #expect(batches.isEmpty)
    }

    @Test("other refusals are never asked again, whatever the transaction did")
    func otherRefusals() {
        var batches = RecipientBatches(["a@example.test", "b@example.test"])
        let first = batches.next()
        batches.finished(Self.answers(first[...], accepted: 1, code: 450), delivered: true)
        #expect(batches.isEmpty)
        #expect(batches.limit == RecipientBatches.firstLimit)
    }
}
