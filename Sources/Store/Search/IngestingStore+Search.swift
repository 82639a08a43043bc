import Foundation
import GRDB
import MailCore

extension IngestingStore {
    /// Returns once the full-text index holds what this process stored, and throws what
    /// went wrong writing it since the last call. For the end of an import or a sync: what
    /// failed is indexed again from the store (a catch-up is queued with the error).
    public func flushSearchIndex() throws {
        try store.searchIndex.flush()
    }
}
