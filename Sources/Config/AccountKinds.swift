/// The SASL mechanism used to log in; it decides which credential command is required.
public enum AuthMethod: String, Sendable, Equatable, CaseIterable {
    /// LOGIN / AUTH PLAIN with the output of `password_command`.
    case plain
    /// SASL XOAUTH2 with the access token printed by `token_command`.
    case xoauth2
}

/// The server family, which changes sync semantics (Gmail labels, `\All`, archive, Sent append).
public enum Provider: String, Sendable, Equatable, CaseIterable {
    case gmail
    case generic

    /// The provider assumed when the config does not say: Gmail's IMAP hosts mean Gmail.
    ///
    ///     Provider.guess(imapHost: "imap.gmail.com")    // .gmail
    ///     Provider.guess(imapHost: "mail.example.org")  // .generic
    public static func guess(imapHost: String) -> Provider {
        var host = imapHost.lowercased()
        if host.hasSuffix(".") { host.removeLast() }
        let gmailDomains = ["gmail.com", "googlemail.com"]
        for domain in gmailDomains where host == domain || host.hasSuffix("." + domain) {
            return .gmail
        }
        return .generic
    }
}
