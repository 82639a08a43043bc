import Foundation
import GRDB

extension TreeStore {
    /// At start-up: drafts of a run that died were never acknowledged to their writer.
    public func removeDrafts() throws {
        try store.transitionAll(in: .draft, accountId: nil, .abandon, machine: .untimed)
    }
}
