/// Greeting, EHLO, STARTTLS and AUTH: everything before the mail transaction.
extension SubmissionStateMachine {
    mutating func greeted(_ reply: SMTPReply) -> [Action] {
        if let error = Self.refusal(reply, to: "greeting") { return refuse(error) }
        guard reply.code == 220 else { return unexpected(reply, to: "the greeting") }
        return sendEHLO()
    }

    private mutating func sendEHLO() -> [Action] {
        state = .ehlo
        return [.send([.ehlo(clientName)])]
    }

    mutating func ehloAnswered(_ reply: SMTPReply) -> [Action] {
        if let error = Self.refusal(reply, to: "EHLO") { return refuse(error) }
        capabilities = SMTPCapabilities(ehloReply: reply)
        if protection == .startTLS, !tlsActive {
            guard capabilities.startTLS else { return failAndQuit(.startTLSNotOffered) }
            state = .startTLS
            return [.send([.startTLS])]
        }
        if let error = unsendableReason() { return failAndQuit(error) }
        return authenticate()
    }

    /// After `220`, TLS goes in and EHLO is asked again: what the server offered in
    /// plaintext may have been forged.
    mutating func startTLSAnswered(_ reply: SMTPReply) -> [Action] {
        if let error = Self.refusal(reply, to: "STARTTLS") { return refuse(error) }
        tlsActive = true
        capabilities = SMTPCapabilities()
        return [.startTLS] + sendEHLO()
    }

    /// What this server cannot take, found before any credential or address is sent.
    private func unsendableReason() -> SMTPError? {
        if let limit = capabilities.maximumSize, message.size > limit {
            return .messageTooLarge(size: message.size, limit: limit)
        }
        if submission.needsSMTPUTF8, !capabilities.smtpUTF8 { return .extensionMissing("SMTPUTF8") }
        return nil
    }

    private mutating func authenticate() -> [Action] {
        guard let mechanism = SASLMechanism.choose(for: credential, offered: capabilities.authMechanisms) else {
            return failAndQuit(.noUsableAuthMechanism(offered: capabilities.authMechanisms.sorted()))
        }
        let response: String? = switch mechanism {
        case .login: nil
        case .plain: SASLResponse.plain(user: credential.user, password: credential.secret)
        case .xoauth2: SASLResponse.xoauth2(user: credential.user, token: credential.secret)
        }
        state = .authenticating(mechanism == .login ? .loginUserPrompt : .responseSent)
        return [.send([.auth(mechanism, initialResponse: response)])]
    }

    mutating func authAnswered(_ reply: SMTPReply, step: AuthStep) -> [Action] {
        switch reply.kind {
        case .positiveCompletion:
            return startTransaction()
        case .positiveIntermediate:
            return challenged(reply, step: step)
        case .transientNegative:
            return failAndQuit(.transientFailure(SMTPCommandFailure(command: "AUTH", reply: reply)))
        case .permanentNegative:
            var detail: String?
            if case .challengeAnswered(let text) = step { detail = text }
            return failAndQuit(.authenticationFailed(reply, detail: detail))
        }
    }

    /// C: AUTH LOGIN           S: 334 VXNlcm5hbWU6      C: <user>
    /// S: 334 UGFzc3dvcmQ6      C: <password>            S: 235 …
    /// A `334` after the response is complete carries the reason of a failure (XOAUTH2);
    /// an empty line answers it and the server then sends its 5xx.
    private mutating func challenged(_ reply: SMTPReply, step: AuthStep) -> [Action] {
        guard reply.code == 334 else { return unexpected(reply, to: "AUTH") }
        switch step {
        case .loginUserPrompt:
            state = .authenticating(.loginPasswordPrompt)
            return [.send([.saslResponse(SASLResponse.login(credential.user))])]
        case .loginPasswordPrompt:
            state = .authenticating(.responseSent)
            return [.send([.saslResponse(SASLResponse.login(credential.secret))])]
        case .responseSent:
            state = .authenticating(.challengeAnswered(SASLResponse.challengeText(reply.text)))
            return [.send([.saslResponse("")])]
        case .challengeAnswered:
            return unexpected(reply, to: "AUTH")
        }
    }
}
