import Foundation
import MailCore
import Store

/// `mailfs import ACCOUNT PATH`: reads a Maildir (Maildir++ subfolders too), an mbox
/// file, or a directory holding Maildirs and mbox files, into an offline account.
/// Idempotent: re-importing the same mail adds nothing (dedup by Message-ID, or by
/// content digest for messages without one).
public struct MailboxImporter: Sendable {
    public let store: ImportStore
    /// Messages per write transaction: one checkpoint per batch.
    public var batchSize = 500

    public init(store: ImportStore) {
        self.store = store
    }

    public struct Report: Sendable, Equatable {
        public var folders: [String] = []
        public var summary = IngestSummary()
        /// Files that could not be read (unreadable, too big), with the reason.
        public var skipped: [String] = []
    }

    public enum ImportError: Error, CustomStringConvertible {
        case notFound(String)
        case nothingToImport(String)

        public var description: String {
            switch self {
            case .notFound(let path): return "\(path): no such file or directory"
            case .nothingToImport(let path):
                return "\(path): no Maildir (cur/, new/) or mbox file (starting with \"From \") found"
            }
        }
    }

    public func importMail(from source: URL, account: String, address: String = "",
                           folder: String? = nil) throws -> Report {
        guard FileManager.default.fileExists(atPath: source.path) else {
            throw ImportError.notFound(source.path)
        }
        let sources = MailboxDiscovery.discover(at: source, folderOverride: folder)
        guard !sources.isEmpty else { throw ImportError.nothingToImport(source.path) }
        let accountRecord = try store.ensureAccount(name: account, address: address, isOffline: true)
        guard let accountId = accountRecord.id else { return Report() }
        var report = Report()
        var mailboxes: [(DiscoveredMailbox, folderId: Int64)] = []
        for mailbox in sources {
            let type = FolderNaming.role(ofImportedName: mailbox.folderName)
            let path = FolderNaming.treePath(forName: mailbox.folderName, type: type)
            let folder = try store.ensureFolder(accountId: accountId, path: path,
                                                imapPath: mailbox.folderName, type: type)
            guard let folderId = folder.id else { continue }
            report.folders.append(path)
            mailboxes.append((mailbox, folderId))
        }
        let readAhead = mailboxes
        try store.checkpointRarely()
        defer { try? store.checkpointAsUsual() }
        try BatchPipeline<ReadBatch>().run(produce: { sender in
            try read(readAhead, to: sender)
        }, consume: { batch in
            if batch.messages.count > 0 {
                report.summary += try store.ingestImported(batch.messages, folderId: batch.folderId, accountId: accountId)
            }
            report.skipped += batch.skipped
        })
        try store.rethread(accountId: accountId)
        try store.keepListings(ofFolders: mailboxes.map(\.folderId))
        try store.flushSearchIndex()
        return report
    }

    /// A batch read and parsed, ready to store, with the files skipped since the last one.
    private struct ReadBatch: Sendable {
        var folderId: Int64
        var messages: PreparedBatch
        var skipped: [String]
    }

    /// The producer's side: reads every mailbox in turn and sends its messages parsed, by
    /// batches of `batchSize` (the last of a mailbox may be smaller, or empty with only
    /// skipped files). UIDs are numbered when a batch is stored.
    private func read(_ mailboxes: [(DiscoveredMailbox, folderId: Int64)],
                      to sender: BatchPipeline<ReadBatch>.Sender) throws {
        for (mailbox, folderId) in mailboxes {
            var messages: [IncomingMessage] = []
            var skipped: [String] = []
            func send() throws {
                guard !messages.isEmpty || !skipped.isEmpty else { return }
                let batch = ReadBatch(folderId: folderId, messages: store.prepare(messages), skipped: skipped)
                guard sender.send(batch) else { throw BatchPipeline<ReadBatch>.ConsumerStopped() }
                messages.removeAll(keepingCapacity: true)
                skipped.removeAll()
            }
            try MailboxReader.read(mailbox, skipped: { skipped.append($0) }) { message in
                messages.append(IncomingMessage(raw: message.raw, folderId: folderId, uid: 0,
                                                flags: message.flags, arrival: message.arrival))
                if messages.count >= batchSize { try send() }
            }
            try send()
        }
    }
}
