import Foundation
import TestSupport

/// MIME messages with known attachments, built byte by byte (CRLF), so a test can compare
/// what the mount serves with what was sent.
struct AttachmentFixture {
    var name: String
    var headerName: String
    var mimeType: String
    var content: [UInt8]
    var encoding: String

    /// Bytes that exercise every decoder path: all 256 values, then a seeded pseudo-random run.
    static func bytes(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed | 1
        return (0..<count).map { index in
            if index < 256 { return UInt8(index) }
            state ^= state << 13; state ^= state >> 7; state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
    }

    /// Text for quoted-printable: long lines, `=`, trailing spaces, non-ASCII UTF-8.
    static func text(_ count: Int) -> [UInt8] {
        let line = "Résumé line with = signs and trailing spaces   \nand a very long line " + String(repeating: "x", count: 120) + "\n"
        var result: [UInt8] = []
        while result.count < count { result += Array(line.utf8) }
        return Array(result.prefix(count))
    }

    /// What a reader gets back: base64 is byte-exact; quoted-printable text travels in
    /// MIME's canonical form, so its line breaks come back as CRLF.
    var decoded: [UInt8] {
        guard encoding == "quoted-printable" else { return content }
        return content.reduce(into: []) { result, byte in
            if byte == 0x0A { result.append(0x0D) }
            result.append(byte)
        }
    }

    var encodedBody: String {
        encoding == "base64" ? Self.base64Lines(content) : Self.quotedPrintable(content)
    }

    var mimeHeaders: String {
        "Content-Type: \(mimeType); name=\"\(name)\"\r\n" +
        "Content-Disposition: attachment; \(headerName)\r\n" +
        "Content-Transfer-Encoding: \(encoding)\r\n"
    }

    static func base64Lines(_ bytes: [UInt8]) -> String {
        let encoded = Data(bytes).base64EncodedString()
        var lines: [Substring] = []
        var index = encoded.startIndex
        while index < encoded.endIndex {
            let end = encoded.index(index, offsetBy: 76, limitedBy: encoded.endIndex) ?? encoded.endIndex
            lines.append(encoded[index..<end])
            index = end
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }

    /// RFC 2045 §6.7: soft breaks at 76, `=XX` for `=`, non-ASCII, and blanks before a break.
    static func quotedPrintable(_ bytes: [UInt8]) -> String {
        var output = ""
        var line = ""
        func emit(_ piece: String) {
            if line.count + piece.count > 75 { output += line + "=\r\n"; line = "" }
            line += piece
        }
        for (index, byte) in bytes.enumerated() {
            let nextIsBreak = index + 1 == bytes.count || bytes[index + 1] == 0x0A
            if byte == 0x0A {
                output += line + "\r\n"; line = ""
            } else if byte == 0x3D || byte >= 0x7F || byte < 0x20 || (byte == 0x20 && nextIsBreak) {
                emit(String(format: "=%02X", byte))
            } else {
                emit(String(UnicodeScalar(byte)))
            }
        }
        return output + line + "\r\n"
    }
}

enum AttachmentMessages {
    /// multipart/mixed: a text/plain body, then each attachment.
    static func mixed(id: String, subject: String, attachments: [AttachmentFixture]) -> [UInt8] {
        var text = header(id: id, subject: subject, type: "multipart/mixed; boundary=\"outer-b\"")
        text += "--outer-b\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nSee attached.\r\n"
        for attachment in attachments {
            text += "--outer-b\r\n" + attachment.mimeHeaders + "\r\n" + attachment.encodedBody
        }
        return Array((text + "--outer-b--\r\n").utf8)
    }

    /// mixed( alternative(plain, related(html, inline image)), attachment, forwarded message ).
    static func nested(id: String, subject: String, image: AttachmentFixture, attachment: AttachmentFixture,
                       forwarded: [UInt8]) -> [UInt8] {
        var text = header(id: id, subject: subject, type: "multipart/mixed; boundary=\"m1\"")
        text += "--m1\r\nContent-Type: multipart/alternative; boundary=\"a1\"\r\n\r\n"
        text += "--a1\r\nContent-Type: text/plain; charset=utf-8\r\n\r\nPlain version.\r\n"
        text += "--a1\r\nContent-Type: multipart/related; boundary=\"r1\"\r\n\r\n"
        text += "--r1\r\nContent-Type: text/html; charset=utf-8\r\n\r\n<p>HTML <img src=\"cid:img1\"></p>\r\n"
        text += "--r1\r\nContent-Type: \(image.mimeType)\r\nContent-ID: <img1>\r\n"
        text += "Content-Disposition: inline; \(image.headerName)\r\nContent-Transfer-Encoding: base64\r\n\r\n"
        text += image.encodedBody + "--r1--\r\n--a1--\r\n"
        text += "--m1\r\n" + attachment.mimeHeaders + "\r\n" + attachment.encodedBody
        text += "--m1\r\nContent-Type: message/rfc822\r\nContent-Disposition: attachment\r\n\r\n"
        return Array(text.utf8) + forwarded + Array("\r\n--m1--\r\n".utf8)
    }

    /// The header of a message of content type `type`, and the empty line after it.
    static func header(id: String, subject: String, type: String) -> String {
        TestMessage(subject: subject, messageID: id, headers: ["MIME-Version: 1.0", "Content-Type: \(type)"]).text
    }
}
