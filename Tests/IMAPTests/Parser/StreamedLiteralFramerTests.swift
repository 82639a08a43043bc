import Testing
@testable import IMAP

/// A body literal handed out in pieces: every byte once, in order, whatever the network's
/// chunks, and a response the parser reads with an empty literal in its place.
@Suite("ResponseFramer streaming a literal")
struct StreamedLiteralFramerTests {
    struct Framed: Equatable {
        var responses: [[UInt8]] = []
        var announced: [Int] = []
        var literal: [UInt8] = []
        var largestPiece = 0
    }

    static func framed(_ bytes: [UInt8], marker: String?, chunkSize: Int,
                       limits: ParserLimits = ParserLimits()) throws -> Framed {
        var framer = ResponseFramer(limits: limits)
        framer.streamedLiteralMarker = marker.map { Array($0.utf8) }
        var result = Framed()
        var offset = 0
        repeat {
            let next = min(bytes.count, offset + chunkSize)
            framer.append(bytes[offset..<next])
            offset = next
            frames: while true {
                switch try framer.next() {
                case .needMoreBytes: break frames
                case .response(let unit): result.responses.append(unit)
                case .literalBegins(let length): result.announced.append(length)
                case .literalBytes(let piece):
                    result.literal += piece
                    result.largestPiece = max(result.largestPiece, piece.count)
                }
            }
        } while offset < bytes.count
        #expect(framer.bufferedByteCount < chunkSize + 200, "nothing of the literal stays buffered")
        return result
    }

    static let body = Array("line one\r\n{3}\r\n) BODY[2] {9}\r\n* 1 FETCH\r\n".utf8) + (0..<200).map { UInt8($0) }
    static let session = Array("* 1 FETCH (FLAGS (\\Seen))\r\n* 3 FETCH (UID 77 BODY[2] {\(body.count)}\r\n".utf8)
        + body + Array(" FLAGS ())\r\nA1 OK done\r\n".utf8)

    @Test("the marked literal comes out in pieces; the response keeps an empty literal", arguments: [1, 2, 5, 64, 100_000])
    func streams(chunkSize: Int) throws {
        let result = try Self.framed(Self.session, marker: "BODY[2]", chunkSize: chunkSize)
        #expect(result.announced == [Self.body.count])
        #expect(result.literal == Self.body)
        #expect(result.largestPiece <= chunkSize)
        #expect(result.responses.map { String(decoding: $0, as: UTF8.self) } == [
            "* 1 FETCH (FLAGS (\\Seen))\r\n", "* 3 FETCH (UID 77 BODY[2] {0}\r\n FLAGS ())\r\n", "A1 OK done\r\n",
        ])
        var parser = ResponseParser()
        guard case .untagged(.fetch(_, let attributes)) = try parser.parse(result.responses[1]) else {
            Issue.record("not a FETCH")
            return
        }
        #expect(attributes.uid == 77 && attributes.body("2") == [] && attributes.flags == [])
    }

    @Test("without the marker, or for another section, the literal stays in the response")
    func otherSections() throws {
        for marker in [nil, "BODY[1]", "BODY[2.1]", "Y[2]"] {
            let result = try Self.framed(Self.session, marker: marker, chunkSize: 7)
            #expect(result.announced.isEmpty && result.literal.isEmpty, "\(marker ?? "nil")")
            #expect(result.responses.count == 3 && result.responses[1].count > Self.body.count)
        }
    }

    @Test("the marker matches in any case, a whole message's BODY[] too, and an empty literal")
    func markerVariants() throws {
        let lower = try Self.framed(Array("* 1 FETCH (body[] {3}\r\nabc uid 4)\r\n".utf8), marker: "BODY[]", chunkSize: 4)
        #expect(lower.literal == Array("abc".utf8) && lower.announced == [3])
        let empty = try Self.framed(Array("* 1 FETCH (UID 4 BODY[2] {0}\r\n)\r\n".utf8), marker: "BODY[2]", chunkSize: 3)
        #expect(empty.announced == [0] && empty.literal.isEmpty && empty.responses.count == 1)
    }

    @Test("a streamed literal may exceed the kept-literal and response limits, not its own")
    func limits() throws {
        let limits = ParserLimits(maxLiteralSize: 10, maxStreamedLiteralSize: 300, maxResponseSize: 100)
        #expect(try Self.framed(Self.session, marker: "BODY[2]", chunkSize: 50, limits: limits).literal == Self.body)
        let tight = ParserLimits(maxStreamedLiteralSize: 100)
        #expect(throws: IMAPParseError.self) { try Self.framed(Self.session, marker: "BODY[2]", chunkSize: 50, limits: tight) }
    }
}
