/// MAIL FROM, RCPT TO for each recipient, DATA and the message (RFC 5321 §3.3). With
/// PIPELINING (RFC 2920) MAIL and every RCPT go in one write and their replies are read
/// in order; DATA waits for them, so it is sent only when a recipient was accepted.
extension SubmissionStateMachine {
    mutating func startTransaction() -> [Action] {
        var actions: [Action] = []
        let eightBit = message.hasEightBitBytes && capabilities.eightBitMIME
        if message.hasEightBitBytes, !capabilities.eightBitMIME {
            actions.append(.warn("the message has 8-bit bytes but the server does not offer 8BITMIME; sending as is"))
        }
        let mail = SMTPCommand.mailFrom(
            submission.envelopeFrom, size: capabilities.supports("SIZE") ? message.size : nil,
            eightBitMIME: eightBit, smtpUTF8: submission.needsSMTPUTF8)
        state = .transaction(Transaction())
        if capabilities.pipelining {
            return actions + [.send([mail] + submission.recipients.map(SMTPCommand.rcptTo))]
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
        if capabilities.pipelining {
            // Every pipelined reply is read before the outcome, so none is left unread.
            guard transaction.recipientReplies.count == submission.recipients.count else { return [] }
            if let mailError { return refuse(mailError) }
            return recipientsAnswered(transaction.recipientReplies)
        }
        if let mailError { return refuse(mailError) }
        let next = transaction.recipientReplies.count
        guard next < submission.recipients.count else { return recipientsAnswered(transaction.recipientReplies) }
        return [.send([.rcptTo(submission.recipients[next])])]
    }

    /// Some accepted: DATA. None: the report as it is, without sending the message.
    private mutating func recipientsAnswered(_ replies: [SMTPReply]) -> [Action] {
        let results = zip(submission.recipients, replies).map { SMTPRecipientResult(address: $0, reply: $1) }
        if let nonsense = results.first(where: { $0.reply.kind == .positiveIntermediate }) {
            return unexpected(nonsense.reply, to: "RCPT TO")
        }
        guard results.contains(where: \.isAccepted) else {
            state = .quitting
            return [.succeed(report(results, dataReply: nil)), .send([.quit])]
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
        state = .quitting
        return [.succeed(report(recipients, dataReply: reply)), .send([.quit])]
    }

    private func report(_ recipients: [SMTPRecipientResult], dataReply: SMTPReply?) -> SMTPDeliveryReport {
        SMTPDeliveryReport(recipients: recipients, dataReply: dataReply, capabilities: capabilities)
    }
}
