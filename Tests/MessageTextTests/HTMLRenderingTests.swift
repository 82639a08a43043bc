import Testing
@testable import MessageText

@Suite("HTML bodies rendered to text")
struct HTMLRenderingTests {
    @Test("paragraphs, line breaks and headings keep their shape")
    func paragraphs() {
        let text = Rendering.html("<html><head><title>T</title></head><body><h1>Budget   2027</h1>"
            + "<p>First line<br>second line</p><p>Next\n   paragraph</p><div>A div</div></body></html>")
        #expect(text == "Budget 2027\n\nFirst line\nsecond line\n\nNext paragraph\n\nA div\n")
    }

    @Test("lists are bulleted and numbered, nested ones indented")
    func lists() {
        let text = Rendering.html("<p>Agenda:</p><ol><li>Budget<ul><li>travel</li><li>tools</li></ul></li><li>Hiring</li></ol><p>End</p>")
        #expect(text == "Agenda:\n\n1. Budget\n   * travel\n   * tools\n2. Hiring\n\nEnd\n")
    }

    @Test("a table's rows are lines and its cells are separated")
    func tables() {
        let text = Rendering.html("<table><tr><th>Item</th><th>Cost</th></tr><tr><td>Laptop</td><td>1200 &euro;</td></tr>"
            + "<tr><td>&nbsp;</td><td>Spacer row</td></tr></table>")
        #expect(text == "Item | Cost\nLaptop | 1200 €\nSpacer row\n")
    }

    @Test("links are numbered and listed under the message; a URL shown as itself is not")
    func links() {
        let text = Rendering.html("<p>Read <a href=\"https://example.com/report\">the report</a> or "
            + "<a href=\"https://example.com/report\">again</a>, see https://x.test: "
            + "<a href=\"https://x.test\">https://x.test</a>, <a href=\"#top\">top</a>, "
            + "<a href=\"javascript:alert(1)\">script</a>, <a href=\"mailto:bob@example.com\">bob@example.com</a></p>")
        #expect(text == """
            Read the report [1] or again [1], see https://x.test: https://x.test, top, script, bob@example.com

            Links:
            [1] https://example.com/report

            """)
    }

    @Test("images show their alt text; decorative ones (alt=\"\") nothing")
    func images() {
        let text = Rendering.html("<p><img src=\"https://cdn.example.com/logo.png\" alt=\" ACME   logo \" width=\"120\" height=\"40\">"
            + " Hello <img src=\"https://cdn.example.com/line.png\" alt=\"\"><img src=\"https://cdn.example.com/x.png\"></p>")
        #expect(text == "[image: ACME logo] Hello [image]\n")
    }

    @Test("a 1x1 pixel, a display:none image and a blocklisted host are removed and counted; a 600x1 spacer is not")
    func trackingImages() {
        let text = Rendering.html("<p>Newsletter</p><img src=\"https://t.example.com/o.gif\" width=\"1\" height=\"1\" alt=\"\">"
            + "<img src=\"https://t.example.com/p.gif\" style=\"display: none !important\" alt=\"open\">"
            + "<img src=\"https://us1.list-manage.com/track/open.php?u=1\" alt=\"x\">"
            + "<img src=\"https://cdn.example.com/hero.jpg\" alt=\"Hero\" width=\"600\" height=\"1\">")
        #expect(text == "Newsletter\n\n[image: Hero]\n\n[3 tracking images removed]\n")
    }

    @Test("one tracking image is counted in the singular")
    func oneTrackingImage() {
        #expect(Rendering.html("Hi<img src=\"https://t.test/o\" style=\"width:0;height:0\">") == "Hi\n\n[1 tracking image removed]\n")
    }

    @Test("script, style, forms, comments and hidden elements are dropped")
    func droppedContent() {
        let text = Rendering.html("""
            <style>p { color: red }</style><script>var secret = 1;</script>
            <!-- a comment with <script>evil()</script> inside -->
            <div title="<script>evil()</script>" onclick="evil()">Visible</div>
            <div style="display:none">preheader hidden</div><span hidden>also hidden</span>
            <form action="https://x.test"><input value="field"><button>Press</button></form>
            <!--[if mso]><p>Outlook only</p><![endif]-->
            <p>End</p>
            """)
        #expect(text == "Visible\n\nEnd\n")
    }

    @Test("unclosed and misnested tags are recovered from, nothing is lost")
    func brokenMarkup() {
        let text = Rendering.html("<p>One <b>bold <i>both</b> italic<p>Two <div>inner <table><tr><td>cell<td>cell2 <a href=x>link")
        #expect(text == "One bold both italic\n\nTwo\n\ninner\ncell | cell2 link [1]\n\nLinks:\n[1] x\n")
    }

    @Test("a stray `<` and broken entities stay as text")
    func strayMarkup() {
        #expect(Rendering.html("<p>3 < 5 &amp; 5 > 3 &bogus; &#233;t&eacute;</p>") == "3 < 5 & 5 > 3 &bogus; été\n")
    }

    @Test("blockquotes are quoted and pre keeps its lines and spaces")
    func quotesAndPre() {
        let text = Rendering.html("<blockquote><p>Quoted one</p><p>Quoted two</p></blockquote><pre>a  b\n  c</pre>")
        #expect(text == "> Quoted one\n>\n> Quoted two\n\na  b\n  c\n")
    }

    @Test("the document's meta charset does not override the part's decoding")
    func metaCharsetIgnored() {
        let text = Rendering.html("<meta charset=\"iso-8859-1\"><p>Zoë — café</p>")
        #expect(text == "Zoë — café\n")
    }
}
