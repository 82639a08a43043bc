/// IMAP mailbox names in modified UTF-7 (RFC 3501 §5.1.3).
///
/// Printable ASCII stands for itself except `&`, written `&-`; any other text is UTF-16BE
/// in modified base64 (`,` instead of `/`, no padding) between `&` and `-`:
///
///     ModifiedUTF7.decode("Entw&APw-rfe")   // "Entwürfe"
///     ModifiedUTF7.encode("台北")            // "&U,BTFw-"
public enum ModifiedUTF7 {
    /// The decoded name, or `encoded` unchanged when it is not valid modified UTF-7 (a
    /// server that sends raw UTF-8, an unterminated or malformed `&…-` section, unpaired
    /// surrogates, leftover bits): showing such a name as sent beats guessing.
    public static func decode(_ encoded: String) -> String {
        decodeStrictly(Array(encoded.utf8)) ?? encoded
    }

    public static func encode(_ text: String) -> String {
        var output = ""
        var pending: [UInt16] = []
        for scalar in text.unicodeScalars {
            if (0x20...0x7E).contains(scalar.value) {
                flush(&pending, into: &output)
                output += scalar == "&" ? "&-" : String(scalar)
            } else {
                pending.append(contentsOf: scalar.utf16)
            }
        }
        flush(&pending, into: &output)
        return output
    }

    private static func flush(_ units: inout [UInt16], into output: inout String) {
        guard !units.isEmpty else { return }
        let bytes = units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        output += "&" + ModifiedBase64.encode(bytes) + "-"
        units.removeAll()
    }

    private static func decodeStrictly(_ bytes: [UInt8]) -> String? {
        var output = String.UnicodeScalarView()
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            guard (0x20...0x7E).contains(byte) else { return nil }
            guard byte == UInt8(ascii: "&") else {
                output.append(Unicode.Scalar(byte))
                index += 1
                continue
            }
            guard let close = bytes[(index + 1)...].firstIndex(of: UInt8(ascii: "-")) else { return nil }
            if close == index + 1 {
                output.append("&")
            } else {
                guard let scalars = decodeSection(bytes[(index + 1)..<close]) else { return nil }
                output.append(contentsOf: scalars)
            }
            index = close + 1
        }
        return String(output)
    }

    /// The scalars of one base64 section, nil when it is not well-formed UTF-16BE.
    private static func decodeSection(_ section: ArraySlice<UInt8>) -> [Unicode.Scalar]? {
        guard let bytes = ModifiedBase64.decode(section), bytes.count % 2 == 0 else { return nil }
        let units = stride(from: 0, to: bytes.count, by: 2).map {
            UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1])
        }
        var scalars: [Unicode.Scalar] = []
        var decoder = UTF16()
        var iterator = units.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let scalar): scalars.append(scalar)
            case .emptyInput: return scalars
            case .error: return nil
            }
        }
    }
}
