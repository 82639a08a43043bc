import Testing
@testable import Config

@Suite("Finding the line of a key")
struct KeyLineIndexTests {
    static let document = """
        # comment with key = value
        top = 1
        [accounts.work]
        address = "a" # trailing = comment
        "quoted key" = 2
        'literal.key' = 3
        imap.host = "h"
        notes = \"\"\"
        fake = 1
        [fake.table]
        \"\"\"
        literal = '''
        fake2 = 2 '''
        list = [
          "x = y",
          { inline = 1 },
        ]
        after = 4
          [ accounts . "we\\u0069rd" ]
        escaped = "say \\"hi\\" = no"
        [[things]]
        name = "t"
        """

    static let lines = KeyLineIndex(text: document)

    @Test("keys are found on their lines", arguments: [
        (["top"], 2),
        (["accounts"], 3),
        (["accounts", "work"], 3),
        (["accounts", "work", "address"], 4),
        (["accounts", "work", "quoted key"], 5),
        (["accounts", "work", "literal.key"], 6),
        (["accounts", "work", "imap"], 7),
        (["accounts", "work", "imap", "host"], 7),
        (["accounts", "work", "notes"], 8),
        (["accounts", "work", "literal"], 12),
        (["accounts", "work", "list"], 14),
        (["accounts", "work", "after"], 18),
        (["accounts", "weird"], 19),
        (["accounts", "weird", "escaped"], 20),
        (["things"], 21),
        (["things", "name"], 22),
    ])
    func found(components: [String], line: Int) {
        #expect(Self.lines.line(of: ConfigKey(components)) == line)
    }

    @Test("text inside strings, comments and arrays is never a key", arguments: [
        ["accounts", "work", "fake"],
        ["fake"],
        ["fake", "table"],
        ["accounts", "work", "fake2"],
        ["accounts", "work", "x"],
        ["accounts", "work", "inline"],
        ["key"],
    ])
    func notKeys(components: [String]) {
        let line = Self.lines.line(of: ConfigKey(components))
        let parentLine = Self.lines.line(of: ConfigKey(Array(components.dropLast())))
        #expect(line == parentLine)
    }

    @Test("a key with no line of its own takes its nearest parent's")
    func parentFallback() {
        #expect(Self.lines.line(of: ConfigKey(["accounts", "work", "imap", "port"])) == 7)
        #expect(Self.lines.line(of: ConfigKey(["nowhere"])) == nil)
    }

    @Test("a dotted key is shown as the user would write it", arguments: [
        (["accounts", "work", "imap", "port"], "accounts.work.imap.port"),
        (["accounts", "../x"], "accounts.\"../x\""),
        (["accounts", "a.b"], "accounts.\"a.b\""),
        (["accounts", ""], "accounts.\"\""),
        (["accounts", "tab\there\u{1B}"], "accounts.\"tab\\there\\u001B\""),
    ])
    func rendering(components: [String], expected: String) {
        #expect(ConfigKey(components).description == expected)
    }

    @Test("hostile text is scanned without crashing", arguments: [
        "[", "[[", "\"", "'''", "a = \"\\", "a = [[[[", "= 1", "a.=1", "[a.]", "\"\\u12\" = 1", "\"\\U\" = 1",
    ])
    func hostile(text: String) {
        _ = KeyLineIndex(text: text + "\n" + text).line(of: ConfigKey(["a"]))
    }
}
