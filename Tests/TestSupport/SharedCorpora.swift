import Foundation

/// The third-party corpora of real-world messages at `../shared/corpora` beside the
/// repository (CI has them; a fresh clone on a new machine does not). Tests that need them
/// are skipped with `absentReason` when they are missing, never failed, and `./test`
/// counts the skips. `MAILFS_TEST_CORPORA=DIR` reads them from DIR instead, and
/// `MAILFS_TEST_CORPORA=none` runs the tests as a clone without them would.
public enum SharedCorpora {
    public static let root: URL? = {
        if let override = ProcessInfo.processInfo.environment["MAILFS_TEST_CORPORA"], !override.isEmpty {
            return override == "none" || !FileManager.default.fileExists(atPath: override)
                ? nil : URL(fileURLWithPath: override)
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                let corpora = directory.deletingLastPathComponent().appendingPathComponent("shared/corpora")
                return FileManager.default.fileExists(atPath: corpora.path) ? corpora : nil
            }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    public static var isPresent: Bool { root != nil }

    /// Why a corpus test did not run: the skip line `./test` counts and prints.
    public static let absentReason =
        "needs the corpora at ../shared/corpora (absent in this clone; CI has them)"

    public static func url(_ relativePath: String) -> URL? {
        root?.appendingPathComponent(relativePath)
    }

    /// Every file under `relativePath` whose name passes `filter`, sorted.
    public static func files(under relativePath: String, where filter: (String) -> Bool) -> [URL] {
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

    /// Every message file of every corpus (whole mboxes of imaptest included: they are
    /// fine hostile input too, and `isMailbox` tells them apart).
    public static func messageFiles() -> [URL] {
        files(under: "cpython-test-email") { $0.hasPrefix("msg_") }
            + files(under: "mime4j") { $0.hasSuffix(".msg") || $0.hasPrefix("mbox.rlug") }
            + files(under: "stalwart-mail-parser/eml") { $0.hasSuffix(".eml") }
            + files(under: "notmuch-default/mail") { !notMessages.contains($0) }
            + files(under: "notmuch-misc") {
                !notMessages.contains($0) && !$0.hasSuffix(".expected") && !$0.hasSuffix(".txt")
            }
            + files(under: "imaptest/tests") { $0.hasSuffix(".mbox") }
    }

    /// A corpus file that holds a whole mbox mailbox rather than one message.
    public static func isMailbox(_ file: URL) -> Bool {
        file.lastPathComponent.hasSuffix(".mbox") || file.lastPathComponent.hasPrefix("mbox.")
    }
}
