/// HTML to readable text: walks the document libxml2 parsed and lays out its text
/// (`TextLayout`). Links become `text [n]` with the URL in the message's `LinkList`, images
/// `[image: alt]`; what a reader never sees is left out (`HTMLElementRole.dropped`, hidden
/// elements, comments, tracking images, which are counted).
struct HTMLRenderer: HTMLVisitor {
    private(set) var layout: TextLayout
    var links: LinkList
    private(set) var trackingImagesRemoved = 0
    /// What `enter` did for each open element, undone by `leave`.
    private var open: [OpenElement] = []
    private var lists: [(ordered: Bool, count: Int)] = []
    /// Per open table row: whether its first cell is still to come.
    private var rows: [Bool] = []

    private enum OpenElement {
        case plain
        case block(Int)
        case listItem
        case definition
        case list
        case quote
        case preformatted
        case tableRow
        case link(start: Int, url: String?)
    }

    init(links: LinkList, capacity: Int) {
        self.links = links
        layout = TextLayout(capacity: capacity)
    }

    /// The text of `html`, laid out.
    static func render(_ html: String, links: inout LinkList) -> (text: String, trackingImagesRemoved: Int) {
        var renderer = HTMLRenderer(links: links, capacity: html.utf8.count / 2)
        _ = HTMLDocument.walk(html, with: &renderer)
        links = renderer.links
        let text = String(decoding: renderer.layout.output, as: UTF8.self)
        return (text, renderer.trackingImagesRemoved)
    }

    mutating func enter(_ element: HTMLElement) -> Bool {
        let role = HTMLElementRole.of(element.name)
        if case .dropped = role { return skip() }
        let style = element.attribute("style").map(InlineStyle.init)
        let isHidden = element.attribute("hidden") != nil || style?.isHidden == true
        if case .image = role {
            image(element, style: style ?? InlineStyle(""), isHidden: isHidden)
            return skip()
        }
        if isHidden { return skip() }
        open.append(opening(role, element))
        return true
    }

    mutating func leave(_ element: HTMLElement) {
        guard let opened = open.popLast() else { return }
        switch opened {
        case .plain:
            break
        case .block(let breaks):
            layout.blockBreak(breaks)
        case .listItem, .definition:
            layout.popPrefix()
            layout.blockBreak(1)
        case .list:
            lists.removeLast()
            layout.blockBreak(lists.isEmpty ? 2 : 1)
        case .quote:
            layout.popPrefix()
            layout.blockBreak(2)
        case .preformatted:
            layout.endPreformatted()
            layout.blockBreak(2)
        case .tableRow:
            rows.removeLast()
            layout.blockBreak(1)
        case .link(let start, let url):
            endLink(start: start, url: url)
        }
    }

    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        layout.text(bytes)
    }

    private mutating func skip() -> Bool {
        open.append(.plain)
        return false
    }

    private mutating func opening(_ role: HTMLElementRole, _ element: HTMLElement) -> OpenElement {
        switch role {
        case .dropped, .image, .inline:
            return .plain
        case .block(let breaks):
            layout.blockBreak(breaks)
            return .block(breaks)
        case .lineBreak:
            layout.lineBreak()
            return .plain
        case .horizontalRule:
            layout.blockBreak(1)
            layout.insert("----------")
            layout.blockBreak(1)
            return .plain
        case .list(let ordered):
            layout.blockBreak(lists.isEmpty ? 2 : 1)
            lists.append((ordered, 0))
            return .list
        case .listItem:
            layout.blockBreak(1)
            let marker = nextListMarker()
            layout.pushPrefix(String(repeating: " ", count: marker.count), marker: marker)
            return .listItem
        case .definition:
            layout.blockBreak(1)
            layout.pushPrefix("    ")
            return .definition
        case .quote:
            layout.blockBreak(2)
            layout.pushPrefix("> ")
            return .quote
        case .preformatted:
            layout.blockBreak(2)
            layout.beginPreformatted()
            return .preformatted
        case .tableRow:
            layout.blockBreak(1)
            rows.append(true)
            return .tableRow
        case .tableCell:
            layout.cellStart(isFirstOfRow: rows.last ?? true)
            if !rows.isEmpty { rows[rows.count - 1] = false }
            return .plain
        case .link:
            return .link(start: layout.position, url: element.attribute("href").flatMap(LinkList.target))
        }
    }

    /// `* ` in a list, `3. ` in an ordered one (counting its items).
    private mutating func nextListMarker() -> String {
        guard !lists.isEmpty else { return "* " }
        lists[lists.count - 1].count += 1
        let list = lists[lists.count - 1]
        return list.ordered ? "\(list.count). " : "* "
    }

    private mutating func image(_ element: HTMLElement, style: InlineStyle, isHidden: Bool) {
        if TrackingImage.isTracking(width: element.attribute("width"), height: element.attribute("height"),
                                    style: style, isHidden: isHidden, source: element.attribute("src")) {
            trackingImagesRemoved += 1
            return
        }
        // alt="" marks an image as decoration; with no alt at all, the reader still learns
        // an image is there.
        guard let alt = element.attribute("alt") else { return layout.insert("[image]") }
        let words = alt.split(whereSeparator: { $0.isWhitespace })
        if !words.isEmpty { layout.insert("[image: \(words.joined(separator: " "))]") }
    }

    /// `[n]` after the link's text, unless the text is the URL itself or nothing was shown.
    private mutating func endLink(start: Int, url: String?) {
        guard let url, layout.position > start else { return }
        if let shown = layout.textSince(start) {
            let text = String(decoding: shown.drop(while: { $0 == 0x20 }), as: UTF8.self)
            if text == url || "mailto:" + text == url || url.hasSuffix("//" + text) || url.hasSuffix("//" + text + "/") {
                return
            }
        }
        layout.appendWord("[\(links.number(for: url))]")
    }
}
