import Foundation

/// The SASL mechanisms the client speaks for `AUTH` (RFC 4954), and their responses.
/// Every response is a secret: it reaches neither a log nor an error.
enum SASLMechanism: String, Sendable, Equatable {
    case plain = "PLAIN"
    case login = "LOGIN"
    case xoauth2 = "XOAUTH2"

    /// The mechanism for `credential` among those the server offers: PLAIN, else LOGIN for
    /// a password; XOAUTH2 for a token (never a password over XOAUTH2 or a token over PLAIN).
    static func choose(for credential: SMTPCredential, offered: Set<String>) -> SASLMechanism? {
        let preference: [SASLMechanism] = switch credential {
        case .password: [.plain, .login]
        case .xoauth2: [.xoauth2]
        }
        return preference.first { offered.contains($0.rawValue) }
    }
}

/// The base64 texts sent during AUTH.
enum SASLResponse {
    /// PLAIN (RFC 4616): `authzid NUL authcid NUL password`, the authzid empty.
    static func plain(user: String, password: String) -> String {
        base64([0] + Array(user.utf8) + [0] + Array(password.utf8))
    }

    /// LOGIN (draft-murchison-sasl-login): the user name, then the password, each
    /// answering one `334` prompt.
    static func login(_ text: String) -> String {
        base64(Array(text.utf8))
    }

    /// XOAUTH2 (Google, Microsoft): `user=U ^A auth=Bearer T ^A ^A`.
    static func xoauth2(user: String, token: String) -> String {
        base64(Array("user=\(user)\u{1}auth=Bearer \(token)\u{1}\u{1}".utf8))
    }

    private static func base64(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }

    /// A server challenge as readable text for an error (XOAUTH2's failure JSON
    /// `{"status":"400",…}`): decoded when it is base64 of printable UTF-8, else as sent;
    /// at most 500 characters; nil when empty.
    static func challengeText(_ challenge: String) -> String? {
        let trimmed = challenge.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if let data = Data(base64Encoded: trimmed), let decoded = String(data: data, encoding: .utf8),
           !decoded.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) {
            return String(decoded.prefix(500))
        }
        return String(trimmed.prefix(500))
    }
}
