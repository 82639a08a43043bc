import Foundation
import Testing
@testable import MessageText

@Suite("which parts a reader reads")
struct MultipartTests {
    static let plain = ["Content-Type: text/plain; charset=utf-8"]
    static let html = ["Content-Type: text/html; charset=utf-8"]

    @Test("multipart/alternative shows the plain part")
    func alternativeChoosesPlain() {
        let body = Rendering.multipart([(Self.plain, "Plain words here"), (Self.html, "<p>HTML words <b>here</b></p>")])
        let text = Rendering.text(headers: ["Content-Type: multipart/alternative; boundary=b"], body: body)
        #expect(text == "Plain words here\n")
    }

    @Test("multipart/alternative with a blank plain part shows the HTML")
    func alternativeBlankPlain() {
        let body = Rendering.multipart([(Self.plain, "  "), (Self.html, "<p>Only the HTML speaks</p>")])
        let text = Rendering.text(headers: ["Content-Type: multipart/alternative; boundary=b"], body: body)
        #expect(text == "Only the HTML speaks\n")
    }

    @Test("multipart/related shows its root, not the images it holds")
    func related() {
        let related = Rendering.multipart([
            (Self.html, "<p>See the chart <img src=\"cid:chart@x\" alt=\"Q3 chart\"></p>"),
            (["Content-Type: image/png", "Content-ID: <chart@x>", "Content-Transfer-Encoding: base64"], "iVBORw0KGgo="),
        ], boundary: "r")
        let body = Rendering.multipart([(Self.plain, ""), (["Content-Type: multipart/related; boundary=r"], related)])
        let text = Rendering.text(headers: ["Content-Type: multipart/alternative; boundary=b"], body: body)
        #expect(text == "See the chart [image: Q3 chart]\n")
    }

    @Test("multipart/related starts at the part its start parameter names")
    func relatedStart() {
        let body = Rendering.multipart([
            (["Content-Type: text/plain", "Content-ID: <other@x>"], "not the root"),
            (["Content-Type: text/plain", "Content-ID: <root@x>"], "the root"),
        ])
        let text = Rendering.text(headers: ["Content-Type: multipart/related; boundary=b; start=\"<root@x>\""], body: body)
        #expect(text == "the root\n")
    }

    @Test("multipart/mixed shows each text part in order and skips attachments")
    func mixed() {
        let body = Rendering.multipart([
            (Self.plain, "First part"),
            (["Content-Type: application/pdf; name=report.pdf", "Content-Transfer-Encoding: base64"], "JVBERi0="),
            (["Content-Type: text/plain", "Content-Disposition: attachment; filename=notes.txt"], "attached notes"),
            (Self.plain, "Last part"),
        ])
        let text = Rendering.text(headers: ["Content-Type: multipart/mixed; boundary=b"], body: body)
        #expect(text == "First part\n\nLast part\n")
    }

    @Test("forwarded messages are shown indented with their own headers, nested")
    func nestedForwards() {
        let innermost = "From: Carol <carol@example.com>\r\nSubject: Original\r\nDate: Mon, 2 Nov 2026 09:00:00 +0000\r\n"
            + "Content-Type: text/plain\r\n\r\nThe original words\r\n"
        let middle = "From: Bob <bob@example.com>\r\nTo: alice@example.com\r\nSubject: Fwd: Original\r\n"
            + "Content-Type: multipart/mixed; boundary=m\r\n\r\n"
            + Rendering.multipart([(Self.plain, "Bob's note"), (["Content-Type: message/rfc822"], innermost)], boundary: "m")
        let body = Rendering.multipart([(Self.plain, "Alice forwards"), (["Content-Type: message/rfc822"], middle)])
        let text = Rendering.text(headers: ["Content-Type: multipart/mixed; boundary=b"], body: body)
        #expect(text == """
            Alice forwards

                ---------- Attached message ----------
                Subject: Fwd: Original
                From: Bob <bob@example.com>
                To: alice@example.com
                Date: unknown date

                Bob's note

                    ---------- Attached message ----------
                    Subject: Original
                    From: Carol <carol@example.com>
                    Date: 2026-11-02 09:00 UTC

                    The original words

            """)
    }

    @Test("a base64-encoded attached message is decoded and shown")
    func encodedAttachedMessage() {
        let inner = "Subject: Inside\r\n\r\nHidden in base64\r\n"
        let encoded = Data(inner.utf8).base64EncodedString(options: [.lineLength76Characters, .endLineWithCarriageReturn,
                                                                     .endLineWithLineFeed])
        let body = Rendering.multipart([(["Content-Type: message/rfc822", "Content-Transfer-Encoding: base64"], encoded)])
        let text = Rendering.text(headers: ["Content-Type: multipart/mixed; boundary=b"], body: body)
        #expect(text.contains("    Subject: Inside\n"))
        #expect(text.contains("    Hidden in base64\n"))
    }

    @Test("a signed message shows its text and says the signature is not verified")
    func signed() {
        let body = Rendering.multipart([(Self.plain, "Signed words"),
                                        (["Content-Type: application/pgp-signature"], "-----BEGIN PGP SIGNATURE-----")])
        let text = Rendering.text(headers: ["Content-Type: multipart/signed; boundary=b; protocol=\"application/pgp-signature\""],
                                  body: body)
        #expect(text == "Signed words\n\n[signed (OpenPGP): the signature is not verified]\n")
    }

    @Test("encrypted messages say what they are", arguments: [
        ("multipart/encrypted; boundary=b; protocol=\"application/pgp-encrypted\"",
         "[encrypted message (OpenPGP): not decrypted; read the .eml with a mail program]\n"),
        ("application/pkcs7-mime; smime-type=enveloped-data; name=smime.p7m",
         "[encrypted message (S/MIME): not decrypted; read the .eml with a mail program]\n"),
    ])
    func encrypted(contentType: String, expected: String) {
        let body = Rendering.multipart([(["Content-Type: application/pgp-encrypted"], "Version: 1"),
                                        (["Content-Type: application/octet-stream"], "-----BEGIN PGP MESSAGE-----")])
        #expect(Rendering.text(headers: ["Content-Type: \(contentType)"], body: body) == expected)
    }
}
