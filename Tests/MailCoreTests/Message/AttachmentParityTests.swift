import Foundation
import Testing
import TestSupport
@testable import MailCore

/// Issue 11 point 4: every part that Python's `email` package takes for an attachment is
/// listed by mailfs, under the same part number, with the same file name and the same
/// decoded bytes. The oracle is Tests/Oracles/python_attachments.py (its docstring defines
/// "attachment"); the messages are every corpus message of ../shared/corpora, the repo's
/// imaptest transcripts and the awkward messages below. docs/FUZZING.md has the counts.
@Suite("attachments: parity with Python's email package")
struct AttachmentParityTests {
    /// Where mailfs parts from Python on purpose: "file#index part" (Python's part number;
    /// a corpus file by its path in ../shared/corpora) -> why.
    static let deliberate: [String: String] = {
        var table: [String: String] = [:]
        let emptyPart = "listed as the next part: Python drops an empty part between two boundary lines; "
            + "mailfs counts it, as mime4j, MIME-tools and IMAP servers do"
        table["mime4j/mimetools-testmsgs/2002_06_12_doublebound.msg#0 2"] = emptyPart
        table["mime4j/mimetools-testmsgs/double-bound.msg#0 8"] = emptyPart
        table["mime4j/mimetools-testmsgs/multi-2evil.msg#0 2"] =
            "encoded words inside a quoted file name are decoded (as Thunderbird and Outlook do); "
            + "Python decodes them only when they are the whole value"
        let unquotedWord = "an encoded word written as an unquoted parameter value is decoded; Python finds no name"
        table["mime4j/mimetools-testmsgs/russian.msg#0 1"] = unquotedWord
        table["mime4j/testmsgs/russian-headers.msg#0 1"] = unquotedWord
        table["mime4j/mimetools-testmsgs/twopart.msg#0 2"] =
            "`Content-Transfer-Encoding: base64 ` (a trailing space): Python serves the encoded text, "
            + "mailfs the decoded bytes mime4j expects"
        let latin1 = "raw 8-bit bytes that are not UTF-8 are read as Windows-1252 one by one "
            + "(Charset.utf8OrWindows1252); Python replaces each with U+FFFD"
        for key in ["stalwart-mail-parser/eml/legacy/016.eml#0 3", "stalwart-mail-parser/eml/legacy/023.eml#0 4",
                    "stalwart-mail-parser/eml/legacy/026.eml#0 2", "stray-8bit-name.eml#0 2"] {
            table[key] = latin1
        }
        table["rfc2231-cut-utf8.eml#0 2"] =
            "an RFC 2231 name cut inside a UTF-8 sequence keeps its valid part (issue 11 point 4); Python adds U+FFFD"
        table["quoted-printable.eml#0 2"] =
            "trailing blanks of a quoted-printable line are deleted (RFC 2045 §6.7 rule 3); Python keeps them"
        table["base64-untidy.eml#0 2"] =
            "a comment in Content-Transfer-Encoding (RFC 2045 allows one): Python does not see base64 "
            + "and serves the encoded text"
        return table
    }()

    @Test("every attachment Python lists is listed with the same name and bytes")
    func parity() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("parity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let files = CorpusFiles.allMessageFiles().map(\.path) + Self.repoMailboxes() + (try Self.writeAwkward(to: directory))
        let python = try await Self.pythonAttachments(of: files)
        var comparison = Comparison()
        for message in python {
            comparison.compare(message, raw: try Self.message(message.index, of: message.file))
        }
        let unexplained = comparison.differences.filter { Self.deliberate[$0.key] == nil }
        #expect(unexplained.isEmpty, "\(unexplained.map { "\($0.key): \($0.problem)" }.joined(separator: "\n"))")
        // Without the corpora only the repository's messages were compared (corpus keys
        // name a path inside the corpora: "mime4j/…").
        let comparedKeys = Set(Self.deliberate.keys).filter { CorpusFiles.isPresent || !$0.contains("/") }
        let stale = comparedKeys.subtracting(comparison.differences.map(\.key))
        #expect(stale.isEmpty, "deliberate differences no longer seen: \(stale.sorted())")
        // The corpora hold most of the messages; the repository's own are a dozen.
        if CorpusFiles.isPresent {
            #expect(comparison.messages > 100 && comparison.compared > 50, "\(comparison.summary)")
        } else {
            #expect(comparison.messages > 10 && comparison.compared > 10, "\(comparison.summary)")
        }
        print("attachment parity: \(comparison.summary)")
    }

