/// The whole client side of one submission as a pure value: it reads replies and says
/// what to do next, with no sockets, so every path is testable from a transcript.
///
///     S: 220 smtp.example.com ESMTP              C: EHLO [192.0.2.7]
///     S: 250-… STARTTLS                          C: STARTTLS          (starttls only)
///     S: 220 go ahead                            (TLS) C: EHLO [192.0.2.7]
///     S: 250-… AUTH PLAIN LOGIN                  C: AUTH PLAIN <redacted>
///     S: 235 2.7.0 Authentication successful     C: MAIL FROM:<a@x> SIZE=…
///                                                C: RCPT TO:<b@y>     (pipelined when offered)
///     S: 250 … / S: 250 …                        C: DATA
///     S: 354 End data with <CR><LF>.<CR><LF>     C: (message) .
///     S: 250 2.0.0 Ok: queued as 4Bq…            C: QUIT
///
/// A server that takes fewer recipients per transaction than the message has gets further
/// transactions on the same connection (`RecipientBatches`): after the end of data's 250,
/// MAIL FROM again with the recipients it refused as too many.
///
/// The outcome (`succeed` or `fail`) comes as soon as it is known; QUIT is then sent and
/// the connection closed after its reply. Each transaction that carried the message is
/// announced (`delivered`) before anything else happens, so a caller that records it never
/// sends the message to those recipients again, whatever fails later in the session.
struct SubmissionStateMachine: Sendable {
    /// How the connection is protected. `.none` exists for transcript tests only: the
    /// public API offers `SMTPSecurity`.
    enum Protection: Sendable, Equatable {
        case implicitTLS, startTLS, none
    }

    enum Action: Equatable {
        /// Write these commands and flush once (several when pipelined).
        case send([SMTPCommand])
        /// Write the prepared message, terminator included.
        case sendMessage([UInt8])
        /// The server took the message for these recipients (one transaction's accepted ones).
        case delivered([String])
        /// Put TLS in front of the connection now, and drop every byte buffered so far.
        case startTLS
        case succeed(SMTPDeliveryReport)
        case fail(SMTPError)
        case warn(String)
        case close
    }

    /// What the client waits for, which decides the timeout.
    enum Wait: Equatable {
        case greeting, reply, dataCompletion, nothing
    }

    enum AuthStep: Sendable, Equatable {
        /// The response is complete; a `334` now is a failure challenge (XOAUTH2's JSON).
        case responseSent
        case loginUserPrompt
        case loginPasswordPrompt
        /// The failure challenge was answered with an empty line; its text is kept for the error.
        case challengeAnswered(String?)
    }

    /// One transaction's recipients, and the MAIL FROM and RCPT TO replies in order;
    /// pipelined, they arrive together.
    struct Transaction: Sendable, Equatable {
        var recipients: [String]
        var mailReply: SMTPReply?
        var recipientReplies: [SMTPReply] = []
    }

    enum State: Sendable, Equatable {
        case greeting, ehlo, startTLS
        case authenticating(AuthStep)
        case transaction(Transaction)
        case dataGo([SMTPRecipientResult])
        case dataCompletion([SMTPRecipientResult])
        /// RSET after a transaction that no recipient accepted, before the next one.
        case resetting
        case quitting, done
    }

    let submission: SMTPSubmission
    let message: MessageData
    let credential: SMTPCredential
    let protection: Protection
    /// The EHLO argument: an address literal of the local address (no host name leaks).
    var clientName = "[127.0.0.1]"
    // Written only by the steps in this type's extensions (hence not private).
    var state = State.greeting
    /// What the last EHLO offered; emptied by STARTTLS until EHLO is asked again.
    var capabilities = SMTPCapabilities()
    /// The recipients still to ask, and how many a transaction carries.
    var batches: RecipientBatches
    /// Each recipient's last answer, and the reply to each copy of the message sent.
    var answers: [String: SMTPRecipientResult] = [:]
    var dataReplies: [SMTPReply] = []
    /// INVARIANT: AUTH and the transaction start only when this is true or the
    /// protection is `.none` (tests).
    var tlsActive: Bool

    init(submission: SMTPSubmission, credential: SMTPCredential, protection: Protection) {
        self.submission = submission
        self.message = MessageData(submission.data)
        self.credential = credential
        self.protection = protection
        batches = RecipientBatches(submission.recipients)
        tlsActive = protection == .implicitTLS
    }

    var waitingFor: Wait {
        switch state {
        case .greeting: .greeting
        case .dataCompletion: .dataCompletion
        case .done: .nothing
        default: .reply
        }
    }

    /// The next step after a complete reply.
    mutating func receive(_ reply: SMTPReply) -> [Action] {
        switch state {
        case .greeting: greeted(reply)
        case .ehlo: ehloAnswered(reply)
        case .startTLS: startTLSAnswered(reply)
        case .authenticating(let step): authAnswered(reply, step: step)
        case .transaction(let transaction): transactionAnswered(reply, transaction)
        case .dataGo(let recipients): dataAnswered(reply, recipients)
        case .dataCompletion(let recipients): messageAnswered(reply, recipients)
        case .resetting: resetAnswered(reply)
        case .quitting: finish()
        case .done: []
        }
    }

    /// The connection failed (closed, timed out, TLS, garbage): the outcome is this error
    /// unless it is already known.
    mutating func fail(_ error: SMTPError) -> [Action] {
        let decided = state == .quitting || state == .done
        state = .done
        return decided ? [.close] : [.fail(error), .close]
    }

    /// Ends the session once the outcome is known.
    mutating func finish() -> [Action] {
        state = .done
        return [.close]
    }

    /// Reports `error` and says goodbye politely; the connection closes after QUIT's reply.
    mutating func failAndQuit(_ error: SMTPError) -> [Action] {
        state = .quitting
        return [.fail(error), .send([.quit])]
    }

    /// A reply that no step allows (a 354 to EHLO, a 334 outside AUTH).
    mutating func unexpected(_ reply: SMTPReply, to command: String) -> [Action] {
        fail(.protocolViolation("unexpected reply to \(command): \(reply)"))
    }

    /// 4xx and 5xx as the matching error, other non-2xx as a protocol violation; nil for 2xx.
    static func refusal(_ reply: SMTPReply, to command: String) -> SMTPError? {
        let failure = SMTPCommandFailure(command: command, reply: reply)
        switch reply.kind {
        case .positiveCompletion: return nil
        case .transientNegative: return .transientFailure(failure)
        case .permanentNegative: return .rejected(failure)
        case .positiveIntermediate: return .protocolViolation("unexpected reply to \(command): \(reply)")
        }
    }

    /// Fails with the refusal: politely for a 4xx/5xx, by closing for a nonsense reply.
    mutating func refuse(_ error: SMTPError) -> [Action] {
        if case .protocolViolation = error { return fail(error) }
        return failAndQuit(error)
    }
}
