import Config
import Foundation
import Logging
import SMTP
import Store
import Transport

/// One attempt to hand a message to the account's SMTP server, sorted into what the send
/// queue does next (FR-SYNC-07 error handling).
struct SMTPTransmitter: Sendable {
    enum Outcome: Equatable {
        /// Every recipient was answered; these were refused (the others took the message
        /// and were passed to `onDelivered`). `sizeLimit` is the SIZE the server
        /// advertised, for checking the next files at close().
        case answered(refused: [RecipientRefusal], sizeLimit: Int?)
        /// The session ended early, worth retrying later (connection trouble, 4xx).
        case transient(String)
        /// The session ended early, never retried: 5xx, authentication, TLS, too large.
        case permanent(String)
    }

    let account: AccountConfig
    let endpoint: ServerEndpoint
    let timing: SyncTiming
    let logger: Logger

    /// `onDelivered` runs on the event loop the instant the server accepts the message for
    /// some recipients (once per SMTP transaction), with their addresses.
    func send(data: [UInt8], envelopeFrom: String, recipients: [String],
              onDelivered: @escaping @Sendable ([String]) -> Void = { _ in }) async -> Outcome {
        let submission = SMTPSubmission(envelopeFrom: envelopeFrom, recipients: recipients, data: data)
        do {
            return try await attempt(submission, onDelivered: onDelivered)
        } catch {
            guard case .smtp(.authenticationFailed) = error, account.auth == .xoauth2 else { return classify(error) }
        }
        // An expired token: the token command runs once more (FR-ACCT-04 in
        // docs/REQUIREMENTS.md), then it is final.
        logger.info("SMTP XOAUTH2 refused; asking the token command again")
        do {
            return try await attempt(submission, onDelivered: onDelivered)
        } catch {
            return classify(error)
        }
    }

    private func attempt(_ submission: SMTPSubmission,
                         onDelivered: @escaping @Sendable ([String]) -> Void) async throws(TransmitError) -> Outcome {
        let secret: String
        do {
            secret = try await SecretCommand.run(account.credential.command)
        } catch {
            throw .credential(error.description)
        }
        let credential: SMTPCredential = account.auth == .xoauth2
            ? .xoauth2(user: account.username, token: secret) : .password(user: account.username, password: secret)
        let target = SMTPEndpoint(host: endpoint.host, port: endpoint.port,
                                  security: endpoint.security == .starttls ? .starttls : .tls,
                                  tls: TLSOptions(extraCAFile: account.caFile))
        let report: SMTPDeliveryReport
        do {
            report = try await SMTPClient.send(submission, to: target, credential: credential,
                                               timeouts: SMTPTimeouts(connect: timing.connectTimeout), logger: logger,
                                               onDelivered: onDelivered)
        } catch {
            throw .smtp(error)
        }
        return Self.outcome(of: report)
    }

    /// What the send queue needs of a report: the refused recipients, each for now (4xx)
    /// or for good (5xx), with the server's reply.
    static func outcome(of report: SMTPDeliveryReport) -> Outcome {
        let refused = report.rejectedRecipients.map {
            RecipientRefusal(address: $0.address, reply: $0.reply.description, isTransient: $0.isTransientRejection)
        }
        return .answered(refused: refused, sizeLimit: report.capabilities.maximumSize)
    }

    private func classify(_ error: TransmitError) -> Outcome {
        switch error {
        case .credential(let reason):
            return .permanent("cannot get the secret: \(reason)")
        case .smtp(.authenticationFailed) where account.auth == .plain:
            return .permanent("SMTP authentication failed for \(account.address). Please check your app password.")
        case .smtp(.tls(let failure)) where failure.isPermanent:
            return .permanent(account.describe(failure, host: endpoint.host))
        case .smtp(let failure):
            return failure.isTransient ? .transient(failure.description) : .permanent(failure.description)
        }
    }

    enum TransmitError: Error {
        case credential(String)
        case smtp(SMTPError)
    }
}
