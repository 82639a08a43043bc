import Foundation
import GRDB

extension ImportStore {
    /// Keeps the listings of the large folders among `folderIds` (after an import), so the
    /// first `ls` of each reads its file.
    public func keepListings(ofFolders folderIds: [Int64]) throws {
        for folderId in folderIds { _ = try store.tree.messages(inFolder: folderId) }
    }
}
