/// Bounds on what a server may send, so a hostile or broken one costs little memory.
public struct SMTPReplyLimits: Sendable, Equatable {
    /// Longest reply line, CRLF included. RFC 5321 §4.5.3.1.5 says 512; real servers send
    /// longer texts, so the default allows more.
    public var maxLineLength: Int
    /// Most lines in one multi-line reply (an EHLO reply has a dozen or two).
    public var maxLines: Int

    public init(maxLineLength: Int = 4096, maxLines: Int = 200) {
        self.maxLineLength = maxLineLength
        self.maxLines = maxLines
    }
}

/// Why the server's bytes are not a reply. Every one ends the session.
public enum SMTPReplyParseError: Error, Sendable, Equatable, CustomStringConvertible {
    case lineTooLong(limit: Int)
    case tooManyLines(limit: Int)
    /// A line that is not `code SP text`, `code "-" text` or a bare code; the excerpt is
    /// its start, cleaned for a log.
    case malformedLine(String)
    /// A continuation line with another code than the reply's first line.
    case codeChanged(from: Int, to: Int)

    public var description: String {
        switch self {
        case .lineTooLong(let limit): "reply line longer than \(limit) bytes"
        case .tooManyLines(let limit): "reply of more than \(limit) lines"
        case .malformedLine(let excerpt): "malformed reply line: \(excerpt)"
        case .codeChanged(let from, let to): "reply code changed from \(from) to \(to) within one reply"
        }
    }
}

/// Cuts the byte stream from the server into replies (RFC 5321 §4.2):
///
///     Reply-line = *( Reply-code "-" [ textstring ] CRLF )
///                  Reply-code [ SP textstring ] CRLF
///     Reply-code = %x32-35 %x30-35 %x30-39
///
/// Bytes arrive in any pieces; `next()` returns nil until a whole reply is buffered, so
/// "need more bytes" is never mistaken for "malformed". A bare LF ends a line too.
struct ReplyParser {
    let limits: SMTPReplyLimits
    private var buffer: [UInt8] = []
    /// Where unread bytes start; the consumed prefix is dropped in bulk, not per line.
    private var start = 0
    /// Lines of a multi-line reply read so far.
    private var partial: (code: Int, lines: [String])?

    init(limits: SMTPReplyLimits = SMTPReplyLimits()) {
        self.limits = limits
    }

    mutating func append(_ bytes: some Sequence<UInt8>) {
        if start > 0, start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// Forgets everything buffered: after STARTTLS, bytes that came with the plaintext 220
    /// are an injection attempt and must not be read as replies.
    mutating func reset() {
        buffer = []
        start = 0
        partial = nil
    }

    /// The next complete reply, nil when more bytes are needed.
    mutating func next() throws(SMTPReplyParseError) -> SMTPReply? {
        while let line = try nextLine() {
            let (code, isLast, text) = try Self.parse(line)
            var reply = partial ?? (code, [])
            guard reply.code == code else { throw .codeChanged(from: reply.code, to: code) }
            guard reply.lines.count < limits.maxLines else { throw .tooManyLines(limit: limits.maxLines) }
            reply.lines.append(text)
            if isLast {
                partial = nil
                return SMTPReply(code: code, lines: reply.lines)
            }
            partial = reply
        }
        return nil
    }

    /// The next line without its CR LF, nil when none is complete yet.
    private mutating func nextLine() throws(SMTPReplyParseError) -> ArraySlice<UInt8>? {
        let unread = buffer[start...]
        guard let newline = unread.prefix(limits.maxLineLength).firstIndex(of: 0x0A) else {
            if unread.count >= limits.maxLineLength { throw .lineTooLong(limit: limits.maxLineLength) }
            return nil
        }
        start = newline + 1
        let line = buffer[unread.startIndex..<newline]
        return line.last == 0x0D ? line.dropLast() : line
    }

    private static func parse(_ line: ArraySlice<UInt8>) throws(SMTPReplyParseError) -> (Int, Bool, String) {
        let digits = Array(line.prefix(3))
        guard digits.count == 3, (0x32...0x35).contains(digits[0]),
              digits.allSatisfy({ (0x30...0x39).contains($0) })
        else { throw .malformedLine(cleanText(line.prefix(40))) }
        let code = digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let rest = line.dropFirst(3)
        switch rest.first {
        case nil: return (code, true, "")
        case 0x20: return (code, true, cleanText(rest.dropFirst()))
        case 0x2D: return (code, false, cleanText(rest.dropFirst()))
        default: throw .malformedLine(cleanText(line.prefix(40)))
        }
    }

    /// UTF-8 text with invalid bytes replaced and control characters turned into `?`,
    /// so a reply can be quoted in a log line or `.status` without forging another line.
    static func cleanText(_ bytes: some Collection<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        let isControl: (Unicode.Scalar) -> Bool = { ($0.value < 0x20 && $0 != "\t") || (0x7F...0x9F).contains($0.value) }
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? "?" : $0 }))
    }
}
