/// MAIL FROM, RCPT TO for each recipient, DATA and the message (RFC 5321 §3.3). With
/// PIPELINING (RFC 2920) MAIL and every RCPT go in one write and their replies are read
/// in order; DATA waits for them, so it is sent only when a recipient was accepted. When
/// recipients are left (`RecipientBatches`), the next transaction follows on the same
/// connection: at once after the end of data, after RSET when no recipient was accepted.
extension SubmissionStateMachine {
    mutating func startTransaction() -> [Action] {
        var actions: [Action] = []
        let eightBit = message.hasEightBitBytes && capabilities.eightBitMIME
        if message.hasEightBitBytes, !capabilities.eightBitMIME, answers.isEmpty {
            actions.append(.warn("the message has 8-bit bytes but the server does not offer 8BITMIME; sending as is"))
        }
        let mail = SMTPCommand.mailFrom(
            submission.envelopeFrom, size: capabilities.supports("SIZE") ? message.size : nil,
            eightBitMIME: eightBit, smtpUTF8: submission.needsSMTPUTF8)
        let transaction = Transaction(recipients: batches.next())
        state = .transaction(transaction)
        if capabilities.pipelining {
            return actions + [.send([mail] + transaction.recipients.map(SMTPCommand.rcptTo))]
        }
        return actions + [.send([mail])]
    }

    mutating func transactionAnswered(_ reply: SMTPReply, _ transaction: Transaction) -> [Action] {
        var transaction = transaction
        // 421: the server is closing the connection; no other reply will come.
        if reply.code == 421 {
            let command = transaction.mailReply == nil ? "MAIL FROM" : "RCPT TO"
            return refuse(.transientFailure(SMTPCommandFailure(command: command, reply: reply)))
        }
        if transaction.mailReply == nil {
            transaction.mailReply = reply
        } else {
            transaction.recipientReplies.append(reply)
        }
        state = .transaction(transaction)
        let mailError = transaction.mailReply.flatMap { Self.refusal($0, to: "MAIL FROM") }
        let recipients = transaction.recipients
        if capabilities.pipelining {
            // Every pipelined reply is read before the outcome, so none is left unread.
            guard transaction.recipientReplies.count == recipients.count else { return [] }
            if let mailError { return refuse(mailError) }
            return recipientsAnswered(transaction)
        }
        if let mailError { return refuse(mailError) }
        let next = transaction.recipientReplies.count
        guard next < recipients.count else { return recipientsAnswered(transaction) }
        return [.send([.rcptTo(recipients[next])])]
    }

    /// Some accepted: DATA. None: on to the next transaction, or the report.
    private mutating func recipientsAnswered(_ transaction: Transaction) -> [Action] {
        let results = zip(transaction.recipients, transaction.recipientReplies).map {
            SMTPRecipientResult(address: $0, reply: $1)
        }
        if let nonsense = results.first(where: { $0.reply.kind == .positiveIntermediate }) {
            return unexpected(nonsense.reply, to: "RCPT TO")
        }
        for result in results { answers[result.address] = result }
        guard results.contains(where: \.isAccepted) else {
            batches.finished(results, delivered: false)
            return afterTransaction(open: true)
        }
        state = .dataGo(results)
        return [.send([.data])]
    }

    mutating func dataAnswered(_ reply: SMTPReply, _ recipients: [SMTPRecipientResult]) -> [Action] {
        guard reply.code == 354 else {
            let error = Self.refusal(reply, to: "DATA") ?? .protocolViolation("unexpected reply to DATA: \(reply)")
            return refuse(error)
        }
        state = .dataCompletion(recipients)
        return [.sendMessage(message.wire)]
    }

    mutating func messageAnswered(_ reply: SMTPReply, _ recipients: [SMTPRecipientResult]) -> [Action] {
        if let error = Self.refusal(reply, to: "end of data") { return refuse(error) }
        dataReplies.append(reply)
        batches.finished(recipients, delivered: true)
        return [.delivered(recipients.filter(\.isAccepted).map(\.address))] + afterTransaction(open: false)
    }

    mutating func resetAnswered(_ reply: SMTPReply) -> [Action] {
        if let error = Self.refusal(reply, to: "RSET") { return refuse(error) }
        return startTransaction()
    }

    /// The next transaction when recipients are left (after RSET when this one is still
    /// `open`: MAIL FROM was accepted and nothing ended it), else the report and QUIT.
    private mutating func afterTransaction(open: Bool) -> [Action] {
        guard batches.isEmpty else {
            guard open else { return startTransaction() }
            state = .resetting
            return [.send([.rset])]
        }
        state = .quitting
        let recipients = submission.recipients.compactMap { answers[$0] }
        return [.succeed(SMTPDeliveryReport(recipients: recipients, dataReplies: dataReplies, capabilities: capabilities)),
                .send([.quit])]
    }
}
