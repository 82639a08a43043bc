import FuzzDriver
import MailCore

/// RFC 2047 encoded words and RFC 2231 parameters (continuations, charsets, languages),
/// through the public entry points: a Subject-like text, Content-Type and
/// Content-Disposition values, and the file-name rule that combines them.
fuzz { bytes in
    let value = text(bytes)
    let decoded = EncodedWord.decode(value)
    // Base64 and Q only shrink; charset conversion at most triples a byte (a replacement character).
    precondition(decoded.utf8.count <= 3 * value.utf8.count, "decoding grew the text")
    let type = ContentType.parse(value)
    let disposition = ContentDisposition.parse(value)
    _ = MessageParser.filename(dispositionParameters: disposition.parameters,
                               typeParameters: type?.parameters ?? [:])
}
