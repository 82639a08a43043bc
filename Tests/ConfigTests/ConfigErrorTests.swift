import Foundation
import Testing
@testable import Config

@Suite("Refusing an invalid config with file, line and key")
struct ConfigErrorTests {
    struct ErrorCase: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let text: String
        let kind: ConfigError.Kind
        let message: String
    }

    /// Prepended to texts that only need an account around the key under test (lines 1-3).
    static let account = """
        [accounts.work]
        address = "me@example.com"
        password_command = "pass show mail/work"

        """

    static let cases: [ErrorCase] = [
        ErrorCase(
            testDescription: "a misspelt [defaults] key",
            text: "[defaults]\nsync_windo_days = 30\n", kind: .unknownKey,
            message: "config.toml:2: defaults.sync_windo_days: unknown key (did you mean sync_window_days?)"),
        ErrorCase(
            testDescription: "a misspelt top-level table",
            text: "# mailfs\n[default]\ndelete_guard = 5\n", kind: .unknownKey,
            message: "config.toml:2: default: unknown key (did you mean defaults?)"),
        ErrorCase(
            testDescription: "a misspelt account key",
            text: account + "adress = \"x@example.com\"\n", kind: .unknownKey,
            message: "config.toml:4: accounts.work.adress: unknown key (did you mean address?)"),
        ErrorCase(
            testDescription: "an unknown key with no close match",
            text: account + "[accounts.work.imap]\nhost = \"h\"\ncolour = \"blue\"\n", kind: .unknownKey,
            message: "config.toml:6: accounts.work.imap.colour: unknown key"),
        ErrorCase(
            testDescription: "a string where the port belongs",
            text: account + "[accounts.work.imap]\nhost = \"imap.example.com\"\nport = \"abc\"\n", kind: .wrongType,
            message: "config.toml:6: accounts.work.imap.port: expected an integer 1-65535, got \"abc\""),
        ErrorCase(
            testDescription: "an out-of-range port",
            text: account + "[accounts.work.imap]\nhost = \"imap.example.com\"\nport = 70000\n", kind: .invalidValue,
            message: "config.toml:6: accounts.work.imap.port: expected an integer 1-65535, got 70000"),
        ErrorCase(
            testDescription: "a port inside an inline table points at its line",
            text: account + "imap = { host = \"imap.example.com\", port = 0 }\n", kind: .invalidValue,
            message: "config.toml:4: accounts.work.imap.port: expected an integer 1-65535, got 0"),
        ErrorCase(
            testDescription: "an unknown security word",
            text: account + "[accounts.work.imap]\nhost = \"imap.example.com\"\nsecurity = \"ssl\"\n", kind: .invalidValue,
            message: "config.toml:6: accounts.work.imap.security: expected \"tls\" or \"starttls\", got \"ssl\""),
        ErrorCase(
            testDescription: "an unknown auth word",
            text: account + "auth = \"oauth\"\n[accounts.work.imap]\nhost = \"h\"\n", kind: .invalidValue,
            message: "config.toml:4: accounts.work.auth: expected \"plain\" or \"xoauth2\", got \"oauth\""),
        ErrorCase(
            testDescription: "an unknown provider word",
            text: account + "provider = \"yahoo\"\n[accounts.work.imap]\nhost = \"h\"\n", kind: .invalidValue,
            message: "config.toml:4: accounts.work.provider: expected \"gmail\" or \"generic\", got \"yahoo\""),
        ErrorCase(
            testDescription: "a sync window the spec does not offer",
            text: "[defaults]\nsync_window_days = 45\n", kind: .invalidValue,
            message: "config.toml:2: defaults.sync_window_days: expected one of 7, 14, 30, 60, 90, got 45"),
        ErrorCase(
            testDescription: "an undo delay the spec does not offer",
            text: "[defaults]\nundo_seconds = 7\n", kind: .invalidValue,
            message: "config.toml:2: defaults.undo_seconds: expected one of 0, 5, 10, 15, 30, got 7"),
        ErrorCase(
            testDescription: "a quoted number as a setting",
            text: "[defaults]\nsync_window_days = \"30\"\n", kind: .wrongType,
            message: "config.toml:2: defaults.sync_window_days: expected one of 7, 14, 30, 60, 90, got \"30\""),
        ErrorCase(
            testDescription: "an account override out of range",
            text: account + "cache_limit_mb = 0\n[accounts.work.imap]\nhost = \"h\"\n", kind: .invalidValue,
            message: "config.toml:4: accounts.work.cache_limit_mb: expected an integer 1-1048576, got 0"),
        ErrorCase(
            testDescription: "too many connections for one account",
            text: "[defaults]\nmax_connections = 31\n", kind: .invalidValue,
            message: "config.toml:2: defaults.max_connections: expected an integer 1-30, got 31"),
        ErrorCase(
            testDescription: "an account without address",
            text: "[accounts.work]\npassword_command = \"true\"\nimap.host = \"h\"\n", kind: .missingKey,
            message: "config.toml:1: accounts.work.address: missing required key"),
        ErrorCase(
            testDescription: "an account without imap",
            text: account, kind: .missingKey,
            message: "config.toml:1: accounts.work.imap: missing required table [accounts.work.imap]"),
        ErrorCase(
            testDescription: "an imap table without host",
            text: account + "[accounts.work.imap]\nport = 993\n", kind: .missingKey,
            message: "config.toml:4: accounts.work.imap.host: missing required key"),
        ErrorCase(
            testDescription: "both password_command and token_command",
            text: account + "token_command = \"oauth2-token\"\nimap.host = \"h\"\n", kind: .conflictingKeys,
            message: "config.toml:4: accounts.work.token_command: not used with auth = \"plain\"; "
                + "keep only password_command, or change auth"),
        ErrorCase(
            testDescription: "xoauth2 with a password_command",
            text: account + "auth = \"xoauth2\"\nimap.host = \"h\"\n", kind: .conflictingKeys,
            message: "config.toml:3: accounts.work.password_command: not used with auth = \"xoauth2\"; "
                + "keep only token_command, or change auth"),
        ErrorCase(
            testDescription: "plain auth without password_command",
            text: "[accounts.work]\naddress = \"me@example.com\"\nimap.host = \"h\"\n", kind: .missingKey,
            message: "config.toml:1: accounts.work.password_command: missing (required with auth = \"plain\")"),
        ErrorCase(
            testDescription: "a command of the wrong type never shows its value",
            text: "[accounts.work]\naddress = \"me@example.com\"\npassword_command = 1234\n", kind: .wrongType,
            message: "config.toml:3: accounts.work.password_command: expected a string, got an integer"),
        ErrorCase(
            testDescription: "an account name that climbs out of the mount",
            text: "[accounts.\"../x\"]\naddress = \"me@example.com\"\n", kind: .invalidAccountName,
            message: "config.toml:1: accounts.\"../x\": an account name cannot start with '.'"),
        ErrorCase(
            testDescription: "an account name with a slash",
            text: "# accounts\n[accounts.\"a/b\"]\naddress = \"me@example.com\"\n", kind: .invalidAccountName,
            message: "config.toml:2: accounts.\"a/b\": an account name may only contain letters a-z A-Z, "
                + "digits, '-', '_' and '.'"),
        ErrorCase(
            testDescription: "a hidden account name",
            text: "[accounts.\".secret\"]\naddress = \"me@example.com\"\n", kind: .invalidAccountName,
            message: "config.toml:1: accounts.\".secret\": an account name cannot start with '.'"),
        ErrorCase(
            testDescription: "the reserved name inbox",
            text: "[accounts.inbox]\naddress = \"me@example.com\"\n", kind: .invalidAccountName,
            message: "config.toml:1: accounts.inbox: \"inbox\" is reserved for the unified inbox at the mount root; "
                + "choose another name"),
        ErrorCase(
            testDescription: "the reserved name in another case",
            text: "[accounts.INBOX]\naddress = \"me@example.com\"\n", kind: .invalidAccountName,
            message: "config.toml:1: accounts.INBOX: \"INBOX\" is reserved for the unified inbox at the mount root; "
                + "choose another name"),
        ErrorCase(
            testDescription: "an account that is not a table",
            text: "[accounts]\nwork = \"me@example.com\"\n", kind: .wrongType,
            message: "config.toml:2: accounts.work: expected a table, got \"me@example.com\""),
        ErrorCase(
            testDescription: "an address that is not one",
            text: "[accounts.work]\naddress = \"me at example.com\"\n", kind: .invalidValue,
            message: "config.toml:2: accounts.work.address: expected a mail address like \"me@example.com\", "
                + "got \"me at example.com\""),
        ErrorCase(
            testDescription: "aliases that are not an array",
            text: account + "aliases = \"me@alias.example\"\nimap.host = \"h\"\n", kind: .wrongType,
            message: "config.toml:4: accounts.work.aliases: expected an array of mail addresses, "
                + "got \"me@alias.example\""),
        ErrorCase(
            testDescription: "a host with a space",
            text: account + "imap.host = \"imap example.com\"\n", kind: .invalidValue,
            message: "config.toml:4: accounts.work.imap.host: expected a host name or IP address, "
                + "got \"imap example.com\""),
        ErrorCase(
            testDescription: "a ca_file that does not exist",
            text: account + "ca_file = \"/nonexistent/mailfs/ca.pem\"\nimap.host = \"h\"\n", kind: .invalidValue,
            message: "config.toml:4: accounts.work.ca_file: \"/nonexistent/mailfs/ca.pem\": no such file"),
        ErrorCase(
            testDescription: "a ca_file that is a directory",
            text: account + "ca_file = \"/\"\nimap.host = \"h\"\n", kind: .invalidValue,
            message: "config.toml:4: accounts.work.ca_file: \"/\": not a regular file"),
        ErrorCase(
            testDescription: "a control character in a value is escaped in the message",
            text: "[accounts.work]\naddress = \"me\\u001B[31m@example.com\"\n", kind: .invalidValue,
            message: "config.toml:2: accounts.work.address: expected a mail address like \"me@example.com\", "
                + "got \"me\\u001B[31m@example.com\""),
    ]

    @Test("each invalid config names file, line and key", arguments: cases)
    func refused(_ testCase: ErrorCase) throws {
        let error = try #require(ConfigFixtures.error(testCase.text))
        #expect(error.description == testCase.message)
        #expect(error.kind == testCase.kind)
        #expect(error.file == "config.toml")
    }

    @Test("a TOML syntax error reports TOMLKit's line and column", arguments: [
        ("[defaults]\nsync_window_days = = 30\n", 2),
        ("[defaults]\n\n\nundo_seconds = 5\nundo_seconds = 6\n", 5),
        ("[accounts.work\naddress = \"x\"\n", 1),
        ("a = \"unterminated\n", 1),
    ])
    func syntaxError(text: String, line: Int) throws {
        let error = try #require(ConfigFixtures.error(text))
        #expect(error.kind == .syntax)
        #expect(error.line == line)
        #expect(error.column != nil)
        #expect(error.key == nil)
        #expect(error.description.hasPrefix("config.toml:\(line):"))
        #expect(error.description.contains("syntax error: "))
    }

    @Test("a NUL character is a syntax error on its line, not the end of the document")
    func nulCharacter() throws {
        let error = try #require(ConfigFixtures.error("[defaults]\nundo_seconds = 5\0\nnot toml at all"))
        #expect(error.kind == .syntax)
        #expect(error.description == "config.toml:2: syntax error: NUL character")
    }

    @Test("deeply nested text is refused before the TOML parser can overflow the stack", arguments: [
        ("a = 1\n" + Array(repeating: "k", count: 30_000).joined(separator: ".") + " = 1\n", 2),
        ("[" + Array(repeating: "t", count: 40).joined(separator: ".") + "]\n", 1),
        ("a = " + String(repeating: "{b=", count: 255) + "1" + String(repeating: "}", count: 255) + "\n", 1),
        ("[x]\n\na = [\n" + String(repeating: "[\n", count: 200), 34),
    ])
    func deepNesting(text: String, line: Int) throws {
        let error = try #require(ConfigFixtures.error(text))
        #expect(error.description == "config.toml:\(line): syntax error: nested more than 32 levels deep")
    }

    @Test("lines are counted the same in a file with CRLF line ends")
    func crlf() throws {
        let text = "[defaults]\r\n# comment\r\nundo_seconds = \"5\"\r\n"
        let error = try #require(ConfigFixtures.error(text))
        #expect(error.description == "config.toml:3: defaults.undo_seconds: expected one of 0, 5, 10, 15, 30, got \"5\"")
    }

    @Test("text on which TOMLKit's parser would assert is refused before it", arguments: [
        ("[[[\n", 1, "expected a table name after '['"),
        ("a = 1\n[\nb = 2\n", 2, "expected a table name after '['"),
        ("[ \u{E9}t\u{E9} ]\n", 1, "expected a table name after '['"),
        ("# ok\n\u{E9}t\u{E9} = 1\n", 2, "non-ASCII character outside a string or comment"),
        ("a = [}\n", 1, "'}' closes '['"),
        ("a = { b = [ 1 } ]\n", 1, "'}' closes '['"),
        ("a = [\n  1,\n}\n", 3, "'}' closes '['"),
    ])
    func unsafeForTOMLKit(text: String, line: Int, message: String) throws {
        let error = try #require(ConfigFixtures.error(text))
        #expect(error.description == "config.toml:\(line): syntax error: \(message)")
    }

    @Test("non-ASCII text in strings and comments is fine")
    func nonASCIIInStrings() throws {
        let text = "# caf\u{E9} \u{1F600}\n" + ConfigFixtures.minimalAccount.replacingOccurrences(
            of: "pass show mail/work", with: "pass show mail/caf\u{E9}")
        let account = try #require(try ConfigFixtures.parse(text).accounts.first)
        #expect(account.credential.command == "pass show mail/caf\u{E9}")
    }
}
