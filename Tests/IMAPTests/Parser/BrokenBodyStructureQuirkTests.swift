import Testing
@testable import IMAP

/// docs/IMAP-QUIRKS.md §1.1: broken BODYSTRUCTUREs are contained per item (and per part), the
/// rest of the FETCH line survives. Lines modelled on the servers' published output.
@Suite("Quirks §1.1: broken BODYSTRUCTURE")
struct BrokenBodyStructureQuirkTests {
    private func fetch(_ transcript: String) throws -> [FetchAttributes] {
        try responses(wire(transcript)).compactMap { response in
            guard case .untagged(.fetch(_, let attributes)) = response else { return nil }
            return attributes
        }
    }

    @Test("163.com: an unescaped \"\"\"\" description")
    func netease163() throws {
        let all = try fetch(#"""
            * 150 FETCH (UID 1733220355 FLAGS (\Seen) BODY (("text" "html" ("charset" "UTF-8") NIL NIL "quoted-printable" 1224 16)\#
            ("application" "octet-stream" ("name" "2154973550.pdf") NIL """" "base64" 65322) "MIXED") BODY[] {3}
            abc)
            a1 OK FETCH completed

            """#)
        let leaves = try #require(all.first?.bodyStructure?.leaves)
        #expect(leaves.map(\.part.mimeType) == ["text/html", "application/octet-stream"])
        #expect(leaves[1].part.encoding == "base64" && leaves[1].part.size == 65322)
        #expect(all.first?.uid == 1_733_220_355 && all.first?.body("") == Array("abc".utf8))
    }

    @Test("Gmail: (\"ALTERNATIVE\") as the body of an embedded message")
    func gmailEmptyAlternative() throws {
        let all = try fetch("""
            * 51 FETCH (MODSEQ (18812) UID 90 BODY (("TEXT" "PLAIN" ("CHARSET" "windows-1252") NIL NIL "QUOTED-PRINTABLE" 211 5)\
            ("MESSAGE" "DELIVERY-STATUS" NIL NIL NIL "7BIT" 344)("MESSAGE" "RFC822" NIL NIL NIL "7BIT" 2942 \
            ("Sat, 3 Jan 2015 19:26:15 +0100" "Re: MPG" (("c p" NIL "cp" "gmail.com")) (("c p" NIL "cp" "gmail.com")) \
            (("c p" NIL "cp" "gmail.com")) (("am sa[cft]" NIL "sm" "cft.ce.fr")) NIL NIL "<a@b>" "<c@d>") ("ALTERNATIVE") 51) "REPORT"))

            """)
        let attributes = try #require(all.first)
        #expect(attributes.malformed.isEmpty && attributes.uid == 90)
        let message = attributes.bodyStructure?.part(at: "3")
        #expect(message?.message?.body == .multipart(MultipartBody(parts: [], subtype: "alternative")))
        #expect(message?.lines == 51)
    }

    @Test("Gmail: a multipart written as a part, (\"ALTERNATIVE\" (\"BOUNDARY\" …) NIL NIL)")
    func gmailMultipartAsPart() throws {
        let all = try fetch("""
            * 3 FETCH (UID 7 BODYSTRUCTURE (("ALTERNATIVE" ("BOUNDARY" "==alt_x") NIL NIL)("TEXT" "HTML" ("CHARSET" "iso-8859-1") \
            NIL NIL "7BIT" 6769 171 NIL NIL NIL) "ALTERNATIVE" ("BOUNDARY" "==alt_x") NIL NIL) FLAGS (\\Seen))

            """)
        let leaves = try #require(all.first?.bodyStructure?.leaves)
        #expect(leaves.map(\.section) == ["1", "2"])
        #expect(leaves[1].part.mimeType == "text/html")
        #expect(all.first?.flags == ["\\Seen"])
    }

    @Test("a bare type without subtype (\"X-ZIP\"), and (\"RELATED\" NIL (\"ATTACHMENT\" NIL) NIL) parts")
    func bareTypes() throws {
        let all = try fetch("""
            * 1 FETCH (UID 11 BODYSTRUCTURE (("TEXT" "PLAIN" ("CHARSET" "UTF-8") NIL NIL "BASE64" 10418 133 NIL NIL NIL)\
            ("X-ZIP" ("NAME" "a.zip") NIL NIL "BASE64" 1234 NIL ("ATTACHMENT" ("FILENAME" "a.zip")) NIL)\
            ("RELATED" NIL ("ATTACHMENT" NIL) NIL) "MIXED" ("BOUNDARY" "b") NIL NIL))

            """)
        let leaves = try #require(all.first?.bodyStructure?.leaves)
        #expect(leaves.count == 3)
        #expect(leaves[1].part.type == "x-zip" && leaves[1].part.subtype == "" && leaves[1].part.size == 1234)
        #expect(leaves[1].part.disposition?.parameters["filename"] == "a.zip")
        #expect(leaves[2].part.type == "")
        #expect(all.first?.uid == 11)
    }

    @Test("mail.ru: (\"boundary\" NIL) and a floating-point size")
    func mailRu() throws {
        let all = try fetch("""
            * 9 FETCH (UID 12 BODYSTRUCTURE (("text" "plain" ("charset" "utf-8") NIL NIL "base64" 1.86931e+06 100 NIL NIL NIL NIL) \
            "mixed" ("boundary" NIL) NIL NIL NIL))

            """)
        guard case .multipart(let multipart)? = all.first?.bodyStructure else {
            Issue.record("no structure")
            return
        }
        #expect(multipart.parameters == ["boundary": ""])
        #expect(multipart.parts.first.flatMap { part -> UInt64? in
            guard case .single(let single) = part else { return nil }
            return single.size
        } == 1_869_310)
    }

    @Test("Office 365 / Exchange: stray NIL, a bare \"inline\" disposition, size -1")
    func office365() throws {
        let all = try fetch("""
            * 37 FETCH (UID 67 FLAGS (\\Seen \\Recent) BODYSTRUCTURE (("text" "plain" ("charset" "ISO-8859-1") NIL NIL \
            "QUOTED-PRINTABLE" 850 31 NIL "inline" NIL NIL)("multipart" "appledouble" ("boundary" "B_1") NIL NIL "7BIT" -1 NIL NIL \
            NIL NIL)(NIL "alternative" ("boundary" "x") NIL NIL NIL) NIL "alternative" ("boundary" "y") NIL NIL NIL))

            """)
        let attributes = try #require(all.first)
        #expect(attributes.uid == 67 && attributes.malformed.isEmpty)
        let leaves = try #require(attributes.bodyStructure?.leaves)
        #expect(leaves.first?.part.disposition == BodyDisposition(type: "inline"))
        #expect(leaves[1].part.size == 0)
    }

    @Test("a BODYSTRUCTURE beyond repair is dropped or read loosely; UID and FLAGS survive")
    func beyondRepair() throws {
        let all = try fetch("""
            * 1 FETCH (UID 5 BODYSTRUCTURE ("text" "plain" ("charset" "utf-8" NIL NIL "7bit" 10 1) FLAGS (\\Seen) RFC822.SIZE 10)
            * 2 FETCH (BODYSTRUCTURE ("text" "plain" ("charset" "utf-8"") NIL NIL "7bit" x) UID 6 FLAGS (\\Seen))
            * 3 FETCH (FLAGS (\\Seen) BODYSTRUCTURE ((((("text" ")))) UID 7)
            a1 OK done

            """)
        #expect(all.map(\.uid) == [5, 6, 7])
        #expect(all[0].bodyStructure == nil && all[0].malformed == ["BODYSTRUCTURE", ")"])
        #expect(all[1].bodyStructure?.part(at: "1")?.parameters == ["charset": "utf-8\""])
        #expect(all[2].malformed == [")"])
        #expect(all.allSatisfy { $0.flags == ["\\Seen"] })
    }
}
