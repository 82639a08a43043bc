import TestSupport
import Testing

@testable import SMTP

@Suite("SMTP reply parser")
struct ReplyParserTests {
    /// Parses `input` as one stream; returns the replies read and the error, if any.
    private func parse(_ input: String, limits: SMTPReplyLimits = SMTPReplyLimits()) -> ([SMTPReply], SMTPReplyParseError?) {
        var parser = ReplyParser(limits: limits)
        parser.append(Array(input.utf8))
        var replies: [SMTPReply] = []
        do {
            while let reply = try parser.next() { replies.append(reply) }
        } catch {
            return (replies, error)
        }
        return (replies, nil)
    }

    static let wellFormed: [(String, [SMTPReply])] = [
        ("220 mx.example.test ESMTP Postfix\r\n", [SMTPReply(code: 220, lines: ["mx.example.test ESMTP Postfix"])]),
        ("250-mx.example.test\r\n250-PIPELINING\r\n250 8BITMIME\r\n",
         [SMTPReply(code: 250, lines: ["mx.example.test", "PIPELINING", "8BITMIME"])]),
        ("354\r\n", [SMTPReply(code: 354, lines: [""])]),
        ("250-\r\n250 \r\n", [SMTPReply(code: 250, lines: ["", ""])]),
        ("250 ok\n", [SMTPReply(code: 250, lines: ["ok"])]),
        ("250 2.1.0 Ok\r\n550 5.1.1 <nobody@example.test>: unknown\r\n",
         [SMTPReply(code: 250, lines: ["2.1.0 Ok"]), SMTPReply(code: 550, lines: ["5.1.1 <nobody@example.test>: unknown"])]),
        ("221 Bye\r\n", [SMTPReply(code: 221, lines: ["Bye"])]),
        ("250 caf\u{E9}\r\n", [SMTPReply(code: 250, lines: ["caf\u{E9}"])]),
        ("250 a\u{1B}[31mb\r\n", [SMTPReply(code: 250, lines: ["a?[31mb"])]),
        ("250 a\rb\r\n", [SMTPReply(code: 250, lines: ["a?b"])]),
    ]

    @Test("well-formed replies are read whole, multi-line ones as one", arguments: wellFormed)
    func wellFormedReplies(input: String, expected: [SMTPReply]) {
        let (replies, error) = parse(input)
        #expect(error == nil)
        #expect(replies == expected)
    }

    static let incomplete = ["", "2", "250", "250 ok", "250 ok\r", "250-first\r\n", "250-first\r\n250 la"]

    @Test("a reply cut anywhere asks for more bytes rather than failing", arguments: incomplete)
    func incompleteReplies(input: String) {
        let (replies, error) = parse(input)
        #expect(error == nil)
        #expect(replies.isEmpty)
    }

    @Test("bytes arriving one at a time give the same replies as all at once")
    func byteByByte() throws {
        let input = Array("250-mx\r\n250-SIZE 100\r\n250 HELP\r\n354 go\r\n".utf8)
        var parser = ReplyParser()
        var replies: [SMTPReply] = []
        for byte in input {
            parser.append([byte])
            while let reply = try parser.next() { replies.append(reply) }
        }
        #expect(replies == [SMTPReply(code: 250, lines: ["mx", "SIZE 100", "HELP"]), SMTPReply(code: 354, lines: ["go"])])
    }

    static let garbage: [(String, SMTPReplyParseError)] = [
        ("HTTP/1.1 400 Bad Request\r\n", .malformedLine("HTTP/1.1 400 Bad Request")),
        ("hello\r\n", .malformedLine("hello")),
        ("\r\n", .malformedLine("")),
        ("25\r\n", .malformedLine("25")),
        ("150 too low\r\n", .malformedLine("150 too low")),
        ("650 too high\r\n", .malformedLine("650 too high")),
        ("2x0 letters\r\n", .malformedLine("2x0 letters")),
        ("250_bad separator\r\n", .malformedLine("250_bad separator")),
        ("250-first\r\n550 second\r\n", .codeChanged(from: 250, to: 550)),
        ("\u{0}\u{1}\u{2}\r\n", .malformedLine("???")),
    ]

    @Test("garbage is a clear error, never a crash", arguments: garbage)
    func garbageReplies(input: String, expected: SMTPReplyParseError) {
        let (replies, error) = parse(input)
        #expect(replies.isEmpty)
        #expect(error == expected)
    }

