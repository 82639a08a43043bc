/// The line on which each key of a TOML document is defined, for error messages, and how
/// deeply the document nests.
///
/// TOMLKit 0.6.0 reports positions for syntax errors only; its values carry no source position.
/// So this small scanner reads the text line by line and notes where each key appears:
/// - a `[table]` or `[[array.of.tables]]` header sets the current table and defines its key;
/// - a `key = value` or `dotted."key" = value` line defines the current table's key;
/// - every key also marks its not-yet-seen parents (`[accounts.work.imap]` defines
///   `accounts.work` when no `[accounts.work]` came first).
/// It tracks strings (basic, literal, multi-line), comments and open brackets, so the inside of
/// a multi-line string or array is never mistaken for a key. A key it cannot place (one inside
/// an inline table) is reported at the line of its nearest placed parent, which is the same line.
///
/// It works on any text, valid TOML or not, in one pass without recursion, so it can also
/// measure nesting before TOMLKit (whose C++ parser recurses per level) is given the text.
struct KeyLineIndex {
    /// The deepest nesting worth parsing. TOMLKit's C++ parser (toml++) recurses once per level:
    /// a dotted key of ~25,000 components overflowed an 8 MiB stack, and 255 nested inline
    /// tables (toml++'s own limit is 256) a 512 KiB thread stack. mailfs needs 5 levels at most
    /// (`accounts = { work = { imap = { port = 993 } } }`, or an array inside an account).
    static let nestingLimit = 32

    /// Text that TOMLKit must not be given: nesting deeper than `nestingLimit` (counting table
    /// and key components, open brackets, and dots inside values, which may be dotted keys of
    /// inline tables), or a non-ASCII byte outside strings and comments (invalid TOML, on which
    /// toml++ fails an assertion), or a table header without a name (on which toml++ assumes one,
    /// undefined behaviour in a release build). The first one found.
    private(set) var problem: Problem?

    struct Problem: Equatable {
        let line: Int
        let message: String
    }

    private var lineOfKey: [ConfigKey: Int] = [:]
    private var currentTable: [String] = []
    private var openString: StringDelimiter?
    /// The `[` and `{` of the value being scanned that are not closed yet.
    private var openBrackets: [UInt8] = []

    init(text: String) {
        // Bytes, not Characters: "\r\n" is a single Character and would never equal "\n".
        let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        for (index, line) in lines.enumerated() {
            scan(Array(line), lineNumber: index + 1)
        }
    }

    /// The line of `key`, or of its nearest ancestor that has one, or nil for an unknown top key.
    func line(of key: ConfigKey) -> Int? {
        var components = key.components
        while !components.isEmpty {
            if let line = lineOfKey[ConfigKey(components)] { return line }
            components.removeLast()
        }
        return nil
    }

    private mutating func scan(_ line: [UInt8], lineNumber: Int) {
        if let delimiter = openString {
            guard let end = TOMLText.end(of: delimiter, in: line, from: 0) else { return }
            openString = nil
            note(currentTable.count + scanValue(line, from: end, lineNumber), lineNumber)
            return
        }
        if !openBrackets.isEmpty {
            note(currentTable.count + scanValue(line, from: 0, lineNumber), lineNumber)
            return
        }
        let start = TOMLText.skipBlanks(line, from: 0)
        guard start < line.count, line[start] != UInt8(ascii: "#") else { return }
        if line[start] == UInt8(ascii: "[") {
            let nameStart = TOMLText.tableNameStart(in: line, from: start)
            // toml++ assumes (undefined behaviour in release builds) that a key begins here.
            guard nameStart < line.count, TOMLText.canStartKey(line[nameStart]) || line[nameStart] == UInt8(ascii: "]")
            else { return flag("expected a table name after '['", lineNumber) }
            guard let (key, end) = TOMLText.key(in: line, from: nameStart) else {
                return checkMalformed(line, lineNumber)
            }
            currentTable = key
            record(key, lineNumber)
            note(key.count + scanValue(line, from: end, lineNumber), lineNumber)
            return
        }
        guard let (key, end) = TOMLText.key(in: line, from: start),
              end < line.count, line[end] == UInt8(ascii: "=")
        else { return checkMalformed(line, lineNumber) }
        record(currentTable + key, lineNumber)
        note(currentTable.count + key.count + scanValue(line, from: end + 1, lineNumber), lineNumber)
    }

