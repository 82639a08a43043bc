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
        SharedCorpora.files(under: relativePath, where: filter)
    }

    /// Every message file of every corpus (whole mboxes of imaptest included:
    /// they are fine hostile input too).
    static func allMessageFiles() -> [URL] {
        SharedCorpora.messageFiles()
    }
}