    /// What the oracle printed for one message.
    struct PythonMessage: Decodable {
        var file: String
        var index: Int
        var attachments: [PythonAttachment]?
        var error: String?
    }

    struct PythonAttachment: Decodable {
        var part: String
        var filename: String?
        var type: String
        var sha256: String?
        var size: Int?
    }

    struct Difference {
        var key: String
        var problem: String
    }

    /// The counts and the differences of one run.
    struct Comparison {
        var messages = 0
        var compared = 0
        var equal = 0
        var differences: [Difference] = []

        var summary: String {
            "\(messages) messages, \(compared) attachments compared, \(equal) equal, \(differences.count) differing"
        }

        mutating func compare(_ message: PythonMessage, raw: [UInt8]) {
            messages += 1
            let parsed = MessageParser.parse(raw)
            let listed = Dictionary(parsed.attachments.map { ($0.partID, $0) }, uniquingKeysWith: { first, _ in first })
            for expected in message.attachments ?? [] {
                compared += 1
                let key = "\(Self.shortName(message.file))#\(message.index) \(expected.part)"
                if let attachment = listed[expected.part], let problem = Self.problem(expected, attachment, raw: raw) {
                    differences.append(Difference(key: key, problem: problem))
                } else if listed[expected.part] == nil {
                    let elsewhere = parsed.attachments.first { Self.problem(expected, $0, raw: raw) == nil }
                    let problem = elsewhere.map { "listed as part \($0.partID)" }
                        ?? "not listed (\(expected.type), \(expected.filename ?? "no name"))"
                    differences.append(Difference(key: key, problem: problem))
                } else {
                    equal += 1
                }
            }
        }

        /// A corpus file by its path in the corpora, any other by its name.
        static func shortName(_ path: String) -> String {
            if let root = CorpusFiles.root?.standardized.path, path.hasPrefix(root + "/") {
                return String(path.dropFirst(root.count + 1))
            }
            return URL(fileURLWithPath: path).lastPathComponent
        }

        static func problem(_ expected: PythonAttachment, _ attachment: AttachmentInfo, raw: [UInt8]) -> String? {
            if expected.filename != attachment.filename {
                return "name \(attachment.filename.debugDescription), Python \(expected.filename.debugDescription)"
            }
            guard let sha256 = expected.sha256 else { return nil }
            let content = MessageParser.decodedContent(ofPart: attachment.partID, in: raw) ?? []
            if SHA256.hex(of: content) != sha256 {
                return "\(content.count) decoded bytes, Python \(expected.size ?? -1) (\(attachment.encoding))"
            }
            return nil
        }
    }

    static func pythonAttachments(of files: [String]) async throws -> [PythonMessage] {
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Oracles/python_attachments.py").standardized.path
        let result = try await ChildProcess.run("/usr/bin/python3", [script] + files)
        try #require(result.status == 0, "\(result.output.suffix(2000))")
        let decoded = try JSONDecoder().decode([String: [PythonMessage]].self, from: Data(result.output.utf8))
        let messages = decoded["messages"] ?? []
        for message in messages where message.error != nil {
            Issue.record("Python cannot read \(message.file)#\(message.index): \(message.error ?? "")")
        }
        return messages
    }

    /// The mailboxes among the test files are split as the importer splits them; the count
    /// must be Python's (mailbox.mbox) for the indexes to name the same messages.
    static func message(_ index: Int, of path: String) throws -> [UInt8] {
        let bytes = CorpusFiles.bytes(URL(fileURLWithPath: path))
        let name = URL(fileURLWithPath: path).lastPathComponent
        guard name.hasSuffix(".mbox") || name.hasPrefix("mbox.") else { return bytes }
        let messages = MboxSplitter.split(bytes)
        try #require(index < messages.count, "\(name): mailfs splits \(messages.count) messages")
        return messages[index]
    }

    static func repoMailboxes() -> [String] {
        let transcripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../IMAPTests/Transcripts").standardized
        let names = (try? FileManager.default.contentsOfDirectory(atPath: transcripts.path)) ?? []
        return names.filter { $0.hasSuffix(".mbox") }.sorted().map { transcripts.appendingPathComponent($0).path }
    }

    static func writeAwkward(to directory: URL) throws -> [String] {
        try AwkwardAttachments.messages.map { name, bytes in
            let file = directory.appendingPathComponent(name)
            try Data(bytes).write(to: file)
            return file.path
        }
    }
}
