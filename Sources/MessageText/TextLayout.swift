/// Lays out the text of an HTML document as lines, the way a reader sees it: runs of
/// whitespace collapse to one space, blocks start on a new line, paragraphs are separated
/// by one blank line (never more), quoted and list text is indented by a line prefix, and
/// `<pre>` text keeps its own spaces and lines. Paragraphs are not wrapped: a phrase stays
/// on one line so `grep` finds it, and a terminal wraps long lines anyway.
struct TextLayout {
    private(set) var output: [UInt8] = []
    /// Line breaks owed before the next text: 1 ends the line, 2 leaves a blank line.
    private var owedBreaks = 0
    private var owedSpace = false
    /// Text was written on the current line.
    private var lineHasText = false
    /// Written at the start of every line: indentation, `> ` of quotes.
    private var prefixes: [[UInt8]] = []
    /// Replaces the last prefix on the next line started (a list item's bullet).
    private var marker: [UInt8]?
    private var preformatted = 0
    /// A table cell began after another on this row: ` | ` before its first text if that
    /// text lands on the same line.
    private var owedCellSeparator = false

    static let maxIndentLevels = 8

    init(capacity: Int) {
        output.reserveCapacity(capacity)
    }

    var isEmpty: Bool { output.isEmpty }

    /// The number of bytes written so far (links remember where their text began).
    var position: Int { output.count }

    mutating func text(_ bytes: UnsafeBufferPointer<UInt8>) {
        if preformatted > 0 { return preformattedText(bytes) }
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C {
                owedSpace = true
                index += 1
            } else if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 {
                owedSpace = true   // no-break space: a space for the reader and for grep
                index += 2
            } else {
                let end = Self.wordEnd(bytes, from: index)
                word(UnsafeBufferPointer(rebasing: bytes[index..<end]))
                index = end
            }
        }
    }

    /// Text inserted by the renderer (`[image: …]`, ` [3]`), laid out like document text.
    mutating func insert(_ text: String) {
        var copy = text
        copy.withUTF8 { self.text($0) }
    }

    /// A word set apart by a space from what precedes it (the `[3]` after a link's text).
    mutating func appendWord(_ text: String) {
        owedSpace = true
        insert(text)
    }

    /// `<br>`: ends the line; a second one in a row leaves a blank line.
    mutating func lineBreak() {
        guard !output.isEmpty else { return }
        owedBreaks = lineHasText && owedBreaks == 0 ? 1 : min(owedBreaks + 1, 2)
        owedCellSeparator = false
    }

    /// The edge of a block: a new line (1) or a blank line before the next text (2).
    mutating func blockBreak(_ count: Int) {
        guard !output.isEmpty else { return }
        if lineHasText || owedBreaks > 0 { owedBreaks = max(owedBreaks, count) }
        owedCellSeparator = false
    }

    mutating func cellStart(isFirstOfRow: Bool) {
        owedSpace = true
        owedCellSeparator = !isFirstOfRow && lineHasText && owedBreaks == 0
    }

    mutating func pushPrefix(_ prefix: String, marker: String? = nil) {
        guard prefixes.count < Self.maxIndentLevels else {
            prefixes.append([])
            return
        }
        prefixes.append(Array(prefix.utf8))
        self.marker = marker.map { Array($0.utf8) }
    }

    mutating func popPrefix() {
        if !prefixes.isEmpty { prefixes.removeLast() }
        marker = nil
    }

    mutating func beginPreformatted() { preformatted += 1 }

    mutating func endPreformatted() { preformatted = max(preformatted - 1, 0) }

    /// The text since `position`, when it is all on the current line.
    func textSince(_ position: Int) -> ArraySlice<UInt8>? {
        guard position <= output.count else { return nil }
        let written = output[position...]
        return written.contains(0x0A) ? nil : written
    }

    private mutating func word<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        if owedBreaks > 0 {
            output.append(0x0A)
            if owedBreaks > 1 {
                // A blank line inside a quote keeps its `>`.
                var blank = Array(prefixes.joined())
                while blank.last == 0x20 { blank.removeLast() }
                output.append(contentsOf: blank)
                output.append(0x0A)
            }
            owedBreaks = 0
            lineHasText = false
        }
        if !lineHasText {
            startLine()
        } else if owedCellSeparator {
            output.append(contentsOf: " | ".utf8)
        } else if owedSpace {
            output.append(0x20)
        }
        owedSpace = false
        owedCellSeparator = false
        output.append(contentsOf: bytes)
        lineHasText = true
    }

    private mutating func startLine() {
        for (index, prefix) in prefixes.enumerated() {
            if index == prefixes.count - 1, let marker {
                output.append(contentsOf: marker)
                self.marker = nil
            } else {
                output.append(contentsOf: prefix)
            }
        }
    }

    private mutating func preformattedText(_ bytes: UnsafeBufferPointer<UInt8>) {
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == 0x0A {
            if start < index {
                let line = bytes[start..<index].filter { $0 != 0x0D }
                if !line.isEmpty {
                    owedSpace = false
                    word(line)
                }
            }
            if index < bytes.count {
                if lineHasText { owedBreaks = 1 } else { owedBreaks = min(owedBreaks + 1, 2) }
                lineHasText = false
            }
            start = index + 1
        }
    }

    /// The end of the word starting at `start`: the next ASCII blank or no-break space.
    private static func wordEnd(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = start
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C { break }
            if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 { break }
            index += 1
        }
        return index
    }
}
