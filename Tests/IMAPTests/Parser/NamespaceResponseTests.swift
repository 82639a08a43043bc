import Testing
@testable import IMAP

/// RFC 2342 NAMESPACE: the personal prefix decides how folders are named in the tree and on
/// CREATE (docs/SYNC-RULES.md, "Folders").
@Suite("NAMESPACE responses")
struct NamespaceResponseTests {
    static let parsed: [(String, NamespaceResponse)] = [
        // Courier, and Cyrus as Debian ships it.
        ("* NAMESPACE ((\"INBOX.\" \".\")) NIL ((\"#shared.\" \".\"))\n", NamespaceResponse(
            personal: [.init(prefix: "INBOX.", delimiter: ".")], shared: [.init(prefix: "#shared.", delimiter: ".")])),
        // Cyrus with altnamespace and the unix hierarchy separator.
        ("* NAMESPACE ((\"\" \"/\")) ((\"Other Users/\" \"/\")) ((\"Shared Folders/\" \"/\"))\n", NamespaceResponse(
            personal: [.init(prefix: "", delimiter: "/")], otherUsers: [.init(prefix: "Other Users/", delimiter: "/")],
            shared: [.init(prefix: "Shared Folders/", delimiter: "/")])),
        // RFC 2342 §5 example 5.6: several namespaces of one kind.
        ("* NAMESPACE ((\"\" \"/\")(\"#mh/\" \"/\" \"X-PARAM\" (\"FLAG1\" \"FLAG2\"))) NIL NIL\n", NamespaceResponse(
            personal: [.init(prefix: "", delimiter: "/"), .init(prefix: "#mh/", delimiter: "/")])),
        ("* NAMESPACE ((\"\" NIL)) NIL NIL\n", NamespaceResponse(personal: [.init(prefix: "", delimiter: nil)])),
        ("* NAMESPACE NIL NIL NIL\n", NamespaceResponse(personal: [])),
        ("* namespace ((\"INBOX.\" \".\"))\n", NamespaceResponse(personal: [.init(prefix: "INBOX.", delimiter: ".")])),
        ("* NAMESPACE ((\(literal("INBOX.")) \".\")) NIL NIL\n",
         NamespaceResponse(personal: [.init(prefix: "INBOX.", delimiter: ".")])),
        ("* NAMESPACE ((\"~\" \"\\\\\")) NIL NIL\n", NamespaceResponse(personal: [.init(prefix: "~", delimiter: "\\")])),
    ]

    @Test("parses the three lists, extensions skipped", arguments: parsed)
    func parses(input: String, expected: NamespaceResponse) throws {
        #expect(try parse(input) == .untagged(.namespace(expected)))
    }

    static let brokenLines: [String] = [
        "* NAMESPACE\n", "* NAMESPACE (\n", "* NAMESPACE ((\n", "* NAMESPACE ((\"INBOX.\"\n",
        "* NAMESPACE ((\"INBOX.\" \".\"\n", "* NAMESPACE ((\"INBOX.\" \".\" (\n", "* NAMESPACE (() NIL NIL\n",
        "* NAMESPACE x y z\n", "* NAMESPACE ((\"a\" \".\" \"X\" ((((((((\n", "* NAMESPACE ((\"a\" {99}\n",
    ]

    @Test("a broken NAMESPACE is an error of its own response, never a trap", arguments: brokenLines)
    func broken(input: String) {
        #expect(parseErrorKind(input) != nil)
    }

    @Test("hostile extension nesting is bounded by the parser's limits")
    func hostileNesting() {
        let open = String(repeating: "(", count: 100_000)
        #expect(parseErrorKind("* NAMESPACE ((\"\" \"/\" \"X\" \(open))) NIL NIL\n") == .limitExceeded)
        let many = String(repeating: "(\"a.\" \".\")", count: 20)
        #expect(parseErrorKind("* NAMESPACE (\(many)) NIL NIL\n", limits: ParserLimits(maxListItems: 8)) == .limitExceeded)
    }
}
