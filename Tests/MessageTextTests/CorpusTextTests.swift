import Foundation
import MailCore
import Testing
import TestSupport
@testable import MessageText

/// Issue 45: every word of 5 letters or more that a reader reads in a message (its decoded
/// text, `ReferenceText`) is found in its rendering, for every message of the corpora; the
/// reference itself agrees with Python's `email` package (Tests/Oracles/python_text.py).
@Suite("the corpora's words are all in their renderings",
       .enabled(if: SharedCorpora.isPresent, Comment(rawValue: SharedCorpora.absentReason)))
struct CorpusTextTests {
    /// Where the reference decoding parts from Python's on purpose: "corpus path#index" -> why.
    static let deliberate: [String: String] = {
        var table: [String: String] = [:]
        let asText = "a multipart whose boundary never opens a part (or cannot be read) is shown as its body "
            + "text (MIMETree), rather than lost; Python shows no text"
        for key in ["cpython-test-email/msg_17.txt#0", "cpython-test-email/msg_25.txt#0", "cpython-test-email/msg_31.txt#0",
                    "mime4j/mimetools-testmsgs/badbound.msg#0", "mime4j/testmsgs/multipartnopart.msg#0",
                    "mime4j/testmsgs/missing-inner-start-boundary.msg#0", "mime4j/testmsgs/ending-boundaries.msg#0",
                    "stalwart-mail-parser/eml/malformed/004.eml#0"] {
            table[key] = asText
        }
        let encoded = "base64 that Python leaves encoded (a message/rfc822 part with a transfer encoding, "
            + "an encoding name with trailing text, parts with bare CR line ends): mailfs decodes it"
        for key in ["mime4j/mimetools-testmsgs/multi-2gifs-base64.msg#0", "mime4j/testmsgs/bad-newlines-multiple-parts-base64.msg#0",
                    "mime4j/testmsgs/base64encoded-rfc822message-nested.msg#0", "mime4j/testmsgs/base64encoded-rfc822message.msg#0",
                    "stalwart-mail-parser/eml/rfc/008.eml#0"] {
            table[key] = encoded
        }
        let header = "a header block that does not end with a blank line: mailfs reads its last lines as header "
            + "fields (as mime4j does), Python as the start of the body"
        for key in ["cpython-test-email/msg_35.txt#0", "mime4j/mimetools-testmsgs/hdr-fakeout.msg#0",
                    "mime4j/testmsgs/basic-plain-with-bad-header-separator.msg#0", "mime4j/testmsgs/malformedHeader-nocrlfcrlf.msg#0",
                    "mime4j/testmsgs/malformedHeaderStartsBody-nocrlfcrlf.msg#0", "mime4j/testmsgs/obsolete.msg#0",
                    "stalwart-mail-parser/eml/malformed/019.eml#0"] {
            table[key] = header
        }
        let epilogue = "text after the closing boundary is the epilogue, which a reader is not shown (RFC 2046 §5.1.1); "
            + "Python keeps it when it follows the boundary on the same line"
        for key in ["mime4j/testmsgs/multipartemptypart.msg#0", "mime4j/testmsgs/very-long-boundary.msg#0",
                    "mime4j/testmsgs/very-very-long-boundary.msg#0", "mime4j/testmsgs/weird-boundary.msg#0"] {
            table[key] = epilogue
        }
        let latin1 = "Latin-1 text labelled UTF-8 is read as Windows-1252 (Charset.utf8Repaired); Python shows U+FFFD"
        table["stalwart-mail-parser/eml/legacy/033.eml#0"] = latin1
        table["stalwart-mail-parser/eml/legacy/052.eml#0"] = latin1
        table["stalwart-mail-parser/eml/thirdparty/010.eml#0"] =
            "a run of CJK letters cut by a quoted-printable soft break: Python splits it where mailfs joins it"
        return table
    }()

    struct PythonMessage: Decodable {
        var file: String
        var index: Int
        var text: String?
        var error: String?
    }

    struct Report {
        var messages = 0
        var words = 0
        var disagreements: [String] = []
        /// Differences the `deliberate` table explains.
        var agreedDeliberately: Set<String> = []
        var missing: [String] = []
    }

    @Test("every word of the decoded text of every corpus message is in its rendering")
    func everyWordRendered() async throws {
        let files = SharedCorpora.messageFiles()
        let python = try await Self.pythonTexts(of: files.map(\.path))
        var report = Report()
        var mailboxes: [String: [[UInt8]]] = [:]
        for message in python {
            let raw = try Self.message(message.index, of: URL(fileURLWithPath: message.file), cache: &mailboxes)
            let key = "\(Self.shortName(message.file))#\(message.index)"
            let reference = ReferenceText.text(of: raw)
            let words = ReferenceText.words(reference)
            if let text = message.text {
                let pythonOnly = ReferenceText.words(text).filter { !reference.contains($0) }
                let mailfsOnly = words.filter { !text.contains($0) }
                if (!pythonOnly.isEmpty || !mailfsOnly.isEmpty) && Self.deliberate[key] != nil {
                    report.agreedDeliberately.insert(key)
                } else if !pythonOnly.isEmpty || !mailfsOnly.isEmpty {
                    report.disagreements.append("\(key): Python only \(pythonOnly.sorted().prefix(5)), mailfs only \(mailfsOnly.sorted().prefix(5))")
                }
            }
            let rendering = MessageRenderer.render(ConversationMessage(raw: raw, fileName: "m.eml"))
            let missing = words.filter { !rendering.contains($0) }
            if !missing.isEmpty { report.missing.append("\(key): \(missing.sorted().prefix(8))") }
            report.messages += 1
            report.words += words.count
        }
        #expect(report.messages > 300, "only \(report.messages) messages compared")
        #expect(report.disagreements.isEmpty, "reference vs Python:\n\(report.disagreements.joined(separator: "\n"))")
        let stale = Set(Self.deliberate.keys).subtracting(report.agreedDeliberately)
        #expect(stale.isEmpty, "deliberate differences no longer seen: \(stale.sorted())")
        #expect(report.missing.isEmpty, "words not in the rendering:\n\(report.missing.joined(separator: "\n"))")
        print("corpus text: \(report.messages) messages, \(report.words) words, "
              + "\(report.disagreements.count) reference disagreements, \(report.missing.count) with missing words")
    }

    static func pythonTexts(of files: [String]) async throws -> [PythonMessage] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Oracles/python_text.py").standardized.path
        let result = try await ChildProcess.run("/usr/bin/python3", [script] + files)
        try #require(result.status == 0, "python_text.py failed: \(result.output.prefix(2000))")
        struct Output: Decodable { var messages: [PythonMessage] }
        return try JSONDecoder().decode(Output.self, from: Data(result.output.utf8)).messages
    }

    static func message(_ index: Int, of file: URL, cache: inout [String: [[UInt8]]]) throws -> [UInt8] {
        let bytes = (try? Data(contentsOf: file)).map { [UInt8]($0) } ?? []
        guard SharedCorpora.isMailbox(file) else { return bytes }
        let messages = cache[file.path] ?? MboxSplitter.split(bytes)
        cache[file.path] = messages
        try #require(index < messages.count, "\(file.lastPathComponent): mailfs splits \(messages.count) messages")
        return messages[index]
    }

    static func shortName(_ path: String) -> String {
        guard let root = SharedCorpora.root?.standardized.path, path.hasPrefix(root + "/") else { return path }
        return String(path.dropFirst(root.count + 1))
    }
}
