@testable import IMAP

/// Server lines as the wire carries them: every "\n" becomes CRLF.
func wire(_ text: String) -> [UInt8] {
    Array(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
}

/// `{n}` + newline + `content`, with `n` counted in bytes as `wire` will send them
/// (each "\n" of the content becomes CRLF).
func literal(_ content: String) -> String {
    "{\(content.replacingOccurrences(of: "\n", with: "\r\n").utf8.count)}\n" + content
}

/// Frames `bytes` fed in chunks of `chunkSize`, returning every complete response.
func frame(_ bytes: [UInt8], chunkSize: Int = .max, limits: ParserLimits = ParserLimits()) throws -> [[UInt8]] {
    var framer = ResponseFramer(limits: limits)
    var units: [[UInt8]] = []
    var offset = 0
    repeat {
        let next = min(bytes.count, offset + max(chunkSize, 1))
        framer.append(bytes[offset..<next])
        offset = next
        while case .response(let unit) = try framer.next() { units.append(unit) }
    } while offset < bytes.count
    return units
}

/// Frames and parses a whole transcript.
func responses(_ bytes: [UInt8], chunkSize: Int = .max) throws -> [Response] {
    var parser = ResponseParser()
    return try frame(bytes, chunkSize: chunkSize).map { unit in try parser.parse(unit) }
}

/// Parses one response written with "\n" line ends.
func parse(_ text: String, limits: ParserLimits = ParserLimits()) throws(IMAPParseError) -> Response {
    var parser = ResponseParser(limits: limits)
    return try parser.parse(wire(text))
}

/// The attributes of a single FETCH response, or nil when it is something else.
func fetchAttributes(_ text: String) throws -> FetchAttributes? {
    guard case .untagged(.fetch(_, let attributes)) = try parse(text) else { return nil }
    return attributes
}

/// The error kind thrown when parsing `text`, or nil when it parsed.
func parseErrorKind(_ text: String, limits: ParserLimits = ParserLimits()) -> IMAPParseError.Kind? {
    do {
        _ = try parse(text, limits: limits)
        return nil
    } catch {
        return error.kind
    }
}
