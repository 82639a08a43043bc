import TOMLKit

/// What every reader of one document shares: where errors point.
struct ParseContext {
    /// The config file as the user named it.
    let file: String
    let lines: KeyLineIndex

    func error(_ kind: ConfigError.Kind, at key: ConfigKey, _ message: String) -> ConfigError {
        ConfigError(kind: kind, file: file, line: lines.line(of: key), key: key.description, message: message)
    }
}

/// Reads typed values out of one TOML table, turning every problem into a `ConfigError` that
/// names the file, line and full dotted key.
struct TableReader {
    let table: TOMLTable
    let key: ConfigKey
    let context: ParseContext

    /// Keys whose values are never quoted in messages (see `CredentialSource`).
    private static let unquotedKeys: Set<String> = ["password_command", "token_command"]

    /// Refuses the first key (in file order) that is not in `allowed`, suggesting a close match.
    func rejectUnknownKeys(allowed: [String]) throws(ConfigError) {
        let unknown = table.keys.filter { !allowed.contains($0) }.map { key.appending($0) }
        let first = unknown.min { (context.lines.line(of: $0) ?? 0) < (context.lines.line(of: $1) ?? 0) }
        guard let first, let name = first.components.last else { return }
        var message = "unknown key"
        if let suggestion = KeySuggestion.closest(to: name, among: allowed) {
            message += " (did you mean \(suggestion)?)"
        }
        throw context.error(.unknownKey, at: first, message)
    }

    func string(_ name: String) throws(ConfigError) -> String? {
        guard let value = table[name] else { return nil }
        guard let string = value.string else { throw wrongType(name, value, expected: "a string") }
        return string
    }

    /// A string that is not blank and that `isValid` accepts.
    func string(_ name: String, expected: String, isValid: (String) -> Bool = { _ in true })
        throws(ConfigError) -> String? {
        guard let string = try string(name) else { return nil }
        if string.allSatisfy(\.isWhitespace) || !isValid(string) {
            throw invalid(name, expected: expected, got: string)
        }
        return string
    }

    func integer(_ name: String, _ rule: IntegerRule) throws(ConfigError) -> Int? {
        guard let value = table[name] else { return nil }
        guard let integer = value.int else { throw wrongType(name, value, expected: rule.expectation) }
        guard rule.allows(integer) else { throw invalid(name, expected: rule.expectation, got: value) }
        return integer
    }

    func bool(_ name: String) throws(ConfigError) -> Bool? {
        guard let value = table[name] else { return nil }
        guard let bool = value.bool else { throw wrongType(name, value, expected: "true or false") }
        return bool
    }

    /// One of the words of a string enum (`auth = "plain"`).
    func choice<Choice: RawRepresentable & CaseIterable>(_ name: String, as _: Choice.Type)
        throws(ConfigError) -> Choice? where Choice.RawValue == String {
        let words = Choice.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")
        guard let value = table[name] else { return nil }
        guard let word = value.string else { throw wrongType(name, value, expected: words) }
        guard let choice = Choice(rawValue: word) else { throw invalid(name, expected: words, got: value) }
        return choice
    }

    /// An array of strings, each not blank and accepted by `isValid`.
    func strings(_ name: String, expected: String, isValid: (String) -> Bool) throws(ConfigError) -> [String]? {
        guard let value = table[name] else { return nil }
        guard let array = value.array else { throw wrongType(name, value, expected: "an array of \(expected)") }
        var result: [String] = []
        for element in array {
            guard let string = element.string, !string.allSatisfy(\.isWhitespace), isValid(string) else {
                throw invalid(name, expected: "an array of \(expected)", got: element)
            }
            result.append(string)
        }
        return result
    }

    /// The sub-table `name` (`[accounts.work.imap]` or `imap = { … }`), or nil when absent.
    func table(_ name: String) throws(ConfigError) -> TableReader? {
        guard let value = table[name] else { return nil }
        guard let subtable = value.table else { throw wrongType(name, value, expected: "a table") }
        return TableReader(table: subtable, key: key.appending(name), context: context)
    }

    func missing(_ name: String, _ what: String = "missing required key") -> ConfigError {
        context.error(.missingKey, at: key.appending(name), what)
    }

    func error(_ kind: ConfigError.Kind, at name: String, _ message: String) -> ConfigError {
        context.error(kind, at: key.appending(name), message)
    }

    private func wrongType(_ name: String, _ value: TOMLValueConvertible, expected: String) -> ConfigError {
        error(.wrongType, at: name, "expected \(expected), got \(shown(name, value))")
    }

    private func invalid(_ name: String, expected: String, got value: TOMLValueConvertible) -> ConfigError {
        error(.invalidValue, at: name, "expected \(expected), got \(shown(name, value))")
    }

    private func shown(_ name: String, _ value: TOMLValueConvertible) -> String {
        Self.unquotedKeys.contains(name) ? ValueDescription.kind(of: value) : ValueDescription.of(value)
    }
}
