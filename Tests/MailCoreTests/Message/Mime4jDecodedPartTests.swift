import Foundation
import Testing
import TestSupport
@testable import MailCore

/// mime4j's expectations `NAME_decoded_<path>.txt|.bin`: the transfer-decoded
/// body of every leaf part, where `<path>` numbers entities mime4j's way
/// ("1" the message, "_i" the i-th child of a multipart, "_1" the message
/// inside message/rfc822). Compared with `MessageParser.decodedContent`.
@Suite("mime4j decoded parts", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
struct Mime4jDecodedPartTests {
    static var messages: [String] {
        CorpusFiles.files(under: "mime4j") { $0.hasSuffix(".msg") }
            .map { $0.path.components(separatedBy: "/mime4j/").last ?? $0.path }
    }

    /// Where mime4j's expectation differs and we judge ours right: "NAME path" -> why.
    static let divergences: [String: String] = [
        // A base64 body cut short by junk (an unrecognised boundary) ends in an
        // incomplete quantum: we keep its bytes (lenient about missing padding),
        // mime4j drops them.
        "frag 1_2_1_2_1_2_1_2": "trailing incomplete base64 quantum kept",
        "multi-frag 1_3_2": "trailing incomplete base64 quantum kept",
        // RFC 2045 §6.4 and RFC 2046 §5.2.1 forbid base64 on multipart and
        // message/rfc822; we keep such a part as one opaque attachment.
        "multi-2gifs-base64 1_1_1": "encoded multipart is one part", "multi-2gifs-base64 1_1_2": "as above",
        "multi-2gifs-base64 1_1_3": "as above",
        "bad-newlines-multiple-parts-base64 1_1_1": "encoded multipart is one part",
        "base64encoded-rfc822message 1_1": "encoded message/rfc822 is one part",
        "base64encoded-rfc822message-nested 1_1_1": "encoded message/rfc822 is one part",
        // mime4j runs these with its "malformed header ends the header" or
        // "no header" settings; we skip a bad header line and read a headerless
        // message as all body.
        "malformedHeader-noheader 1": "a message without header is all body",
        "malformedHeaderStartsBody-noheader 1": "a message without header is all body",
        "malformedHeaderStartsBody-nocrlfcrlf 1": "a bad line inside the message header is skipped",
    ]

    /// Quoted-printable hard line breaks are kept as the source wrote them;
    /// mime4j turns them into CR LF (RFC 2045 §6.7 canonical form), so those
    /// parts are compared with line ends unified.
    static func comparable(_ bytes: [UInt8], encoding: String) -> [UInt8] {
        guard encoding == "quoted-printable" else { return bytes }
        return Array(MessageParser.withLFLineEnds(String(decoding: bytes, as: UTF8.self)).utf8)
    }

    @Test("every decoded part mime4j expects is ours too", arguments: messages)
    func decodedParts(_ name: String) throws {
        let url = try #require(CorpusFiles.url("mime4j/\(name)"))
        let raw = CorpusFiles.bytes(url)
        let stem = url.deletingPathExtension().lastPathComponent
        let expectedFiles = Self.decodedFiles(of: url)
        let root = MessageParser.structure(raw)
        var leaves: [String: String] = [:]
        Self.collectLeaves(root, path: "1", into: &leaves)
        for file in expectedFiles {
            let path = String(file.deletingPathExtension().lastPathComponent.dropFirst("\(stem)_decoded_".count))
            if Self.divergences["\(stem) \(path)"] != nil { continue }
            guard let partID = leaves[path] else {
                Issue.record("\(stem): no part at mime4j path \(path); ours: \(leaves.keys.sorted())")
                continue
            }
            let encoding = root.find(partID: partID)?.transferEncoding ?? ""
            let ours = MessageParser.decodedContent(ofPart: partID, in: raw).map { Self.comparable($0, encoding: encoding) }
            #expect(ours == Self.comparable(CorpusFiles.bytes(file), encoding: encoding), "\(stem) \(path) (part \(partID))")
        }
    }

    /// The part files `NAME_decoded.xml` refers to (the folder also holds a few
    /// stale ones from older mime4j versions, which no test of theirs reads).
    static func decodedFiles(of message: URL) -> [URL] {
        let stem = message.deletingPathExtension().lastPathComponent
        let folder = message.deletingLastPathComponent()
        guard let xml = try? String(contentsOf: folder.appendingPathComponent("\(stem)_decoded.xml"), encoding: .utf8)
        else { return [] }
        return xml.components(separatedBy: "-body name=\"").dropFirst().compactMap { chunk in
            chunk.split(separator: "\"").first.map { folder.appendingPathComponent(String($0)) }
        }
    }

    /// mime4j path -> IMAP part number, for every leaf.
    static func collectLeaves(_ part: MIMEPart, path: String, into leaves: inout [String: String]) {
        if part.contentType.isMultipart, !part.children.isEmpty {
            for (offset, child) in part.children.enumerated() {
                collectLeaves(child, path: "\(path)_\(offset + 1)", into: &leaves)
            }
        } else if let inner = part.children.first {
            collectLeaves(inner, path: "\(path)_1", into: &leaves)
        } else {
            leaves[path] = part.partID
        }
    }
}
