import Foundation
import TestSupport
import Testing
@testable import MailCore

@Suite("Every corpus message parses", .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
struct CorpusRobustnessTests {
    @Test("all corpus messages parse with sane results")
    func allMessagesParse() {
        let files = CorpusFiles.allMessageFiles()
        #expect(files.count > 300)
        for file in files {
            let raw = CorpusFiles.bytes(file)
            let message = MessageParser.parse(raw)
            checkInvariants(message, raw: raw, name: file.lastPathComponent)
        }
    }

    @Test("the cpython and mime4j corpora parse in well under a second")
    func corpusParsingIsFast() {
        let raws = (CorpusFiles.files(under: "cpython-test-email") { $0.hasPrefix("msg_") }
            + CorpusFiles.files(under: "mime4j") { $0.hasSuffix(".msg") }).map(CorpusFiles.bytes)
        #expect(raws.count > 100)
        let elapsed = ThreadCPUClock.measure {
            for raw in raws { _ = MessageParser.parse(raw) }
        }
        #expect(elapsed < .seconds(1), "took \(elapsed)")
    }
}

/// What must hold for any parsed message, however broken its input.
func checkInvariants(_ message: ParsedMessage, raw: [UInt8], name: String) {
    for attachment in message.attachments {
        #expect(!attachment.partID.isEmpty, "\(name): attachment without part number")
        #expect(attachment.mimeType.contains("/"), "\(name): \(attachment.mimeType)")
        #expect(attachment.size >= 0 && attachment.size <= raw.count, "\(name): size \(attachment.size)")
        let content = MessageParser.decodedContent(ofPart: attachment.partID, in: raw)
        #expect(content?.count == attachment.size, "\(name): part \(attachment.partID) content size")
    }
    let ids = [message.messageID].compactMap { $0 } + message.inReplyTo + message.references
    for id in ids {
        #expect(!id.isEmpty && !id.hasPrefix("<") && !id.hasSuffix(">"), "\(name): id \(id)")
    }
    #expect(!message.subject.contains("\n"), "\(name): subject has a line break")
    for body in [message.bodyPlain, message.bodyHTML].compactMap({ $0 }) {
        #expect(body.utf8.count <= MessageParser.maxBodyBytes * 3 + 100, "\(name): body too long")
        #expect(!body.contains("\r\n"), "\(name): body keeps CR LF")
    }
}
