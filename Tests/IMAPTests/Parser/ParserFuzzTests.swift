import TestSupport
import Testing
@testable import IMAP

/// docs/IMAP-QUIRKS.md §1.11: mbsync's fuzzing found a crash on a stray APPENDUID
/// (CVE-2021-3578), on malformed CAPABILITY and on bogus FETCH. Here: hostile lines,
/// and thousands of deterministic mutations of the recorded transcripts.
@Suite("Quirks §1.11: fuzzing")
struct ParserFuzzTests {
    static let hostile: [String] = [
        "* OK [APPENDUID 1 2] stray\n", "* OK [APPENDUID]\n", "* NO [APPENDUID 1 x:]\n", "A1 OK [COPYUID 1 2]\n",
        "* CAPABILITY \"(\n", "* CAPABILITY \0\u{7F}\n", "* CAPABILITY {3}\n", "* 0 FETCH ()\n", "* 1 FETCH (UID)\n",
        "* 1 FETCH (UID 1 UID 2 UID 3)\n", "* 4294967296 FETCH (UID 1)\n", "* 1 FETCH (BODY[\n", "* 1 FETCH (BODY[] {5}\n",
        "* 1 FETCH ((((((((((\n", "* 1 FETCH (FLAGS \n", "* 1 FETCH (ENVELOPE (\n", "* 1 FETCH (BODYSTRUCTURE)\n",
        "* 1 FETCH (X-GM-LABELS (\"\n", "* LIST (\\\n", "* LIST () \"\n", "* STATUS\n", "* SEARCH (\n", "* ESEARCH (\n",
        "* VANISHED (\n", "* NAMESPACE\n", "* NAMESPACE ((\n",
        "* NAMESPACE ((\"\" \"/\" \"X\" (\n", "* NAMESPACE ((\"INBOX.\" {1}\n", "+ {5}\n", "*\n", "* \n", "A1 OK [\n", "A1 OK []\n", "A1 OK [ ] x\n", "\"\n", "{5}\n", "~{\n",
    ]

    @Test("hostile lines give a response or an error, never a trap", arguments: hostile)
    func hostileLine(line: String) {
        _ = try? parse(line)
    }

    @Test("a stray APPENDUID is a plain code, a broken one stays opaque")
    func strayAppendUID() throws {
        #expect(try parse("* OK [APPENDUID 1 2] stray\n") == .untagged(.state(
            ResponseState(status: .ok, code: .appendUID(uidValidity: 1, uid: 2), text: "stray"))))
        #expect(try parse("* OK [APPENDUID]\n") == .untagged(.state(
            ResponseState(status: .ok, code: .other(name: "APPENDUID", text: nil)))))
    }

    @Test("100,000 open parentheses cost neither stack nor time")
    func hostileNesting() throws {
        let open = String(repeating: "(", count: 100_000)
        let attributes = try fetchAttributes("* 1 FETCH (UID 3 BODYSTRUCTURE \(open) FLAGS (\\Seen))\n")
        #expect(attributes?.uid == 3 && attributes?.bodyStructure == nil)
        #expect(try frame(wire("* 1 FETCH (\(open)\nA1 OK\n")).count == 2)
        #expect(parseErrorKind("* 1 FETCH (ENVELOPE \(open))\n") == nil)
    }

    static let seeds: [[UInt8]] = [
        DovecotTranscript.greetingAndLogin, DovecotTranscript.listSpecialUse, DovecotTranscript.select,
        DovecotTranscript.fetchStructure, DovecotTranscript.fetchBodies, GmailTranscript.session,
        Self.namespaces,
    ].map(wire)

    /// Courier's, Cyrus's and RFC 2342's NAMESPACE answers, extensions included.
    static let namespaces = """
        * NAMESPACE (("INBOX." ".")) NIL (("#shared." "."))
        * NAMESPACE (("" "/")) (("Other Users/" "/")) (("Shared Folders/" "/"))
        * NAMESPACE (("" "/")("#mh/" "/" "X-PARAM" ("FLAG1" "FLAG2"))) NIL NIL
        A1 OK NAMESPACE completed

        """

    @Test("10,000 seeded mutations of the transcripts: no trap, bounded time", arguments: [
        ParserLimits(), ParserLimits(maxLiteralSize: 64, maxLineLength: 256, maxResponseSize: 4096, maxNestingDepth: 4, maxListItems: 8),
    ])
    func mutations(limits: ParserLimits) {
        var random = SplitMix64(seed: 0x1AB_CDEF)
        var parsed = 0
        var slowest = Duration.zero
        for round in 0..<5_000 {
            var bytes = Self.seeds[round % Self.seeds.count]
            for _ in 0...random.next(below: 6) { Mutator.mutate(&bytes, &random) }
            let elapsed = ThreadCPUClock.measure {
                parsed += Self.frameAndParse(bytes, chunkSize: 1 + random.next(below: 200), limits: limits)
                var parser = ResponseParser(limits: limits)
                _ = try? parser.parse(bytes)
            }
            slowest = max(slowest, elapsed)
        }
        #expect(parsed > 5_000)
        #expect(slowest < .seconds(2))
    }

    /// Frames and parses until the stream breaks; returns how many responses parsed.
    private static func frameAndParse(_ bytes: [UInt8], chunkSize: Int, limits: ParserLimits) -> Int {
        var framer = ResponseFramer(limits: limits)
        var parser = ResponseParser(limits: limits)
        var parsed = 0
        var offset = 0
        while offset < bytes.count {
            let next = min(bytes.count, offset + chunkSize)
            framer.append(bytes[offset..<next])
            offset = next
            do {
                while case .response(let unit) = try framer.next() {
                    if (try? parser.parse(unit)) != nil { parsed += 1 }
                }
            } catch {
                return parsed
            }
        }
        return parsed
    }
}

/// A deterministic pseudo-random generator, so every run mutates the same way.
struct SplitMix64 {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    mutating func next(below bound: Int) -> Int {
        Int(next() % UInt64(max(bound, 1)))
    }
}

/// Byte-level mutations aimed at the grammar's weak points.
enum Mutator {
    private static let interesting: [UInt8] = Array("()[]{}<>\"\\ \r\n*+~0123456789NIL".utf8) + [0, 0x7F, 0xFF]
    private static let markers: [[UInt8]] = ["{0}\r\n", "{5}\r\n", "{99999}\r\n", "~{3}\r\n", "NIL", "\"\"", "()", "(((", ")))"]
        .map { Array($0.utf8) }

    static func mutate(_ bytes: inout [UInt8], _ random: inout SplitMix64) {
        guard !bytes.isEmpty else { return }
        let at = random.next(below: bytes.count)
        switch random.next(below: 6) {
        case 0: bytes[at] = interesting[random.next(below: interesting.count)]
        case 1: bytes.insert(interesting[random.next(below: interesting.count)], at: at)
        case 2: bytes.removeSubrange(at..<min(bytes.count, at + 1 + random.next(below: 40)))
        case 3: bytes.insert(contentsOf: markers[random.next(below: markers.count)], at: at)
        case 4: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + random.next(below: 300))], at: at)
        default: bytes[at] ^= UInt8(truncatingIfNeeded: 1 << random.next(below: 8))
        }
    }
}
