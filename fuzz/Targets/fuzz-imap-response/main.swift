import FuzzDriver
import IMAP

/// The bytes of a server, cut into chunks of the size the first byte's low seven bits say (so
/// the framer's incremental paths are reached), framed into responses and each one parsed.
/// When the first byte's high bit is set, the framer streams `BODY[2]` literals as a download
/// does (docs/ARCHITECTURE.md, "Lazy content"). A parse error is an answer; a trap, a leak or
/// a hang is a finding.
fuzz { bytes in
    guard let first = bytes.first else { return }
    let chunkSize = Int(first & 0x7F) + 1
    var framer = ResponseFramer()
    if first & 0x80 != 0 { framer.streamedLiteralMarker = Array("BODY[2]".utf8) }
    var parser = ResponseParser()
    var framed = 0
    var streamedLeft = 0
    for start in stride(from: 1, to: bytes.count, by: chunkSize) {
        framer.append(bytes[start..<min(bytes.count, start + chunkSize)])
        do {
            frames: while true {
                switch try framer.next() {
                case .needMoreBytes:
                    break frames
                case .response(let unit):
                    precondition(streamedLeft == 0, "a response inside a streamed literal")
                    framed += unit.count
                    _ = try? parser.parse(unit)
                case .literalBegins(let length):
                    precondition(length >= 0 && streamedLeft == 0, "a literal inside a streamed literal")
                    streamedLeft = length
                case .literalBytes(let piece):
                    precondition(!piece.isEmpty && piece.count <= streamedLeft, "more bytes than the literal announced")
                    streamedLeft -= piece.count
                    framed += piece.count
                }
            }
        } catch {
            return  // a framing error ends the connection
        }
    }
    precondition(framed + framer.bufferedByteCount <= bytes.count - 1, "the framer made up bytes")
}
