import TestSupport
import Testing
@testable import IMAP

/// Sync fetches the headers of every message of a folder in one UID FETCH: the parser
/// must go through 10,000 of them working on bytes, not on per-byte Strings.
@Suite("Parser throughput")
struct ParserThroughputTests {
    static func headerFetch(messages: Int) -> [UInt8] {
        var stream: [UInt8] = []
        stream.reserveCapacity(messages * 700)
        for number in 1...messages {
            let header = TestMessage(from: "Sender \(number) <sender\(number)@example.com>", to: "team@example.org",
                                     subject: "Weekly report number \(number) with some words",
                                     date: "Mon, 2 Nov 2026 10:00:00 +0000", messageID: "\(number).\(number * 7)@mail.example.com",
                                     inReplyTo: "\(number - 1)@mail.example.com").text
            let line = "* \(number) FETCH (UID \(number + 1000) FLAGS (\\Seen $Label\(number % 5)) RFC822.SIZE \(number * 13) "
                + "INTERNALDATE \"02-Nov-2026 10:00:00 +0000\" "
                + "BODY[HEADER.FIELDS (FROM TO CC SUBJECT DATE MESSAGE-ID IN-REPLY-TO REFERENCES)] {\(header.utf8.count)}\r\n"
                + header + ")\r\n"
            stream.append(contentsOf: line.utf8)
        }
        stream.append(contentsOf: "a9 OK Fetch completed (0.120 + 0.000 + 0.119 secs).\r\n".utf8)
        return stream
    }

    @Test("a UID FETCH of 10,000 messages' headers frames and parses completely")
    func tenThousandHeaders() throws {
        let stream = Self.headerFetch(messages: 10_000)
        let section = BodySection("HEADER.FIELDS (FROM TO CC SUBJECT DATE MESSAGE-ID IN-REPLY-TO REFERENCES)")
        var framer = ResponseFramer()
        var parser = ResponseParser()
        var uids: [UInt32] = []
        var headerBytes = 0
        let elapsed = try ThreadCPUClock.measure {
            var offset = 0
            while offset < stream.count {
                let next = min(stream.count, offset + 65_536)
                framer.append(stream[offset..<next])
                offset = next
                while case .response(let unit) = try framer.next() {
                    guard case .untagged(.fetch(_, let attributes)) = try parser.parse(unit) else { continue }
                    uids.append(attributes.uid ?? 0)
                    headerBytes += attributes.body(section)?.count ?? 0
                }
            }
        }
        print("10,000 header FETCH responses (\(stream.count) bytes) framed and parsed in \(elapsed)")
        #expect(uids.count == 10_000 && uids.first == 1001 && uids.last == 11_000)
        #expect(headerBytes > 10_000 * 200)
        #expect(elapsed < .seconds(30))
    }
}
