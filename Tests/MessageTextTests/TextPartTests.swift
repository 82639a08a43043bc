import Testing
@testable import MessageText

@Suite("text/plain parts, decoded")
struct TextPartTests {
    @Test("charsets iconv knows are decoded", arguments: [
        ("iso-2022-jp", "7bit", "\u{1B}$B$3$s$K$A$O@$3&\u{1B}(B", "こんにちは世界"),
        ("windows-1252", "quoted-printable", "Caf=E9 cr=E8me =97 5 =80 =93quoted=94", "Café crème — 5 € “quoted”"),
        ("gb18030", "quoted-printable", "=D6=D0=CE=C4=D3=CA=BC=FE=B2=E2=CA=D4 =A2=E3", "中文邮件测试 €"),
        ("koi8-r", "quoted-printable", "=F0=D2=C9=D7=C5=D4, =CD=C9=D2! =F3=DF=C5=DB=D8 =C5=DD=A3", "Привет, мир! Съешь ещё"),
    ])
    func charsets(charset: String, encoding: String, body: String, expected: String) {
        let text = Rendering.text(headers: ["Content-Type: text/plain; charset=\(charset)",
                                            "Content-Transfer-Encoding: \(encoding)"], body: body + "\r\n")
        #expect(text == expected + "\n")
    }

    @Test("a quoted-printable soft break inside a word joins the word")
    func softBreakInsideWord() {
        let text = Rendering.text(headers: ["Content-Type: text/plain; charset=utf-8",
                                            "Content-Transfer-Encoding: quoted-printable"],
                                  body: "Zo=C3=AB Laurent =E2=80=94 Ate=\r\nlier, see the invo=\r\nice.\r\n")
        #expect(text == "Zoë Laurent — Atelier, see the invoice.\n")
    }

    @Test("base64 with line noise (blanks, stray characters, no padding) is decoded")
    func base64WithNoise() {
        // "Quarterly budget approved" split across lines with blanks and a stray `*`.
        let text = Rendering.text(headers: ["Content-Type: text/plain; charset=utf-8",
                                            "Content-Transfer-Encoding: base64"],
                                  body: "UXVhcnRl cmx5IGJ1\r\n  ZGdldC*BhcHBy\r\nb3ZlZA\r\n")
        #expect(text == "Quarterly budget approved\n")
    }

    @Test("format=flowed lines are joined into paragraphs, DelSp=yes deletes the break's space")
    func flowedDelSp() {
        let body = "This is a long para \r\ngraph that was wra \r\npped.\r\n\r\n>> quoted and  \r\n>> flowed\r\n-- \r\nSig\r\n"
        let text = Rendering.text(headers: ["Content-Type: text/plain; charset=utf-8; format=flowed; delsp=yes"],
                                  body: body)
        #expect(text == "This is a long paragraph that was wrapped.\n\n>> quoted and flowed\n-- \nSig\n")
    }

    @Test("format=flowed without DelSp keeps the space and removes space-stuffing")
    func flowedWithoutDelSp() {
        let body = "Hello \r\nworld, \r\nhow are you?\r\n From here on\r\n"
        let text = Rendering.text(headers: ["Content-Type: text/plain; charset=utf-8; format=flowed"], body: body)
        #expect(text == "Hello world, how are you?\nFrom here on\n")
    }

    @Test("terminal escapes and invisible word-splitters in a body are removed")
    func controlsRemoved() {
        let text = Rendering.text(headers: ["Content-Type: text/plain; charset=utf-8"],
                                  body: "Clear\u{1B}[2J screen, in\u{AD}voice\u{200B}s\r\n")
        #expect(text == "Clear[2J screen, invoices\n")
    }

    @Test("an empty body renders as `(no text)`")
    func emptyBody() {
        #expect(Rendering.text(headers: [], body: "") == "(no text)\n")
        #expect(Rendering.text(headers: ["Content-Type: text/html"], body: "\r\n  \r\n") == "(no text)\n")
    }
}
