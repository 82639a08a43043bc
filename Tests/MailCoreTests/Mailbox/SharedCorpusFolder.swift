import Foundation

/// The third-party corpora at `../shared/corpora` beside the repository (see
/// corpora/README.md there); nil when that folder is absent.
enum SharedCorpusFolder {
    static let url: URL? = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                let corpora = folder.deletingLastPathComponent().appendingPathComponent("shared/corpora")
                return FileManager.default.fileExists(atPath: corpora.path) ? corpora : nil
            }
            folder = folder.deletingLastPathComponent()
        }
        return nil
    }()
}
