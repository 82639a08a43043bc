import NIOCore

/// Assembles a command's bytes and its log spelling, choosing for every string argument
/// between a quoted string and a literal:
///
///     LOGIN "alice" "p\"w"               quoted, with `"` and `\` escaped
///     LOGIN "alice" {6}\r\n p\u{e4}ss    8-bit or CR/LF: a synchronizing literal,
///                                        sent after the server's `+`
///     LOGIN "alice" {6+}\r\np\u{e4}ss    LITERAL+ (RFC 7888): no round trip
///
/// Secret arguments appear in the log line as `<redacted>`.
struct CommandBuilder {
    /// What kinds of literal the server accepts without a `+` round trip.
    struct LiteralSupport: Sendable, Equatable {
        /// LITERAL+: any size.
        var plus = false
        /// LITERAL- (RFC 7888): up to 4096 bytes.
        var minus = false

        init(plus: Bool = false, minus: Bool = false) {
            self.plus = plus
            self.minus = minus
        }

        init(capabilities: Set<String>) {
            self.init(plus: capabilities.contains("LITERAL+"), minus: capabilities.contains("LITERAL-"))
        }

        func allowsNonSynchronizing(length: Int) -> Bool {
            plus || (minus && length <= 4096)
        }
    }

    /// Longest string sent quoted; longer ones go as literals.
    static let maxQuotedLength = 1000

    private let literals: LiteralSupport
    private(set) var segments: [[UInt8]] = [[]]
    private var logWords: [String] = []

    init(literals: LiteralSupport = LiteralSupport()) {
        self.literals = literals
    }

    /// Protocol text sent as is: keywords, sequence sets, parenthesised item lists.
    mutating func raw(_ text: String, secret: Bool = false) {
        appendWord(Array(text.utf8), log: secret ? "<redacted>" : text)
    }

    /// A string argument (`astring`): quoted when 7-bit and short, a literal otherwise.
    mutating func string(_ value: String, secret: Bool = false) {
        let bytes = Array(value.utf8)
        if let quoted = Self.quoted(bytes) {
            appendWord(quoted, log: secret ? "<redacted>" : String(decoding: quoted, as: UTF8.self))
        } else {
            literal(bytes, secret: secret)
        }
    }

    /// A literal. `synchronizing` forces the `+` round trip even under LITERAL+ (large
    /// uploads: a server that refuses one says so before the bytes are sent).
    mutating func literal(_ bytes: [UInt8], secret: Bool = false, synchronizing: Bool = false) {
        let nonSync = !synchronizing && literals.allowsNonSynchronizing(length: bytes.count)
        let header = "{\(bytes.count)\(nonSync ? "+" : "")}"
        appendWord(Array(header.utf8), log: secret ? "<redacted>" : "\(header)<\(bytes.count) bytes>")
        segments[segments.count - 1] += Array("\r\n".utf8)
        if !nonSync { segments.append([]) }
        segments[segments.count - 1] += bytes
    }

    /// The finished command, CRLF appended.
    func command(
        name: String, promise: EventLoopPromise<CommandResult>
    ) -> PendingCommand {
        var finished = segments
        finished[finished.count - 1] += Array("\r\n".utf8)
        return PendingCommand(
            name: name, logLine: logWords.joined(separator: " "), segments: finished, promise: promise)
    }

    private mutating func appendWord(_ bytes: [UInt8], log: String) {
        let last = segments.count - 1
        if !logWords.isEmpty {
            segments[last].append(UInt8(ascii: " "))
        }
        segments[last] += bytes
        logWords.append(log)
    }

    /// `"…"` with `\` and `"` escaped, or nil when the bytes need a literal.
    static func quoted(_ bytes: [UInt8]) -> [UInt8]? {
        guard bytes.count <= maxQuotedLength,
              bytes.allSatisfy({ $0 >= 0x01 && $0 <= 0x7F && $0 != 0x0A && $0 != 0x0D })
        else { return nil }
        var output: [UInt8] = [UInt8(ascii: "\"")]
        for byte in bytes {
            if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                output.append(UInt8(ascii: "\\"))
            }
            output.append(byte)
        }
        output.append(UInt8(ascii: "\""))
        return output
    }
}
