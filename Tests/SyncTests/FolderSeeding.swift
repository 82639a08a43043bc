import Foundation
import TestSupport

/// A suite that fills fresh folders of alice's on the test Dovecot as another client would,
/// writing the message files under its `work` directory first.
protocol FolderSeeding {
    var work: URL { get }
}

extension FolderSeeding {
    /// A fresh folder holding `count` messages, the first `big` of them about 400 KB (stored
    /// in part); returns its name and the messages' Message-IDs.
    func seededFolder(_ label: String, count: Int, big: Int = 0) async throws -> (String, [String]) {
        let folder = "\(label)-\(UUID().uuidString.prefix(8))"
        try await TestServers.seed(["create-mailbox", "--user", "alice", folder])
        let dir = work.appendingPathComponent(folder)
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let ids = (0..<count).map { "\(folder)-\($0)@test" }
        for (n, id) in ids.enumerated() {
            let body = n < big ? String(repeating: "large body line \(n)\n", count: 20_000) : "message \(n)\n"
            _ = try TestServers.messageFile(id: id, subject: "\(label) \(n)", body: body, in: dir)
        }
        if count > 0 { try await TestServers.seed(["append", "--user", "alice", "--mailbox", folder, dir.path]) }
        return (folder, ids)
    }
}
