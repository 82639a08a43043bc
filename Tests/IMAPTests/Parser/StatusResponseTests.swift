import Testing
@testable import IMAP

@Suite("Status responses and response codes")
struct StatusResponseTests {
    static let statusLines: [(String, Response)] = [
        ("A1 OK LOGIN completed\n", .tagged(TaggedResponse(tag: "A1", state: ResponseState(status: .ok, text: "LOGIN completed")))),
        ("a.2 no [AUTHENTICATIONFAILED] Authentication failed.\n", .tagged(TaggedResponse(
            tag: "a.2", state: ResponseState(status: .no, code: .other(name: "AUTHENTICATIONFAILED", text: nil), text: "Authentication failed."))
        )),
        ("A3 BAD Error in IMAP command\n", .tagged(TaggedResponse(tag: "A3", state: ResponseState(status: .bad, text: "Error in IMAP command")))),
        ("A4 OK\n", .tagged(TaggedResponse(tag: "A4", state: ResponseState(status: .ok)))),
        ("A5 OK [READ-WRITE]\n", .tagged(TaggedResponse(tag: "A5", state: ResponseState(status: .ok, code: .readWrite)))),
        ("* OK [ALERT]Mailbox is almost full\n", .untagged(.state(ResponseState(status: .ok, code: .alert, text: "Mailbox is almost full")))),
        ("* NO Disk quota exceeded\n", .untagged(.state(ResponseState(status: .no, text: "Disk quota exceeded")))),
        ("* BAD garbage\n", .untagged(.state(ResponseState(status: .bad, text: "garbage")))),
        ("* PREAUTH IMAP4rev1 server logged in as Smith\n", .untagged(.preauth(ResponseState(status: .ok, text: "IMAP4rev1 server logged in as Smith")))),
        ("* BYE Autologout; idle for too long\n", .untagged(.bye(ResponseState(status: .ok, text: "Autologout; idle for too long")))),
        ("+ Ready for additional command text\n", .continuation("Ready for additional command text")),
        ("+\n", .continuation("")),
        ("+ \n", .continuation("")),
        ("+ dXNlcj0=\n", .continuation("dXNlcj0=")),
    ]

    @Test("parses status lines", arguments: statusLines)
    func parsesStatusLine(input: String, expected: Response) throws {
        #expect(try parse(input) == expected)
    }

    static let codes: [(String, ResponseCode)] = [
        ("ALERT", .alert),
        ("PARSE", .parse),
        ("READ-ONLY", .readOnly),
        ("read-write", .readWrite),
        ("TRYCREATE", .tryCreate),
        ("UIDVALIDITY 3857529045", .uidValidity(3_857_529_045)),
        ("UIDVALIDITY 0", .uidValidity(0)),
        ("UIDNEXT 4392", .uidNext(4392)),
        ("UNSEEN 12", .unseen(12)),
        ("HIGHESTMODSEQ 715194045007", .highestModSeq(715_194_045_007)),
        ("NOMODSEQ", .noModSeq),
        ("PERMANENTFLAGS (\\Deleted \\Seen \\*)", .permanentFlags(["\\Deleted", "\\Seen", "\\*"])),
        ("PERMANENTFLAGS ()", .permanentFlags([])),
        ("CAPABILITY IMAP4rev1 SASL-IR AUTH=PLAIN", .capability(["IMAP4REV1", "SASL-IR", "AUTH=PLAIN"])),
        ("APPENDUID 38505 3955", .appendUID(uidValidity: 38505, uid: 3955)),
        ("APPENDUID 38505 3955:3957", .appendUID(uidValidity: 38505, uid: 3955)),
        ("COPYUID 38505 304,319:320 3956:3958", .copyUID(
            uidValidity: 38505, source: UIDSet([304...304, 319...320]), destination: UIDSet([3956...3958]))),
        ("CLOSED", .closed),
        ("UIDNEXT abc", .other(name: "UIDNEXT", text: "abc")),
        ("UIDVALIDITY 99999999999", .other(name: "UIDVALIDITY", text: "99999999999")),
        ("COPYUID 1 x y", .other(name: "COPYUID", text: "1 x y")),
        ("BADCHARSET (UTF-8 US-ASCII)", .other(name: "BADCHARSET", text: "(UTF-8 US-ASCII)")),
        ("X-FOO", .other(name: "X-FOO", text: nil)),
        ("Error=\"Internal error [1]\" AuthResultFromPopImapEnd=0 Proxy=x", .other(
            name: "ERROR", text: "=\"Internal error [1]\" AuthResultFromPopImapEnd=0 Proxy=x")),
    ]

    @Test("parses response codes; unknown or broken ones stay opaque", arguments: codes)
    func responseCodes(code: String, expected: ResponseCode) throws {
        guard case .untagged(.state(let state)) = try parse("* OK [\(code)] text\n") else {
            Issue.record("not a status response")
            return
        }
        #expect(state.code == expected)
        #expect(state.text == "text")
    }

    @Test("an unclosed bracket is text")
    func unclosedBracket() throws {
        #expect(try parse("* OK [ALERT no end\n") == .untagged(.state(ResponseState(status: .ok, text: "[ALERT no end"))))
    }

    static let failures: [(String, IMAPParseError.Kind)] = [
        ("A1 MAYBE done\n", .malformed),
        ("A1\n", .incomplete),
        ("\n", .incomplete),
        ("(A1 OK\n", .malformed),
    ]

    @Test("refuses malformed tagged responses", arguments: failures)
    func refusesMalformed(input: String, kind: IMAPParseError.Kind) {
        #expect(parseErrorKind(input) == kind)
    }
}
