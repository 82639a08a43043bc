import IMAP
import Store

extension IMAPConnection {
    /// The highest UID of the selected mailbox that holds this message: it carries the
    /// Message-ID and is that message (`match`: its size and header), not another one
    /// sharing the Message-ID (a fragment, a second delivery). Without `match` the
    /// Message-ID is all there is to go by. How a replay after a crash (the journal's, the
    /// Sent copy's) finds what the interrupted run already did.
    func uid(ofMessage messageId: String, matching match: ServerMatch?) async throws -> UInt32? {
        // SEARCH without CHARSET is US-ASCII: a Message-ID that is not cannot be searched.
        guard !messageId.isEmpty, messageId.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else { return nil }
        let hits = try await uidSearch(.header(field: "Message-ID", value: "<\(messageId)>"))
        guard !hits.isEmpty else { return nil }
        guard let match else { return hits.max() }
        let asked = Set(hits)
        var found: [UInt32] = []
        for chunk in commandSizedChunks(of: UIDSet(uids: hits)) {
            let fetched = try await uidFetch(chunk, items: ServerIdentity.fetchItems)
            // Unsolicited FETCHes of other UIDs may come along (docs/IMAP-QUIRKS.md §1.6).
            found += fetched.compactMap(ServerIdentity.init)
                .filter { asked.contains($0.uid) && match.accepts($0.fingerprint) }.map(\.uid)
        }
        return found.max()
    }
}
