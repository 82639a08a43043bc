import Testing

@testable import IMAP

@Suite("Fetch items")
struct FetchItemTests {
    @Test("each item is written as RFC 3501 spells it", arguments: [
        (FetchItem.uid, "UID"),
        (.flags, "FLAGS"),
        (.internalDate, "INTERNALDATE"),
        (.rfc822Size, "RFC822.SIZE"),
        (.bodyStructure, "BODYSTRUCTURE"),
        (.modSeq, "MODSEQ"),
        (.bodyPeek(""), "BODY.PEEK[]"),
        (.bodyPeek("HEADER"), "BODY.PEEK[HEADER]"),
        (.bodyPeek("header.fields (From  To)"), "BODY.PEEK[HEADER.FIELDS (FROM TO)]"),
        (.bodyPeek("1.2", partial: 0..<10_485_760), "BODY.PEEK[1.2]<0.10485760>"),
        (.bodyPeek("TEXT", partial: 100..<150), "BODY.PEEK[TEXT]<100.50>"),
    ])
    func text(item: FetchItem, expected: String) {
        #expect(item.text == expected)
    }

    @Test("a list gets UID first unless it already asks for it")
    func listAddsUID() {
        #expect(FetchItem.list([.flags, .rfc822Size]) == "(UID FLAGS RFC822.SIZE)")
        #expect(FetchItem.list([.flags, .uid]) == "(FLAGS UID)")
        #expect(FetchItem.list([]) == "(UID)")
    }
}
