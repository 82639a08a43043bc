/// A message made ready for DATA (RFC 5321 §4.5.2): every line break is CRLF, a line
/// that starts with `.` gets a second one, and `CRLF . CRLF` ends it.
///
///     "Hi\n.hidden\nbye"  ->  "Hi\r\n..hidden\r\nbye\r\n.\r\n"
///
/// A bare LF or a bare CR is a line break (servers refuse bare ones, and some read them
/// as line ends: passing them through invites SMTP smuggling).
struct MessageData: Sendable, Equatable {
    /// The bytes to send after `354`, terminator included.
    var wire: [UInt8]
    /// The size of the normalised message (CRLFs counted, stuffing and terminator not):
    /// the `SIZE=` parameter and what the server's SIZE limit is checked against.
    var size: Int
    /// Whether any byte is above 127: `BODY=8BITMIME` is then asked for when offered.
    var hasEightBitBytes: Bool

    init(_ message: some Collection<UInt8>) {
        var wire: [UInt8] = []
        wire.reserveCapacity(message.count + message.count / 64 + 5)
        var stuffed = 0
        var eightBit = false
        var atLineStart = true
        var afterCR = false
        for byte in message {
            if byte == 0x0A, afterCR {
                afterCR = false
                continue
            }
            afterCR = byte == 0x0D
            if byte == 0x0D || byte == 0x0A {
                wire += [0x0D, 0x0A]
                atLineStart = true
                continue
            }
            if atLineStart, byte == 0x2E {
                wire.append(0x2E)
                stuffed += 1
            }
            eightBit = eightBit || byte >= 0x80
            atLineStart = false
            wire.append(byte)
        }
        if !atLineStart { wire += [0x0D, 0x0A] }
        size = wire.count - stuffed
        wire += [0x2E, 0x0D, 0x0A]
        self.wire = wire
        hasEightBitBytes = eightBit
    }
}
