/// The link targets of one message, numbered in order of first appearance: the text shows
/// `text [n]`, the list under the message `[n] URL`. The same URL keeps its number.
struct LinkList {
    private(set) var urls: [String] = []
    private var numbers: [String: Int] = [:]

    static let maxURLLength = 4096

    mutating func number(for url: String) -> Int {
        if let known = numbers[url] { return known }
        urls.append(url)
        numbers[url] = urls.count
        return urls.count
    }

    /// The URL of an `href` worth listing, tidied: blanks removed (mailers fold long
    /// attributes); nil for in-page anchors, scripts and the message's own parts (`cid:`).
    static func target(of href: String) -> String? {
        let url = String(href.unicodeScalars.filter { $0.value > 0x20 && $0.value != 0x7F }.map(Character.init))
        guard !url.isEmpty, !url.hasPrefix("#"), url.utf8.count <= maxURLLength else { return nil }
        let scheme = url.prefix(while: { $0 != ":" }).lowercased()
        return ["javascript", "vbscript", "data", "cid", "mid"].contains(scheme) ? nil : url
    }

    /// `[1] https://…` lines.
    var lines: [String] {
        urls.enumerated().map { "[\($0.offset + 1)] \($0.element)" }
    }
}
