import Foundation
import TOMLKit

/// Getting from a path to a TOML document: reading the file safely, then TOMLKit.
enum ConfigSource {
    /// A config file larger than this is refused rather than parsed.
    static let maximumFileSize = 1 << 20

    static func readText(path: String) throws(ConfigError) -> String {
        func refuse(_ message: String) -> ConfigError {
            ConfigError(kind: .unreadableFile, file: path, line: nil, key: nil, message: message)
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw refuse(FileManager.default.fileExists(atPath: path) ? "cannot open the file" : "no such file")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maximumFileSize + 1) ?? Data()
        } catch {
            throw refuse("cannot read the file: \(error.localizedDescription)")
        }
        guard data.count <= maximumFileSize else { throw refuse("larger than \(maximumFileSize) bytes") }
        guard let text = String(data: data, encoding: .utf8) else { throw refuse("not UTF-8 text") }
        return text
    }

    /// The document, or a `.syntax` error at TOMLKit's line and column.
    static func parseTOML(_ text: String, lines: KeyLineIndex, path: String) throws(ConfigError) -> TOMLTable {
        func refuse(line: Int, _ message: String) -> ConfigError {
            ConfigError(kind: .syntax, file: path, line: line, key: nil, message: "syntax error: " + message)
        }
        // TOMLKit hands the text to C as a NUL-terminated string: a NUL would silently end it.
        if let nul = text.utf8.firstIndex(of: 0) {
            throw refuse(line: text.utf8[..<nul].count { $0 == UInt8(ascii: "\n") } + 1, "NUL character")
        }
        if let problem = lines.problem {
            throw refuse(line: problem.line, problem.message)
        }
        do {
            return try TOMLTable(string: text)
        } catch {
            let parseError = error as? TOMLParseError
            throw ConfigError(
                kind: .syntax, file: path,
                line: parseError?.source.begin.line, column: parseError?.source.begin.column, key: nil,
                message: "syntax error: " + (parseError?.description ?? "not a TOML document")
            )
        }
    }
}
