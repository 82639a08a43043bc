/// Cuts the byte stream from a server into complete responses for `ResponseParser`.
///
/// A response is one line, or several lines joined by `{n}` literals whose bytes are
/// kept in place, ending in CRLF (a bare LF is accepted too):
///
///     * 12 FETCH (UID 77 BODY[] {11}\r\nHello\r\nBye UID 77)\r\n
///
/// Rules shared with the grammar: a line ending in `{n}`, `{n+}` or `~{n}` announces a
/// literal; a status line (`* OK …`, `A1 NO …`, `+ …`) is read raw, so `{123}` in its
/// human text is not a literal; a line break inside a quoted string within parentheses
/// (seen from Outlook) continues the response unless the next line starts a response.
/// Empty lines are skipped. Memory is bounded by `ParserLimits`; after a thrown error
/// the stream is no longer in sync and the connection should be closed.
///
/// A literal announced right after `streamedLiteralMarker` (`BODY[2]`) is not kept: its
/// bytes are handed out as they arrive (`literalBegins`, then `literalBytes` pieces) and
/// the response comes out with an empty literal in its place, so a 20 MiB attachment
/// costs no more memory than one network read (docs/ARCHITECTURE.md, "Lazy content"):
///
///     * 12 FETCH (UID 77 BODY[2] {5}\r\nHello)\r\n
///     -> literalBegins(5), literalBytes("Hel"), literalBytes("lo"),
///        response("* 12 FETCH (UID 77 BODY[2] {0}\r\n)\r\n")
public struct ResponseFramer: Sendable {
    /// What `next()` found.
    public enum Frame: Sendable, Equatable {
        /// One complete response, CRLF included.
        case response([UInt8])
        /// The buffered bytes do not yet hold a complete response.
        case needMoreBytes
        /// A streamed literal of this many bytes starts; its bytes follow in `literalBytes`.
        case literalBegins(length: Int)
        /// The next piece of the streamed literal.
        case literalBytes([UInt8])
    }

    /// The item name (upper case, e.g. `BODY[2]`) whose literal is streamed; nil streams none.
    public var streamedLiteralMarker: [UInt8]?

    private let limits: ParserLimits
    private var buffer: [UInt8] = []
    /// Start of the response being framed.
    private var unitStart = 0
    /// Next byte to examine.
    private var scan = 0
    /// Start of the current line (after the last literal or line break).
    private var lineStart = 0
    private var literalRemaining = 0
    /// Whether the literal being read is handed out rather than kept.
    private var streamingLiteral = false
    private var quotes = QuoteTracker()

    public init(limits: ParserLimits = ParserLimits()) {
        self.limits = limits
    }

    /// Bytes received but not yet returned in a response.
    public var bufferedByteCount: Int { buffer.count - unitStart }

    /// Adds bytes as they arrive from the connection, in chunks of any size.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete response, or `.needMoreBytes`. Call until it returns
    /// `.needMoreBytes` after each `append`.
    public mutating func next() throws(IMAPParseError) -> Frame {
        while scan < buffer.count {
            if literalRemaining > 0 {
                if streamingLiteral { return .literalBytes(takeLiteralBytes()) }
                skipLiteralBytes()
                continue
            }
            guard scanToLineEnd() else { break }
            switch try lineEnded(at: scan) {
            case .emit:
                if let unit = emit(through: scan) { return .response(unit) }
            case .continueAfterLiteral(let length):
                scan += 1
                literalRemaining = length
                lineStart = scan
            case .streamLiteral(let length):
                scan += 1
                literalRemaining = length
                streamingLiteral = length > 0
                lineStart = scan
                return .literalBegins(length: length)
            case .continueLine:
                scan += 1
                lineStart = scan
            case .wait:
                return .needMoreBytes
            }
        }
        try checkPendingSize()
        return .needMoreBytes
    }

    /// Moves `scan` to the next LF, tracking quotes on the way; false when the
    /// buffered bytes end first.
    private mutating func scanToLineEnd() -> Bool {
        var tracker = quotes
        var index = scan
        let found = buffer.withUnsafeBufferPointer { bytes in
            while index < bytes.count {
                if bytes[index] == Byte.lf { return true }
                guard tracker.track(bytes, at: index) else { return false }
                index += 1
            }
            return false
        }
        quotes = tracker
        scan = index
        return found
    }

    private enum LineOutcome {
        case emit, continueAfterLiteral(Int), streamLiteral(Int), continueLine, wait
    }

    private mutating func lineEnded(at lf: Int) throws(IMAPParseError) -> LineOutcome {
        let lineEnd = lf > lineStart && buffer[lf - 1] == Byte.cr ? lf - 1 : lf
        if lineStart == unitStart, FramedKind.classify(buffer[unitStart..<lineEnd]) == .statusLine {
            return .emit
        }
        if let (length, openBrace) = try literal(endingAt: lineEnd) {
            quotes.inQuote = false
            if streams(literalAt: openBrace) {
                guard length <= limits.maxStreamedLiteralSize else {
                    throw IMAPParseError(.limitExceeded, "streamed literal of \(length) bytes", at: lf - unitStart)
                }
                emptyLiteral(from: openBrace, to: lineEnd)
                return .streamLiteral(length)
            }
            guard length <= limits.maxLiteralSize else {
                throw IMAPParseError(.limitExceeded, "literal of \(length) bytes", at: lf - unitStart)
            }
            guard lf - unitStart + length <= limits.maxResponseSize else {
                throw IMAPParseError(.limitExceeded, "response larger than the limit", at: lf - unitStart)
            }
            return .continueAfterLiteral(length)
        }
        guard quotes.inQuote && quotes.depth > 0 else { return .emit }
        switch nextLineStartsResponse(from: lf + 1) {
        case nil: return .wait
        case true?: return .emit
        case false?: return .continueLine
        }
    }

