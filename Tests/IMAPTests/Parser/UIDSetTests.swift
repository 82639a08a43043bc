import Testing
@testable import IMAP

@Suite("UIDSet")
struct UIDSetTests {
    @Test("parses and renders sequence sets", arguments: [
        ("1:5,7,9:*", "1:5,7,9:*"),
        ("7", "7"),
        ("5:1", "1:5"),
        ("3,1,2", "1:3"),
        ("1:3,2:8,10", "1:8,10"),
        ("*", "*"),
        ("4294967294:*", "4294967294:*"),
    ])
    func roundTrip(input: String, rendered: String) {
        #expect(UIDSet(input)?.description == rendered)
    }

    @Test("refuses malformed sets", arguments: ["", ",", "1,", "a", "1:2:3", "0x5", "4294967296", "1::2"])
    func malformed(input: String) {
        #expect(UIDSet(input) == nil)
    }

    @Test("counts and finds members without expanding")
    func membership() throws {
        let set = try #require(UIDSet("1:4294967294"))
        #expect(set.count == 4_294_967_294)
        #expect(set.contains(3_000_000_000))
        #expect(!set.contains(4_294_967_295))
        #expect(set.expanded(limit: 1000) == nil)
    }

    @Test("expands small sets in order")
    func expansion() {
        #expect(UIDSet("9,1:3,5")?.expanded() == [1, 2, 3, 5, 9])
        #expect(UIDSet(uids: [4, 2, 3]).ranges == [2...4])
    }

    @Test("inserting merges adjacent ranges")
    func insertion() {
        var set = UIDSet("1:3,7")
        set?.insert(4...6)
        #expect(set?.ranges == [1...7])
    }
}
