import Foundation
import TestSupport

/// Files of the third-party corpora (`SharedCorpora`), read in place; tests that need
/// them are skipped, with the reason, when they are absent.
enum CorpusFiles {
    static var root: URL? { SharedCorpora.root }

    static var isPresent: Bool { root != nil }

    static func url(_ relativePath: String) -> URL? {
        root?.appendingPathComponent(relativePath)
    }

    static func bytes(_ url: URL) -> [UInt8] {
        (try? Data(contentsOf: url)).map { [UInt8]($0) } ?? []
    }

    static func json(_ relativePath: String) -> Any? {
        guard let url = url(relativePath), let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
    }

    /// Every file under `relativePath` whose name passes `filter`, sorted.
    static func files(under relativePath: String, where filter: (String) -> Bool) -> [URL] {
        guard let base = url(relativePath),
              let enumerator = FileManager.default.enumerator(at: base, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var result: [URL] = []
        for case let file as URL in enumerator where filter(file.lastPathComponent) {
            if (try? file.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                result.append(file)
            }
        }
        return result.sorted { $0.path < $1.path }
    }

    static let notMessages: Set<String> = ["COPYING", "COPYING-GPL-3", "SOURCE.md", "README.corpora",
                                          "LICENSE", "NOTICE", "README.txt", "ARTISTIC-LICENSE.txt"]

    /// Every message file of every corpus (whole mboxes of imaptest included:
    /// they are fine hostile input too).
    static func allMessageFiles() -> [URL] {
        files(under: "cpython-test-email") { $0.hasPrefix("msg_") }
            + files(under: "mime4j") { $0.hasSuffix(".msg") || $0.hasPrefix("mbox.rlug") }
            + files(under: "stalwart-mail-parser/eml") { $0.hasSuffix(".eml") }
            + files(under: "notmuch-default/mail") { !notMessages.contains($0) }
            + files(under: "notmuch-misc") {
                !notMessages.contains($0) && !$0.hasSuffix(".expected") && !$0.hasSuffix(".txt")
            }
            + files(under: "imaptest/tests") { $0.hasSuffix(".mbox") }
    }
}
