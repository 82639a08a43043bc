/// What an HTML element means for its text, looked up by tag name.
enum HTMLElementRole: Sendable {
    /// Not text for a reader: scripts, styles, the head, forms and their controls,
    /// embedded objects and media. Its content is skipped.
    case dropped
    /// A block starting on a new line (1) or after a blank line (2).
    case block(Int)
    case lineBreak
    case horizontalRule
    case list(ordered: Bool)
    case listItem
    /// A definition list's description, indented.
    case definition
    case quote
    case preformatted
    case tableRow
    case tableCell
    case link
    case image
    /// Text-level markup (`b`, `span`, `font`, unknown tags): its text flows on.
    case inline

    static func of(_ name: String) -> HTMLElementRole {
        roles[name] ?? .inline
    }

    private static let roles: [String: HTMLElementRole] = {
        var table: [String: HTMLElementRole] = [
            "br": .lineBreak, "hr": .horizontalRule, "ul": .list(ordered: false), "ol": .list(ordered: true),
            "menu": .list(ordered: false), "dir": .list(ordered: false), "li": .listItem, "dd": .definition,
            "blockquote": .quote, "pre": .preformatted, "listing": .preformatted, "xmp": .preformatted,
            "plaintext": .preformatted, "tr": .tableRow, "td": .tableCell, "th": .tableCell, "a": .link,
            "img": .image,
        ]
        for name in ["script", "style", "head", "title", "template", "noscript", "form", "input", "button",
                     "select", "textarea", "option", "datalist", "svg", "math", "object", "embed", "iframe",
                     "frame", "frameset", "applet", "audio", "video", "canvas", "map"] {
            table[name] = .dropped
        }
        for name in ["div", "dt", "section", "article", "header", "footer", "nav", "aside", "main", "figure",
                     "figcaption", "address", "center", "fieldset", "legend", "caption", "table", "tbody",
                     "thead", "tfoot", "details", "summary", "body", "html"] {
            table[name] = .block(1)
        }
        for name in ["p", "h1", "h2", "h3", "h4", "h5", "h6", "dl"] {
            table[name] = .block(2)
        }
        return table
    }()
}
