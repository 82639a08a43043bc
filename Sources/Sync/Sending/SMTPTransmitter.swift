import Config
import Foundation
import Logging
import SMTP
import Transport

/// One attempt to hand a message to the account's SMTP server, sorted into what the send
/// queue does next (FR-SYNC-07 error handling).
struct SMTPTransmitter: Sendable {
    enum Outcome: Equatable {
        /// The server took it; `note` names recipients it refused. `sizeLimit` is the SIZE
        /// it advertised, for checking the next files at close().
        case accepted(note: String?, sizeLimit: Int?)
        /// Worth retrying later (connection trouble, 4xx).
        case transient(String)
        /// Never retried: 5xx, authentication, TLS, too large.
        case permanent(String)
    }

    let account: AccountConfig
    let endpoint: ServerEndpoint
    let timing: SyncTiming
    let logger: Logger

    /// `onDelivered` runs on the event loop the instant the server accepts the message.
    func send(data: [UInt8], envelopeFrom: String, recipients: [String],
              onDelivered: @escaping @Sendable () -> Void = {}) async -> Outcome {
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
                         onDelivered: @escaping @Sendable () -> Void) async throws(TransmitError) -> Outcome {
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

    /// All recipients refused: a 5xx among them makes it permanent. Some refused: the
    /// message went to the others and the refusals are reported.
    static func outcome(of report: SMTPDeliveryReport) -> Outcome {
        let refused = report.rejectedRecipients.map(\.description).joined(separator: "; ")
        guard report.isDelivered else {
            return report.rejectedRecipients.contains { !$0.isTransientRejection }
                ? .permanent("every recipient was refused: \(refused)") : .transient("recipients refused for now: \(refused)")
        }
        return .accepted(note: refused.isEmpty ? nil : "not delivered to \(refused)",
                         sizeLimit: report.capabilities.maximumSize)
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
