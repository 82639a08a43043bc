import Foundation
import Testing
@testable import MailCore

@Suite("HTML to plain text, and snippets")
struct HTMLTextTests {
    @Test("drops hidden content and tags, decodes entities, breaks blocks", arguments: [
        ("<html><head><title>T</title><style>p{}</style></head><body><p>Hello&nbsp;<b>world</b>!</p></body></html>",
         "Hello world!"),
        ("<p>one</p><p>two</p>", "one\n\ntwo"),
        ("a<br>b<BR/>c", "a\nb\nc"),
        ("<div>x</div><div>y</div>", "x\ny"),
        ("<script>alert('<p>')</script>visible", "visible"),
        ("<!-- hidden <p> -->shown", "shown"),
        ("&lt;tag&gt; &amp; &quot;q&quot; &#233;&#xE9; &eacute; &euro;", "<tag> & \"q\" éé é €"),
        ("AT&T &bogus; &#0; &#x110000;", "AT&T &bogus; \u{FFFD} \u{FFFD}"),
        ("  lots \n\t of   space  ", "lots of space"),
        ("<table><tr><td>a</td><td>b</td></tr></table>", "a b"),
        ("1 < 2 and 3 > 2", "1 < 2 and 3 > 2"),
        ("<p>unclosed <b", "unclosed"),
        ("<script>never closed", ""),
    ])
    func converts(html: String, text: String) {
        #expect(HTMLText.plainText(fromHTML: html) == text)
    }

    @Test("a snippet collapses whitespace and cuts on a character boundary")
    func snippet() {
        #expect(Snippet.make(plain: "  Hello\n\n  world  ", html: nil, fallback: "s") == "Hello world")
        let long = String(repeating: "é", count: 300)
        #expect(Snippet.make(plain: long, html: nil, fallback: "s", limit: 100) == String(repeating: "é", count: 100))
        #expect(Snippet.make(plain: "👍🏽👍🏽", html: nil, fallback: "s", limit: 1) == "👍🏽")
        #expect(Snippet.make(plain: "a b", html: nil, fallback: "s", limit: 2) == "a")
    }

    @Test("a snippet leaves quoted lines out, unless there is nothing else")
    func snippetSkipsQuotes() {
        #expect(Snippet.make(plain: "Sounds good.\n> old text", html: nil, fallback: "s") == "Sounds good.")
        #expect(Snippet.make(plain: "On Monday Bob wrote:\r\n  > quoted\r\n>\r\n\r\nMy answer.\r\n", html: nil, fallback: "s")
                == "On Monday Bob wrote: My answer.")
        #expect(Snippet.make(plain: "> only\n>  quoted", html: nil, fallback: "s") == "> only > quoted")
        #expect(Snippet.make(plain: "> quoted", html: "<p>ignored</p>", fallback: "s") == "> quoted",
                "quoted plain text still comes before the HTML")
        let manyQuoted = String(repeating: "> line\n", count: 1_000) + "mine"
        #expect(Snippet.make(plain: manyQuoted, html: nil, fallback: "s") == "mine")
    }

    @Test("a snippet falls back to the HTML text, then to the subject")
    func snippetFallbacks() {
        #expect(Snippet.make(plain: " \n ", html: "<p>From <i>HTML</i></p>", fallback: "s") == "From HTML")
        #expect(Snippet.make(plain: nil, html: nil, fallback: "The subject") == "The subject")
    }
}
