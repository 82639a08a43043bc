import Foundation
import Testing
@testable import MailCore

@Suite("SHA-256 and message fingerprints")
struct MessageFingerprintTests {
    @Test("SHA-256 gives the FIPS 180-4 digests, across block and padding boundaries", arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        ("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
    ])
    func knownDigests(input: String, digest: String) {
        #expect(SHA256.hex(of: Array(input.utf8)) == digest)
    }

    @Test("lengths on every side of a block and of its padding give Python's hashlib digests",
          arguments: [
              (55, "e7313d333c272e639f790978283f9eb392e843d0f29b7016828bb1daa4aac70b"),
              (63, "81c80242132f230c3bd41b3e63bbcff16107339549214a99614ff26664625055"),
              (65, "aacca6ff74fdbb296d165a45cecfa04e5127bc008770fbbdd48006f2d2fae95e"),
              (119, "9ce7368e4daf32341631b492e80359dc9f594b48453cd0dd5bf0b19279cc177e"),
              (120, "7836b787757e95e58b3ca5aec90b1b004e8deba1e50e9675af9cabf1a13a04b5"),
              (128, "d2742f1f4ac6bb7ca2b239ee18402ba8b3f9f8e652d2a72973c2b9ba11c08cf6"),
              (1000, "1e9bc38cbf860b9ec31918b065f9b52476c549a782e0e7990bed8ce3868d2371"),
          ])
    func blockBoundaries(length: Int, digest: String) {
        let bytes = (0..<length).map { UInt8(($0 * 7 + 3) % 256) }
        #expect(SHA256.hex(of: bytes) == digest)
        #expect(SHA256.hex(of: bytes[...]) == digest, "a slice")
        #expect(SHA256.hex(of: bytes.lazy.map { $0 }) == digest, "a sequence without contiguous storage")
    }

    @Test("a million a's hash as FIPS 180-4 says")
    func longInput() {
        #expect(SHA256.hex(of: [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test("a local message's fingerprint is what a server reports: its size and header section")
    func localEqualsServer() {
        let header = "From: a@x\r\nMessage-ID: <m@x>\r\n\r\n"
        let raw = Array((header + "body\r\n\r\nmore\r\n").utf8)
        #expect(MessageFingerprint(message: raw) == MessageFingerprint(size: raw.count, header: Array(header.utf8)))
    }

    @Test("bare LFs count as the CRLFs a server hands out")
    func bareLineFeeds() {
        let crlf = Array("From: a@x\r\nSubject: s\r\n\r\nline one\r\nline two\r\n".utf8)
        let lf = Array("From: a@x\nSubject: s\n\nline one\nline two\n".utf8)
        #expect(MessageFingerprint(message: lf) == MessageFingerprint(message: crlf))
        #expect(MessageFingerprint(message: lf).size == crlf.count)
    }

    @Test("the header section ends at the first empty line; with none it is the whole message")
    func headerSection() {
        let leadingBlank = Array("\r\nFrom: a@x\r\n\r\nb\r\n".utf8)
        #expect(MessageFingerprint(message: leadingBlank)
                == MessageFingerprint(size: leadingBlank.count, header: Array("\r\n".utf8)))
        let headerOnly = Array("From: a@x\r\nSubject: s\r\n".utf8)
        #expect(MessageFingerprint(message: headerOnly) == MessageFingerprint(size: headerOnly.count, header: headerOnly))
    }

    @Test("messages sharing a Message-ID differ by size or by header")
    func sameMessageIDDiffers() {
        let full = Array("Message-ID: <m@x>\r\nSubject: torture\r\n\r\n\(String(repeating: "x", count: 5000))\r\n".utf8)
        let fragment = Array("Message-ID: <m@x>\r\nSubject: torture\r\n\r\nxxx\r\n".utf8)
        let redelivered = Array("Received: by b\r\nMessage-ID: <m@x>\r\nSubject: torture\r\n\r\nxxx\r\n".utf8)
        let fingerprints = Set([full, fragment, redelivered].map { MessageFingerprint(message: $0) })
        #expect(fingerprints.count == 3)
    }

    @Test("the stored form reads back")
    func storedForm() {
        let fingerprint = MessageFingerprint(message: Array("Subject: s\r\n\r\nb\r\n".utf8))
        #expect(MessageFingerprint(stored: fingerprint.stored) == fingerprint)
        #expect(MessageFingerprint(stored: "nonsense") == nil)
    }
}
