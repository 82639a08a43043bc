import MailCore

/// The lines that stand for signed and encrypted content: mailfs shows what it is and
/// neither verifies a signature nor decrypts (no keys, no network).
enum SecureContent {
    /// A note for a single part that is itself signed or encrypted data (S/MIME's
    /// application/pkcs7-mime, a PGP part outside its multipart); nil for any other type.
    static func note(for type: ContentType) -> String? {
        switch type.mimeType {
        case "application/pkcs7-mime", "application/x-pkcs7-mime":
            let kind = type.parameters["smime-type"]?.lowercased()
            return kind == "signed-data"
                ? "[signed message (S/MIME), its text inside the signature: not shown; read the .eml with a mail program]"
                : "[encrypted message (S/MIME): not decrypted; read the .eml with a mail program]"
        case "application/pgp-encrypted":
            return "[encrypted message (OpenPGP): not decrypted; read the .eml with a mail program]"
        default:
            return nil
        }
    }

    static func signedNote(protocol name: String?) -> String {
        "[signed (\(scheme(name))): the signature is not verified]"
    }

    static func encryptedNote(protocol name: String?) -> String {
        "[encrypted message (\(scheme(name))): not decrypted; read the .eml with a mail program]"
    }

    private static func scheme(_ protocolName: String?) -> String {
        switch protocolName?.lowercased() {
        case "application/pgp-signature", "application/pgp-encrypted": "OpenPGP"
        case "application/pkcs7-signature", "application/x-pkcs7-signature", "application/pkcs7-mime",
             "application/x-pkcs7-mime": "S/MIME"
        case let other?: ReadableText.oneLine(other)
        case nil: "unknown protocol"
        }
    }
}
