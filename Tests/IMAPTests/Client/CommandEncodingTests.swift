import Transport
import Foundation
import NIOEmbedded
import Testing

@testable import IMAP

@Suite("Command encoding")
struct CommandEncodingTests {
    private func segments(
        _ literals: CommandBuilder.LiteralSupport = .init(), _ build: (inout CommandBuilder) -> Void
    ) throws -> (segments: [String], log: String) {
        var builder = CommandBuilder(literals: literals)
        build(&builder)
        let loop = EmbeddedEventLoop()
        let promise = loop.makePromise(of: CommandResult.self)
        let command = builder.command(name: "TEST", promise: promise)
        promise.fail(IMAPError.connectionClosed)
        return (command.segments.map { String(decoding: $0, as: UTF8.self) }, command.logLine)
    }

    @Test("strings are quoted or sent as literals", arguments: [
        ("INBOX", #""INBOX""#),
        ("", #""""#),
        (#"a"b\c"#, #""a\"b\\c""#),
        ("[Gmail]/All Mail", #""[Gmail]/All Mail""#),
    ])
    func quoting(value: String, expected: String) throws {
        let result = try segments { $0.string(value) }
        #expect(result.segments == [expected + "\r\n"])
    }

    @Test("8-bit text, line breaks and long strings become literals")
    func literals() throws {
        #expect(try segments { $0.string("Entwürfe") }.segments == ["{9}\r\n", "Entwürfe\r\n"])
        #expect(try segments { $0.string("a\nb") }.segments == ["{3}\r\n", "a\nb\r\n"])
        let long = String(repeating: "x", count: CommandBuilder.maxQuotedLength + 1)
        #expect(try segments { $0.string(long) }.segments.count == 2)
    }

    @Test("LITERAL- allows non-synchronizing literals up to 4096 bytes only")
    func literalMinus() throws {
        let minus = CommandBuilder.LiteralSupport(minus: true)
        #expect(try segments(minus) { $0.literal(Array(repeating: 0x61, count: 4096)) }.segments.count == 1)
        #expect(try segments(minus) { $0.literal(Array(repeating: 0x61, count: 4097)) }.segments.count == 2)
    }

    @Test("secret arguments are redacted in the log line")
    func redaction() throws {
        let quoted = try segments {
            $0.raw("LOGIN")
            $0.string("alice")
            $0.string("hunter2", secret: true)
        }
        #expect(quoted.log == #"LOGIN "alice" <redacted>"#)
        let literal = try segments { $0.string("pässwörd", secret: true) }
        #expect(literal.log == "<redacted>")
        let message = try segments { $0.literal(Array("hello".utf8)) }
        #expect(message.log == "{5}<5 bytes>")
    }

    @Test("flags and atoms are checked before they reach a command line")
    func flagSyntax() {
        #expect(CommandText.isFlag(#"\Seen"#))
        #expect(CommandText.isFlag("$Forwarded"))
        #expect(CommandText.isFlag("[Gmail]Keyword"))
        #expect(!CommandText.isFlag(#"\"#))
        #expect(!CommandText.isFlag("a b"))
        #expect(!CommandText.isFlag("x\r\nA1 LOGOUT"))
        #expect(!CommandText.isFlag("(x)"))
    }

    @Test("SASL initial responses and challenges")
    func sasl() {
        #expect(SASL.plain(user: "alice", password: "secret") == "AGFsaWNlAHNlY3JldA==")
        #expect(SASL.challengeText("eyJzdGF0dXMiOiI0MDAifQ==") == #"{"status":"400"}"#)
        #expect(SASL.challengeText("") == nil)
        #expect(SASL.challengeText("not base64!") == "not base64!")
    }

    @Test("IMAP dates use English months in a fixed zone")
    func dates() {
        let date = Date(timeIntervalSince1970: 1_780_000_000)
        #expect(IMAPDate.search(date) == "28-May-2026")
        #expect(IMAPDate.dateTime(Date(timeIntervalSince1970: 0)) == #""01-Jan-1970 00:00:00 +0000""#)
    }

    @Test("IP hosts get no SNI name; host names do")
    func serverHostname() {
        #expect(TLSOptions.serverHostname(for: "imap.gmail.com") == "imap.gmail.com")
        #expect(TLSOptions.serverHostname(for: "127.0.0.1") == nil)
        #expect(TLSOptions.serverHostname(for: "::1") == nil)
        #expect(TLSOptions.serverHostname(for: "[::1]") == nil)
    }

    @Test("a missing extra CA file is a TLS setup error")
    func missingCAFile() {
        #expect(throws: (any Error).self) { try TLSOptions(extraCAFile: "/nonexistent/ca.pem").makeContext() }
    }
}

@Suite("UID set chunking")
struct UIDSetChunkingTests {
    @Test("chunks stay under the budget and cover the set exactly")
    func chunks() throws {
        let uids = stride(from: UInt32(1), through: 20_000, by: 2)
        let set = UIDSet(uids: uids)
        let chunks = set.chunked(maxOctets: UIDSet.plainCommandBudget)
        #expect(chunks.count > 1)
        #expect(chunks.allSatisfy { $0.description.utf8.count <= UIDSet.plainCommandBudget })
        let rejoined = chunks.flatMap { $0.expanded() ?? [] }
        #expect(rejoined == Array(uids))
    }

    @Test("a compact set is one chunk; an empty set none")
    func compact() {
        #expect(UIDSet([1...1_000_000]).chunked(maxOctets: 900) == [UIDSet([1...1_000_000])])
        #expect(UIDSet().chunked(maxOctets: 900).isEmpty)
    }
}
