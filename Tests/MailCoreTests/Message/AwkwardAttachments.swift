/// Messages written for the attachment parity check (AttachmentParityTests): the classes of
/// issue 11 point 4 (a Content-Type without a subtype or invalid, raw 8-bit names, an RFC 2231
/// name cut inside a UTF-8 sequence) and the other places where readers disagree (encoded
/// words in quoted names, continuations, dispositions, nesting, transfer encodings).
enum AwkwardAttachments {
    static let messages: [(name: String, bytes: [UInt8])] = [
        ("no-subtype.eml", multipart(part("Content-Type: application; name=\"a.bin\"", "Content-Transfer-Encoding: base64", body: "AAECAwQ="))),
        ("invalid-type.eml", multipart(part("Content-Type: application-x-gzip; name=x.gz", "Content-Transfer-Encoding: base64", body: "H4sIAAAAAAAAAwMAAAAAAAAAAAA="))),
        ("rfc2231-cut-utf8.eml", multipart(part("Content-Type: application/pdf", "Content-Disposition: attachment; filename*=utf-8''caf%C3", body: "x"))),
        ("raw-utf8-name.eml", multipart(part("Content-Type: application/pdf", "Content-Disposition: attachment; filename=\"r\u{E9}sum\u{E9}.pdf\"", body: "x"))),
        ("stray-8bit-name.eml", multipart(Array("Content-Type: application/pdf\r\nContent-Disposition: attachment; filename=\"r".utf8)
                                          + [0xE9] + Array("sum\u{E9}.pdf\"\r\n\r\nx".utf8))),
        ("encoded-word-name.eml", multipart(part("Content-Type: text/plain; name=\"=?utf-8?q?caf=C3=A9.txt?=\"", "Content-Disposition: attachment", body: "caf\u{E9}"))),
        ("continuations.eml", multipart(part("Content-Type: application/octet-stream",
                                             "Content-Disposition: attachment;\r\n filename*0*=utf-8''%E2%82%AC%20;\r\n filename*1=\"plain part \";\r\n filename*2*=%C3%A9nd.bin",
                                             body: "x"))),
        ("text-attachment-nested.eml", multipart(part("Content-Type: multipart/alternative; boundary=\"inner\"", body:
            "--inner\r\nContent-Type: text/plain\r\n\r\nbody\r\n--inner\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Disposition: attachment\r\n\r\nnotes\r\n--inner--"))),
        ("inline-image-name.eml", multipart(part("Content-Type: image/png", "Content-Disposition: inline; filename=dot.png", "Content-Transfer-Encoding: base64",
                                                 body: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="))),
        ("forwarded.eml", multipart(part("Content-Type: message/rfc822; name=fwd.eml", "Content-Disposition: attachment", body: "Subject: inner\r\n\r\ninner body"))),
        ("quoted-printable.eml", multipart(part("Content-Type: text/csv; name=t.csv", "Content-Transfer-Encoding: Quoted-Printable",
                                                body: "a,b=\r\n,c=3D1\r\nline two   \r\n=E2=82=AC"))),
        ("base64-untidy.eml", multipart(part("Content-Type: application/octet-stream; name=u.bin", "Content-Transfer-Encoding: BASE64 (comment)",
                                             body: "AAEC\r\nAwQF BgcI\r\nCQ"))),
        ("single-part.eml", Array(("From: a@example.org\r\nSubject: only a file\r\nMIME-Version: 1.0\r\n"
                                   + "Content-Type: application/pdf; name=\"only.pdf\"\r\nContent-Transfer-Encoding: base64\r\n\r\nJVBERi0xLjQK\r\n").utf8)),
        ("leading-blank-line.eml", Array("\r\n".utf8) + multipart(part("Content-Type: application/zip; name=z.zip", "Content-Transfer-Encoding: base64", body: "UEsFBgAAAAAAAAAAAAAAAAAAAAAAAA=="))),
    ]

    /// A message whose multipart/mixed holds a text body and then `attachment`.
    static func multipart(_ attachment: [UInt8]) -> [UInt8] {
        Array(("From: a@example.org\r\nTo: b@example.org\r\nSubject: parity\r\nMIME-Version: 1.0\r\n"
               + "Content-Type: multipart/mixed; boundary=\"outer\"\r\n\r\n--outer\r\n"
               + "Content-Type: text/plain; charset=utf-8\r\n\r\nbody\r\n--outer\r\n").utf8)
            + attachment + Array("\r\n--outer--\r\n".utf8)
    }

    static func part(_ fields: String..., body: String) -> [UInt8] {
        Array((fields.joined(separator: "\r\n") + "\r\n\r\n" + body).utf8)
    }
}
