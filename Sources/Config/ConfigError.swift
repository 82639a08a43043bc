/// Why a configuration file was refused, with the place at fault.
///
/// The description reads like a compiler diagnostic so editors and users can jump to it:
///
///     config.toml:12: accounts.work.imap.port: expected an integer 1-65535, got "abc"
///
/// Messages never quote the value of `password_command` or `token_command` (see `TableReader`).
public struct ConfigError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong, for code that reacts differently (tests, the CLI's exit status).
    public enum Kind: Sendable, Equatable {
        /// The file could not be read, is too large, or is not UTF-8.
        case unreadableFile
        /// TOMLKit refused the text; `line` and `column` come from its parser.
        case syntax
        /// A key mailfs does not know (usually a typo).
        case unknownKey
        /// A value of the wrong TOML type (a string where an integer belongs, …).
        case wrongType
        /// A value of the right type but not allowed (out of range, unknown enum word, bad address, …).
        case invalidValue
        /// A required key or table is absent.
        case missingKey
        /// Two keys that cannot be used together (`token_command` with `auth = "plain"`, …).
        case conflictingKeys
        /// An `[accounts.NAME]` whose NAME cannot be a directory at the mount root.
        case invalidAccountName
    }

    public let kind: Kind
    /// The config file as the user named it.
    public let file: String
    /// 1-based line of the offending key or table, when known.
    public let line: Int?
    /// 1-based column, only for syntax errors.
    public let column: Int?
    /// The full dotted key at fault (`accounts.work.imap.port`), when there is one.
    public let key: String?
    /// What is wrong, in words.
    public let message: String

    public init(kind: Kind, file: String, line: Int?, column: Int? = nil, key: String?, message: String) {
        self.kind = kind
        self.file = file
        self.line = line
        self.column = column
        self.key = key
        self.message = message
    }

    public var description: String {
        var place = file
        if let line { place += ":\(line)" }
        if let column { place += ":\(column)" }
        return [place, key, message].compactMap { $0 }.joined(separator: ": ")
    }
}
