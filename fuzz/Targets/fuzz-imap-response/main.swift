import FuzzDriver
import IMAP

/// The bytes of a server, cut into chunks of the size the first byte says (so the framer's
/// incremental paths are reached), framed into responses and each one parsed. A parse error
/// is an answer; a trap, a leak or a hang is a finding.
fuzz { bytes in
    guard let first = bytes.first else { return }
    let chunkSize = Int(first) + 1
    var framer = ResponseFramer()
    var parser = ResponseParser()
    var framed = 0
    for start in stride(from: 1, to: bytes.count, by: chunkSize) {
        framer.append(bytes[start..<min(bytes.count, start + chunkSize)])
        do {
            while case .response(let unit) = try framer.next() {
                framed += unit.count
                _ = try? parser.parse(unit)
            }
        } catch {
            return  // a framing error ends the connection
        }
    }
    precondition(framed + framer.bufferedByteCount <= bytes.count - 1, "the framer made up bytes")
}
