import Store
import Synchronization

/// Where message and attachment files get their bytes, so an OPEN is answered from memory
/// instead of the store: for a file opened before (`grep -r` twice, `cat` of a known
/// message), and for a message listed before, whose pack region the listing read
/// (`MailTree.messageEntries`). Emptied on every store change (the store watcher, within
/// 250 ms), like the listings; bounded so a walk over a large account cannot grow the
/// mount: 200,000 entries of each kind, a few MB for pack regions.
final class ContentSourceCache: Sendable {
    static let maxEntries = 200_000

    /// Pack regions apart from the other sources: plain values, so a listing of 10,000
    /// messages stores them in well under a millisecond, where the enum took several.
    private struct Sources {
        var packed: [Inode: PackedMessage] = [:]
        var others: [Inode: MailTree.ContentSource] = [:]
    }

    // GUARDED_BY(sources)
    private let sources = Mutex(Sources())

    func source(_ inode: Inode) -> MailTree.ContentSource? {
        sources.withLock { sources in
            if let packed = sources.packed[inode] { return .packed(packed) }
            return sources.others[inode]
        }
    }

    func remember(_ source: MailTree.ContentSource, for inode: Inode) {
        sources.withLock { sources in
            // Dropping everything is simpler than LRU, as for listings: one query refills an entry.
            switch source {
            case .packed(let packed):
                if sources.packed.count >= Self.maxEntries { sources.packed.removeAll(keepingCapacity: true) }
                sources.packed[inode] = packed
            case .store, .server:
                sources.packed.removeValue(forKey: inode)
                if sources.others.count >= Self.maxEntries { sources.others.removeAll(keepingCapacity: true) }
                sources.others[inode] = source
            }
        }
    }

    /// Remembers the pack regions a listing read with its messages, under one lock.
    func remember(packedRegionsOf messages: [MessageEntry]) {
        sources.withLock { sources in
            if sources.packed.count + messages.count > Self.maxEntries { sources.packed.removeAll(keepingCapacity: true) }
            // Room for a first listing at once; later ones mostly list regions held already.
            if sources.packed.isEmpty { sources.packed.reserveCapacity(messages.count) }
            for message in messages {
                guard let packed = message.packed else { continue }
                sources.packed[Node.ContentFile.message(message.id).inode] = packed
            }
        }
    }

    func removeAll() {
        sources.withLock { sources in
            sources.packed.removeAll(keepingCapacity: true)
            sources.others.removeAll(keepingCapacity: true)
        }
    }

    /// Gives back the memory of the sources other than pack regions (a mount gone quiet).
    /// Pack regions stay: most came with listings, which stay too, and they are plain
    /// values, small next to the listings.
    func release() {
        sources.withLock { $0.others = [:] }
    }
}
