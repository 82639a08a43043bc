import Foundation

/// The initial responses of the SASL mechanisms the client speaks, base64-encoded.
/// These strings are secrets: they never reach a log or an error.
enum SASL {
    /// PLAIN (RFC 4616): `authzid NUL authcid NUL password`, with an empty authzid.
    static func plain(user: String, password: String) -> String {
        let bytes: [UInt8] = [0] + Array(user.utf8) + [0] + Array(password.utf8)
        return Data(bytes).base64EncodedString()
    }

    /// XOAUTH2 (Google, Microsoft): `user=U ^A auth=Bearer T ^A ^A`.
    static func xoauth2(user: String, token: String) -> String {
        let text = "user=\(user)\u{1}auth=Bearer \(token)\u{1}\u{1}"
        return Data(text.utf8).base64EncodedString()
    }

    /// The text of a server challenge (`+ eyJzdGF0dXMiOiI0MDAiLC…`), for an error
    /// message: decoded when it is base64 of printable text, else as sent, at most 500
    /// characters; nil when empty.
    static func challengeText(_ challenge: String) -> String? {
        let trimmed = challenge.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        guard let data = Data(base64Encoded: trimmed),
              let decoded = String(data: data, encoding: .utf8),
              decoded.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value != 0x7F })
        else { return String(trimmed.prefix(500)) }
        return String(decoded.prefix(500))
    }
}
