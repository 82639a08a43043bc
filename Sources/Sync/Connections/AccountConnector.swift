import Activity
import Transport
import Config
import IMAP
import Logging
import Store

/// Opens authenticated IMAP sessions for one account: TLS or STARTTLS as configured,
/// the secret from its command (run each time, never kept on disk), LOGIN /
/// AUTHENTICATE PLAIN or XOAUTH2, and FR-SYNC-09's retries with backoff.
struct AccountConnector: Sendable {
    let account: AccountConfig
    var timing: SyncTiming
    let logger: Logger
    /// Where the server's `[ALERT]` texts go (the account's `.log` and `.status`).
    var alerts: AlertHandler = { _ in }

    enum Failure: Error, CustomStringConvertible {
        case credential(String)
        case authentication(String)
        /// The server's certificate, STARTTLS, the TLS version: for the user to fix.
        case security(String)
        /// The server could not be reached at all (refused, no route): no session began.
        case unreachable(String)
        case connection(String)

        var description: String {
            switch self {
            case .credential(let reason): return "cannot get the secret: \(reason)"
            case .authentication(let reason): return "authentication failed: \(reason)"
            case .security(let reason), .unreachable(let reason), .connection(let reason): return reason
            }
        }

        /// Only the network is worth another try: wrong credentials or an untrusted server
        /// stay wrong, and repeated failed logins get real accounts locked.
        var isRetryable: Bool {
            switch self {
            case .connection, .unreachable: true
            case .credential, .authentication, .security: false
            }
        }
    }

    /// Connects and authenticates, retrying connection failures after each of
    /// `timing.retryDelays`. `phase` reports connecting/authenticating to `.status`;
    /// `retrying` says why an attempt failed and when the next one is.
    ///
    /// A server that cannot be reached at all is tried every `unreachableRetry` instead,
    /// for as long as the delays add up to: such an attempt reaches no login and costs the
    /// server nothing, and a server back after 30 s is then found within 5 s, not at the
    /// attempt 65 s in.
    func open(phase: @Sendable (SyncPhase) -> Void,
              retrying: @Sendable (String) -> Void = { _ in }) async throws(Failure) -> IMAPConnection {
        var attempt = 0
        var unreachableWaited = Duration.zero
        let unreachableBudget = timing.retryDelays.reduce(.zero, +)
        while true {
            do {
                return try await openOnce(phase: phase)
            } catch {
                let failure = error
                guard failure.isRetryable else { throw failure }
                let delay: Duration
                if case .unreachable = failure, unreachableWaited < unreachableBudget {
                    delay = min(Self.unreachableRetry, unreachableBudget - unreachableWaited)
                    unreachableWaited += delay
                } else {
                    guard attempt < timing.retryDelays.count else { throw failure }
                    delay = timing.retryDelays[attempt]
                    attempt += 1
                }
                logger.info("connection attempt failed: \(failure); retrying in \(delay)")
                retrying("\(failure); next attempt in \(delay)")
                try? await Task.sleep(for: delay)
            }
        }
    }

    /// How often a server that cannot be reached is tried (by IDLE too).
    static let unreachableRetry = Duration.seconds(5)

    func openOnce(phase: @Sendable (SyncPhase) -> Void) async throws(Failure) -> IMAPConnection {
        phase(.connecting)
        let connection: IMAPConnection
        do {
            connection = try await IMAPConnection.connect(
                host: account.imap.host, port: account.imap.port,
                security: account.imap.security == .starttls ? .starttls : .tls,
                tls: TLSOptions(extraCAFile: account.caFile),
                timeouts: IMAPTimeouts(connect: timing.connectTimeout, response: timing.responseTimeout),
                logger: logger, alerts: alerts)
        } catch {
            if case .connectFailed = error { throw .unreachable(error.description) }
            guard error.isPermanent else { throw .connection(error.description) }
            guard case .tls(let failure) = error else { throw .security(error.description) }
            throw .security(account.describe(failure, host: account.imap.host))
        }
        phase(.authenticating)
        do {
            try await authenticate(connection)
        } catch {
            await connection.close()
            throw error
        }
        return connection
    }

    private func authenticate(_ connection: IMAPConnection) async throws(Failure) {
        let secret = try await fetchSecret()
        guard account.auth == .xoauth2 else {
            return try await login(connection) { () async throws(IMAPError) in
                if connection.supports(.authPlain) {
                    try await connection.authenticatePlain(user: account.username, password: secret)
                } else {
                    try await connection.login(user: account.username, password: secret)
                }
            }
        }
        do {
            try await login(connection) { () async throws(IMAPError) in
                try await connection.authenticateXOAUTH2(user: account.username, token: secret)
            }
        } catch .authentication {
            // An expired token: the token command is asked once more (FR-SYNC-04
            // TokenRefresh); a second refusal is final.
            let fresh = try await fetchSecret()
            try await login(connection) { () async throws(IMAPError) in
                try await connection.authenticateXOAUTH2(user: account.username, token: fresh)
            }
        }
    }

    private func fetchSecret() async throws(Failure) -> String {
        do {
            return try await SecretCommand.run(account.credential.command)
        } catch {
            throw .credential(error.description)
        }
    }

    /// Runs one login attempt, sorting refusals (no retry) from connection trouble.
    private func login(_ connection: IMAPConnection,
                       _ attempt: () async throws(IMAPError) -> Void) async throws(Failure) {
        do {
            try await attempt()
        } catch {
            switch error {
            case .authenticationFailed, .commandFailed: throw .authentication(error.description)
            default: throw .connection(error.description)
            }
        }
    }
}
