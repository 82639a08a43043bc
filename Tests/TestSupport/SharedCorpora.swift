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
}
