import Foundation
import MailCore

/// Thread rows from FR-SYNC-06 step 5 metadata (computed in MailCore).
extension ThreadMember {
    var summary: ThreadMessageSummary {
        ThreadMessageSummary(id: id, date: date,
                             from: fromAddress.isEmpty ? [] : [EmailAddress(name: fromName, address: fromAddress)],
                             subject: subject, isUnread: !isRead, snippet: snippet)
    }
}

extension ThreadMetadata {
    /// Writes the metadata into `thread`; returns whether anything changed.
    func apply(to thread: inout ThreadRecord) -> Bool {
        let before = thread
        thread.subject = subject
        thread.latestDate = latestDate
        thread.messageCount = messageCount
        thread.unreadCount = unreadCount
        thread.participants = participants.map { address in
            address.name.flatMap { $0.isEmpty ? nil : $0 } ?? address.address
        }.joined(separator: ", ")
        thread.snippet = snippet
        return thread != before
    }

    /// A new thread, named after its root message, with the first name `isTaken` refuses.
    func newThread(accountId: Int64, rootDate: Date, isTaken: (String) throws -> Bool) rethrows -> ThreadRecord {
        let base = FileNamer.threadDirectoryName(date: rootDate, subject: subject)
        let name = try FileNamer.firstFree(base, keepingExtension: false, isTaken: isTaken)
        var thread = ThreadRecord(id: nil, accountId: accountId, dirName: name, subject: subject,
                                  latestDate: latestDate, messageCount: 0, unreadCount: 0,
                                  participants: "", snippet: "")
        _ = apply(to: &thread)
        return thread
    }
}