    /// The length announced by `{n}`, `{n+}` or `~{n}` at the end of a line, if any, and
    /// where its `{` is.
    private func literal(endingAt end: Int) throws(IMAPParseError) -> (length: Int, openBrace: Int)? {
        var index = end - 1
        guard index > lineStart, buffer[index] == Byte.closeBrace else { return nil }
        index -= 1
        if buffer[index] == Byte.plus { index -= 1 }
        var length = 0
        var digits = 0
        while index >= lineStart, let digit = Byte.digitValue(buffer[index]) {
            guard digits < 12 else {
                throw IMAPParseError(.limitExceeded, "literal length too long", at: index - unitStart)
            }
            length += digit * Self.powersOfTen[digits]
            digits += 1
            index -= 1
        }
        guard digits > 0, index >= lineStart, buffer[index] == Byte.openBrace else { return nil }
        return (length, index)
    }

    /// Whether the literal whose `{` is at `openBrace` follows `streamedLiteralMarker`
    /// and a space, the marker itself after a space or `(` (so `XBODY[2]` is not it).
    private func streams(literalAt openBrace: Int) -> Bool {
        guard let marker = streamedLiteralMarker else { return false }
        let markerStart = openBrace - 1 - marker.count
        guard markerStart > lineStart, buffer[openBrace - 1] == Byte.space,
              buffer[markerStart - 1] == Byte.space || buffer[markerStart - 1] == Byte.openParen else { return false }
        return zip(buffer[markerStart..<(openBrace - 1)], marker).allSatisfy { Byte.uppercased($0) == $1 }
    }

    /// Rewrites the announcement `{n}` ending at `lineEnd` as `{0}`: the parser then sees
    /// an empty literal where the streamed bytes were. `scan` (at the line's LF) moves with it.
    private mutating func emptyLiteral(from openBrace: Int, to lineEnd: Int) {
        let empty: [UInt8] = [Byte.openBrace, Byte.zero, Byte.closeBrace]
        buffer.replaceSubrange(openBrace..<lineEnd, with: empty)
        scan -= (lineEnd - openBrace) - empty.count
    }

    /// The streamed literal's bytes buffered so far, taken out of the buffer.
    private mutating func takeLiteralBytes() -> [UInt8] {
        let taken = min(literalRemaining, buffer.count - scan)
        let piece = Array(buffer[scan..<(scan + taken)])
        buffer.removeSubrange(scan..<(scan + taken))
        literalRemaining -= taken
        if literalRemaining == 0 {
            streamingLiteral = false
            lineStart = scan
        }
        return piece
    }

    private static let powersOfTen: [Int] = (0..<12).map { exponent in
        (0..<exponent).reduce(1) { value, _ in value * 10 }
    }

    /// Whether the bytes at `start` begin a new response (`*`, `+`, or a tagged status);
    /// nil while too few bytes have arrived to tell.
    private func nextLineStartsResponse(from start: Int) -> Bool? {
        let window = buffer[start..<min(buffer.count, start + 80)]
        guard let first = window.first else { return nil }
        if first == Byte.asterisk || first == Byte.plus { return true }
        guard window.contains(Byte.lf) || window.count == 80 else { return nil }
        let line = window.prefix { $0 != Byte.lf && $0 != Byte.cr }
        return FramedKind.classify(line) == .statusLine
    }

    private mutating func skipLiteralBytes() {
        let taken = min(literalRemaining, buffer.count - scan)
        scan += taken
        literalRemaining -= taken
        if literalRemaining == 0 { lineStart = scan }
    }

    /// Returns the response ending at `lf` (nil for an empty line) and resets the state.
    private mutating func emit(through lf: Int) -> [UInt8]? {
        let unit = buffer[unitStart...lf]
        let isEmptyLine = unit.allSatisfy { $0 == Byte.cr || $0 == Byte.lf }
        let result = isEmptyLine ? nil : Array(unit)
        unitStart = lf + 1
        scan = unitStart
        lineStart = unitStart
        quotes = QuoteTracker()
        compactIfWorthwhile()
        return result
    }

    private mutating func compactIfWorthwhile() {
        if unitStart == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 1 << 20)
        } else if unitStart > 1 << 16 && unitStart * 2 > buffer.count {
            buffer.removeSubrange(0..<unitStart)
        } else {
            return
        }
        scan -= unitStart
        lineStart -= unitStart
        unitStart = 0
    }

    /// Refuses a line or response growing past the limits before its end has arrived.
    private mutating func checkPendingSize() throws(IMAPParseError) {
        guard literalRemaining == 0 else { return }
        let pending = scan - unitStart
        guard pending <= limits.maxResponseSize else {
            throw IMAPParseError(.limitExceeded, "response larger than the limit", at: pending)
        }
        guard scan - lineStart > limits.maxLineLength else { return }
        let firstLine = buffer[unitStart..<min(scan, unitStart + 80)]
        guard lineStart == unitStart, FramedKind.classify(firstLine) == .bulk else {
            throw IMAPParseError(.limitExceeded, "line longer than \(limits.maxLineLength) bytes", at: pending)
        }
    }
}
