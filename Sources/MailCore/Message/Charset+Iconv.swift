#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Charset {
    /// Converts with the C library's iconv; nil when iconv does not know the
    /// charset. Invalid input sequences become U+FFFD and conversion goes on.
    static func iconvDecode(_ bytes: ArraySlice<UInt8>, from charset: String) -> String? {
        // Charset names come from untrusted headers: refuse anything that is
        // not a plain name (iconv also parses "//" suffixes).
        guard !charset.isEmpty, charset.utf8.count <= 40,
              charset.utf8.allSatisfy({ ASCII.isLetter($0) || ASCII.isDigit($0) || $0 == ASCII.minus
                  || $0 == ASCII.underscore || $0 == ASCII.dot || $0 == ASCII.colon })
        else { return nil }
        let descriptor = iconv_open("UTF-8", charset)
        guard let descriptor, descriptor != iconv_t(bitPattern: -1) else { return nil }
        defer { iconv_close(descriptor) }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count * 2 + 16)
        var input = Array(bytes)
        input.withUnsafeMutableBufferPointer { inputBuffer in
            convert(inputBuffer, with: descriptor, into: &output)
        }
        return String(decoding: output, as: UTF8.self)
    }

    private static let replacement: [UInt8] = [0xEF, 0xBF, 0xBD]

    private static func convert(_ inputBuffer: UnsafeMutableBufferPointer<UInt8>,
                                with descriptor: iconv_t, into output: inout [UInt8]) {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var inPointer: UnsafeMutablePointer<CChar>? = inputBuffer.baseAddress.map {
            UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self)
        }
        var inLeft = inputBuffer.count
        var finished = false
        while !finished {
            chunk.withUnsafeMutableBufferPointer { chunkBuffer in
                var outPointer: UnsafeMutablePointer<CChar>? = chunkBuffer.baseAddress.map {
                    UnsafeMutableRawPointer($0).assumingMemoryBound(to: CChar.self)
                }
                var outLeft = chunkBuffer.count
                let result: Int
                if inLeft > 0, inPointer != nil {
                    result = iconv(descriptor, &inPointer, &inLeft, &outPointer, &outLeft)
                } else {
                    // Flush the shift state of stateful charsets (ISO-2022-JP).
                    result = iconv(descriptor, nil, nil, &outPointer, &outLeft)
                    finished = true
                }
                let failure = result == -1 ? errno : 0
                output.append(contentsOf: chunkBuffer[0..<(chunkBuffer.count - outLeft)])
                switch failure {
                case 0, E2BIG:
                    break
                case EILSEQ where inLeft > 0:
                    output.append(contentsOf: replacement)
                    inPointer = inPointer.map { $0 + 1 }
                    inLeft -= 1
                default:
                    // EINVAL (truncated sequence at the end) or anything unexpected.
                    if inLeft > 0 { output.append(contentsOf: replacement) }
                    inLeft = 0
                    finished = finished || failure != EINVAL
                }
            }
        }
    }
}
