/// Which recipients each mail transaction of one submission carries. A server may take
/// fewer recipients in a transaction than a message has (Postfix's `smtpd_recipient_limit`
/// is 1,000): it answers `452 4.5.3 too many recipients` to the others, which RFC 5321
/// §4.5.3.1.10 says to send in a further transaction. So:
///
/// - a transaction carries at most `limit` recipients: 1,000 at first (a server keeps at
///   least 100, §4.5.3.1.8, and a batch far over its limit costs errors that Postfix
///   counts against the session), then as many as the server took when it said it was full;
/// - recipients refused because the transaction was full go again in the next one, but
///   only after a transaction that carried the message: without progress the same answer
///   would come again;
/// - every other recipient is asked exactly once per submission.
struct RecipientBatches: Sendable, Equatable {
    static let firstLimit = 1000

    private var untried: ArraySlice<String>
    /// Refused by a full transaction that then carried the message: the next batch's first.
    private var overflow: [String] = []
    private(set) var limit = Self.firstLimit

    init(_ recipients: [String]) {
        untried = recipients[...]
    }

    var isEmpty: Bool { untried.isEmpty && overflow.isEmpty }

    /// The recipients of the next transaction, taken out of the batches.
    mutating func next() -> [String] {
        let fromOverflow = Array(overflow.prefix(limit))
        overflow.removeFirst(fromOverflow.count)
        let fromUntried = untried.prefix(limit - fromOverflow.count)
        untried = untried.dropFirst(fromUntried.count)
        return fromOverflow + fromUntried
    }

    /// Takes a transaction's answers in: `delivered` when the message went to its accepted
    /// recipients (DATA and the end of data were accepted).
    mutating func finished(_ answers: [SMTPRecipientResult], delivered: Bool) {
        let full = answers.filter(\.isOverTransactionLimit).map(\.address)
        guard delivered, !full.isEmpty else { return }
        overflow += full
        limit = max(1, answers.count(where: \.isAccepted))
    }
}