    /// A line that is neither a header nor `key = value` is TOMLKit's to report; it is only
    /// checked for what TOMLKit must not see, and leaves the scanner's state as it was.
    private mutating func checkMalformed(_ line: [UInt8], _ lineNumber: Int) {
        let state = (openString, openBrackets)
        note(scanValue(line, from: 0, lineNumber), lineNumber)
        (openString, openBrackets) = state
    }

    /// Follows strings and brackets through a value so the next lines are read in the right
    /// state, and returns the value's nesting on this line: peak bracket depth plus dots.
    private mutating func scanValue(_ line: [UInt8], from start: Int, _ lineNumber: Int) -> Int {
        var peakDepth = openBrackets.count
        var dots = 0
        var index = start
        while index < line.count {
            let byte = line[index]
            switch byte {
            case UInt8(ascii: "#"):
                return peakDepth + dots
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let delimiter = StringDelimiter(opening: line, at: index)
                guard let end = TOMLText.end(of: delimiter, in: line, from: index + delimiter.length) else {
                    if delimiter.isMultiline { openString = delimiter }
                    return peakDepth + dots
                }
                index = end
                continue
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                openBrackets.append(byte)
                peakDepth = max(peakDepth, openBrackets.count)
            case UInt8(ascii: "]"), UInt8(ascii: "}"):
                close(byte, lineNumber)
            case UInt8(ascii: "."):
                dots += 1
            case 0x80...:
                flag("non-ASCII character outside a string or comment", lineNumber)
            default:
                break
            }
            index += 1
        }
        return peakDepth + dots
    }

    /// toml++ assumes (undefined behaviour in release builds) that `[}` cannot happen, so a
    /// closing bracket of the other kind is refused here. A stray closer is toml++'s to report.
    private mutating func close(_ closer: UInt8, _ lineNumber: Int) {
        guard let opener = openBrackets.popLast() else { return }
        let expected = opener == UInt8(ascii: "[") ? UInt8(ascii: "]") : UInt8(ascii: "}")
        if closer != expected {
            flag("'\(Character(Unicode.Scalar(closer)))' closes '\(Character(Unicode.Scalar(opener)))'", lineNumber)
        }
    }

    private mutating func note(_ depth: Int, _ lineNumber: Int) {
        if depth > Self.nestingLimit { flag("nested more than \(Self.nestingLimit) levels deep", lineNumber) }
    }

    private mutating func flag(_ message: String, _ lineNumber: Int) {
        if problem == nil { problem = Problem(line: lineNumber, message: message) }
    }

    /// Keys deeper than `nestingLimit` are refused anyway and not recorded: recording a key's
    /// prefixes costs the square of its depth.
    private mutating func record(_ components: [String], _ lineNumber: Int) {
        guard !components.isEmpty, components.count <= Self.nestingLimit else { return }
        for length in 1...components.count {
            let key = ConfigKey(Array(components.prefix(length)))
            if lineOfKey[key] == nil { lineOfKey[key] = lineNumber }
        }
    }
}

/// The quotes that open a TOML string: `"`, `'`, `"""` or `'''`.
struct StringDelimiter: Equatable {
    let quote: UInt8
    let isMultiline: Bool

    var length: Int { isMultiline ? 3 : 1 }
    /// Basic strings (`"`) have backslash escapes; literal strings (`'`) have none.
    var hasEscapes: Bool { quote == UInt8(ascii: "\"") }

    init(opening line: [UInt8], at index: Int) {
        quote = line[index]
        isMultiline = index + 2 < line.count && line[index + 1] == quote && line[index + 2] == quote
    }
}
