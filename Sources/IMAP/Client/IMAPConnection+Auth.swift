extension IMAPConnection {
    /// CAPABILITY: asks the server again and stores the answer.
    @discardableResult
    public func capability() async throws(IMAPError) -> Set<String> {
        let result = try await execute("CAPABILITY", claims: Self.isCapability) { $0.raw("CAPABILITY") }
        learnCapabilities(from: result)
        return capabilities
    }

    /// LOGIN with the user name and password as quoted strings, or literals when they
    /// hold 8-bit bytes, quotes or line breaks.
    public func login(user: String, password: String) async throws(IMAPError) {
        let result = try await run("LOGIN", claims: Self.isCapability) { command in
            command.raw("LOGIN")
            command.string(user)
            command.string(password, secret: true)
        }
        try await finishAuthentication(result)
    }

    /// AUTHENTICATE PLAIN (RFC 4616), with the initial response on the command line when
    /// the server advertises SASL-IR, else after its `+`.
    public func authenticatePlain(user: String, password: String) async throws(IMAPError) {
        try await authenticate(mechanism: "PLAIN", response: SASL.plain(user: user, password: password))
    }

    /// AUTHENTICATE XOAUTH2 (Gmail, Outlook) with an OAuth 2 access token. On failure
    /// the server's error JSON (`{"status":"400",…}`) is in the error's `detail`.
    public func authenticateXOAUTH2(user: String, token: String) async throws(IMAPError) {
        try await authenticate(mechanism: "XOAUTH2", response: SASL.xoauth2(user: user, token: token))
    }

    /// LOGOUT, then close. A server that hangs up after its BYE is a normal end.
    public func logout() async {
        do {
            _ = try await run("LOGOUT", claims: { if case .bye = $0 { true } else { false } }) {
                $0.raw("LOGOUT")
            }
        } catch {
            logger.debug("LOGOUT ended with: \(error)")
        }
        await close()
    }

    /// C: A0001 AUTHENTICATE XOAUTH2 dXNlcj1…          (SASL-IR)
    /// S: + eyJzdGF0dXMiOiI0MDAiLC…                    (failure: error JSON)
    /// C:                                              (empty line)
    /// S: A0001 NO [AUTHENTICATIONFAILED] Invalid credentials
    private func authenticate(mechanism: String, response: String) async throws(IMAPError) {
        let initialResponse = supports(.saslInitialResponse)
        let result = try await run(
            "AUTHENTICATE", claims: Self.isCapability,
            configure: { command in
                command.answersChallengesWithEmptyLine = true
                if !initialResponse { command.segments.append(Array("\(response)\r\n".utf8)) }
            },
            { command in
                command.raw("AUTHENTICATE \(mechanism)")
                // RFC 4959: the initial response is bare base64, not a string.
                if initialResponse { command.raw(response, secret: true) }
            })
        try await finishAuthentication(result)
    }

    private func finishAuthentication(_ result: CommandResult) async throws(IMAPError) {
        guard result.state.status == .ok else {
            throw .authenticationFailed(result.failure, detail: result.lastChallenge.flatMap(SASL.challengeText))
        }
        isAuthenticated = true
        // Servers add capabilities after authentication (Outlook: MOVE).
        if !learnCapabilities(from: result) { try await capability() }
    }

    /// Takes capabilities from a CAPABILITY response or a `[CAPABILITY …]` code; returns
    /// whether there were any.
    @discardableResult
    private func learnCapabilities(from result: CommandResult) -> Bool {
        var names: [String]?
        for case .capability(let listed) in result.untagged { names = listed }
        if case .capability(let listed) = result.state.code { names = listed }
        guard let names else { return false }
        capabilities = Set(names)
        return true
    }

    private static let isCapability: @Sendable (UntaggedResponse) -> Bool = {
        if case .capability = $0 { true } else { false }
    }
}