    @Test("a line longer than the limit fails even before its end arrives")
    func overLongLine() {
        let limits = SMTPReplyLimits(maxLineLength: 64, maxLines: 10)
        #expect(parse("250 " + String(repeating: "x", count: 100), limits: limits).1 == .lineTooLong(limit: 64))
        #expect(parse("250 " + String(repeating: "x", count: 100) + "\r\n", limits: limits).1 == .lineTooLong(limit: 64))
        let fits = "250 " + String(repeating: "x", count: 58) + "\r\n"
        #expect(parse(fits, limits: limits).0.count == 1, "a line of exactly the limit, CRLF included, is read")
    }

    @Test("a multi-line reply with more lines than the limit fails")
    func tooManyLines() {
        let limits = SMTPReplyLimits(maxLineLength: 64, maxLines: 3)
        #expect(parse("250-a\r\n250-b\r\n250-c\r\n250-d\r\n", limits: limits).1 == .tooManyLines(limit: 3))
        #expect(parse("250-a\r\n250-b\r\n250 c\r\n", limits: limits).0.count == 1)
    }

    @Test("a megabyte of short replies is read in linear time")
    func manyReplies() throws {
        var parser = ReplyParser()
        parser.append(Array(String(repeating: "250 ok\r\n", count: 150_000).utf8))
        var count = 0
        let elapsed = try ThreadCPUClock.measure {
            while try parser.next() != nil { count += 1 }
        }
        #expect(count == 150_000)
        #expect(elapsed < .seconds(20), "quadratic work would take minutes; \(elapsed) here")
    }

    @Test("after reset, buffered bytes are gone (STARTTLS injection)")
    func resetDropsBufferedBytes() throws {
        var parser = ReplyParser()
        parser.append(Array("220 go ahead\r\n250 injected\r\n".utf8))
        #expect(try parser.next()?.code == 220)
        parser.reset()
        #expect(try parser.next() == nil)
    }

    static let enhanced: [(SMTPReply, String?)] = [
        (SMTPReply(code: 550, lines: ["5.1.1 <x@y>: Recipient address rejected"]), "5.1.1"),
        (SMTPReply(code: 250, lines: ["2.0.0 Ok: queued as 4BqX"]), "2.0.0"),
        (SMTPReply(code: 452, lines: ["4.5.3 Too many recipients"]), "4.5.3"),
        (SMTPReply(code: 535, lines: ["5.7.139 Authentication unsuccessful"]), "5.7.139"),
        (SMTPReply(code: 550, lines: ["4.1.1 class disagrees with the code"]), nil),
        (SMTPReply(code: 250, lines: ["mx.example.test"]), nil),
        (SMTPReply(code: 250, lines: ["2.0 too short"]), nil),
        (SMTPReply(code: 250, lines: ["2.0.1234 detail too long"]), nil),
        (SMTPReply(code: 250, lines: ["3.0.0 no such class"]), nil),
        (SMTPReply(code: 250, lines: [""]), nil),
    ]

    @Test("enhanced status codes are read when their class agrees with the reply", arguments: enhanced)
    func enhancedCodes(reply: SMTPReply, expected: String?) {
        #expect(reply.enhancedCode?.description == expected)
    }

    @Test("a reply's kind follows its first digit, its description quotes the server")
    func kinds() {
        #expect(SMTPReply(code: 250, lines: ["ok"]).kind == .positiveCompletion)
        #expect(SMTPReply(code: 354, lines: ["go"]).kind == .positiveIntermediate)
        #expect(SMTPReply(code: 421, lines: ["bye"]).kind == .transientNegative)
        #expect(SMTPReply(code: 554, lines: ["no"]).kind == .permanentNegative)
        #expect(SMTPReply(code: 550, lines: ["5.1.1 one", "two"]).description == "550 5.1.1 one two")
        #expect(SMTPReply(code: 354, lines: []).description == "354")
    }
}

extension ReplyParserTests {
    @Test("random bytes in random pieces never crash the parser")
    func randomBytes() {
        var random = SubmissionStateMachineTests.SplitMix64(state: 7)
        let alphabet = Array("0123456789 -\r\n25Ax".utf8) + [0x00, 0xFF, 0x80]
        for _ in 0..<2_000 {
            var parser = ReplyParser(limits: SMTPReplyLimits(maxLineLength: 32, maxLines: 4))
            for _ in 0..<8 {
                let piece = (0..<Int(random.next() % 40)).map { _ in alphabet.randomElement(using: &random) ?? 0 }
                parser.append(piece)
                do {
                    while let reply = try parser.next() {
                        #expect((200...599).contains(reply.code))
                        #expect(reply.lines.count <= 4)
                    }
                } catch {
                    break
                }
            }
        }
    }
}
