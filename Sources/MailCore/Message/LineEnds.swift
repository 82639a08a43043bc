/// Line ends as RFC 5322 §2.3 and RFC 3501 §6.3.11 want them in a message on the wire:
/// CR LF only. A file a user writes has bare LFs (Unix) or, rarely, bare CRs (old Mac);
/// Cyrus refuses such an APPEND (`NO Message contains bare newlines`) and other servers
/// convert it their own way.
///
///     "a\nb"      -> "a\r\nb"
///     "a\rb\r\n"  -> "a\r\nb\r\n"
///     "a\r\n"     -> "a\r\n"      (unchanged: a CR LF is one line end)
///
/// A bare LF and a bare CR each become one CR LF, the way SMTP DATA is prepared
/// (`MessageData` in the SMTP module), and the way a stored message's fingerprint counts
/// a bare LF (`MessageFingerprint(message:)`): the bytes a server reports for the copy.
public enum LineEnds {
    /// `bytes` with every bare LF and bare CR turned into CR LF; the same bytes when
    /// there is none (no copy is made of a message that is already right).
    public static func crlf(_ bytes: [UInt8]) -> [UInt8] {
        guard let first = firstBareLineEnd(bytes) else { return bytes }
        var output = Array(bytes[..<first])
        output.reserveCapacity(bytes.count + bytes.count / 32 + 2)
        var index = first
        while index < bytes.count {
            let byte = bytes[index]
            if byte == ASCII.cr || byte == ASCII.lf {
                output += [ASCII.cr, ASCII.lf]
                index += byte == ASCII.cr && index + 1 < bytes.count && bytes[index + 1] == ASCII.lf ? 2 : 1
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// Where the first LF without a CR before it, or CR without an LF after it, is.
    private static func firstBareLineEnd(_ bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            switch bytes[index] {
            case ASCII.lf:
                return index
            case ASCII.cr:
                guard index + 1 < bytes.count, bytes[index + 1] == ASCII.lf else { return index }
                index += 2
            default:
                index += 1
            }
        }
        return nil
    }
}
