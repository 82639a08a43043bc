import Foundation
import MailCore
import Store

/// `mailfs import ACCOUNT PATH`: reads a Maildir (Maildir++ subfolders too), an mbox
/// file, or a directory holding Maildirs and mbox files, into an offline account.
/// Idempotent: re-importing the same mail adds nothing (dedup by Message-ID, or by
/// content digest for messages without one).
public struct MailboxImporter: Sendable {
    public let store: MailStore
    /// Messages per write transaction: one checkpoint per batch.
    public var batchSize = 500

    public init(store: MailStore) {
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
        for mailbox in sources {
            let type = FolderNaming.role(ofImportedName: mailbox.folderName)
            let path = FolderNaming.treePath(forName: mailbox.folderName, type: type)
            let folder = try store.ensureFolder(accountId: accountId, path: path,
                                                imapPath: mailbox.folderName, type: type)
            guard let folderId = folder.id else { continue }
            report.folders.append(path)
            try importMailbox(mailbox, folderId: folderId, accountId: accountId, report: &report)
        }
        try store.rethread(accountId: accountId)
        return report
    }

    private func importMailbox(_ mailbox: DiscoveredMailbox, folderId: Int64, accountId: Int64,
                               report: inout Report) throws {
        var batch: [MailboxReader.Message] = []
        func flush() throws {
            guard !batch.isEmpty else { return }
            let firstUID = try store.reserveImportUIDs(folderId: folderId, count: batch.count)
            let incoming = batch.enumerated().map { offset, message in
                IncomingMessage(raw: message.raw, folderId: folderId, uid: firstUID + Int64(offset),
                                flags: message.flags, arrival: message.arrival)
            }
            report.summary += try store.ingest(incoming, accountId: accountId)
            batch.removeAll(keepingCapacity: true)
        }
        try MailboxReader.read(mailbox, skipped: { report.skipped.append($0) }) { message in
            batch.append(message)
            if batch.count >= batchSize { try flush() }
        }
        try flush()
    }
}
