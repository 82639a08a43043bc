import Synchronization

/// Conversations rendered so far (`threads/<thread>/conversation.txt`), by thread and the
/// conversation version they were rendered at (`TreeStore.conversationChanges`): their
/// sizes, which every LOOKUP and GETATTR of the file gives, and the texts themselves,
/// bounded by bytes and given back least recently used first. A `stat` then a `cat`, or a
/// walk's LOOKUP then READ, render a thread once; the kernel's page cache keeps a text read
/// before across opens, so a text held here only bridges the first read.
///
/// Also the conversation version the tree last looked for changes since (`lastVersion`):
/// what changed after it is dropped here and from the kernel's caches
/// (`MailTree.conversationsDidChange`).
final class ConversationTexts: Sendable {
    private struct Held {
        var version: Int64
        var text: [UInt8]
        var stamp: UInt64
    }

    private struct State {
        var sizes: [Int64: (version: Int64, size: Int)] = [:]
        var texts: [Int64: Held] = [:]
        var textBytes = 0
        /// Threads by last use, oldest first from `head`; an entry whose stamp is no longer
        /// its text's was used again later (or dropped) and is skipped.
        var order: [(thread: Int64, stamp: UInt64)] = []
        var head = 0
        var nextStamp: UInt64 = 0
        /// Counts drops: a text rendered across one may predate the change that caused it.
        var generation: UInt64 = 0
        var lastVersion: Int64

        mutating func use(_ thread: Int64) {
            nextStamp += 1
            texts[thread]?.stamp = nextStamp
            order.append((thread, nextStamp))
        }

        mutating func evict(downTo limit: Int) {
            while textBytes > limit, head < order.count {
                let (thread, stamp) = order[head]
                head += 1
                if let held = texts[thread], held.stamp == stamp {
                    texts[thread] = nil
                    textBytes -= held.text.count
                }
            }
            // Drops the entries passed, and those uses made stale, once they outnumber the
            // live ones: the queue stays within a few times the texts held.
            if head > 1024 && head * 2 > order.count {
                order.removeFirst(head)
                head = 0
            }
            if order.count - head > 4 * texts.count + 1024 {
                order = texts.map { ($0.key, $0.value.stamp) }.sorted { $0.stamp < $1.stamp }
                head = 0
            }
        }
    }

    /// Texts held at most, in bytes; a larger one is not held (its size is).
    let maxTextBytes: Int
    /// Sizes held at most (a few dozen bytes each); past it they are dropped all at once.
    static let maxSizes = 200_000
    private let state: Mutex<State>

    init(lastVersion: Int64, maxTextBytes: Int = 16 << 20) {
        self.maxTextBytes = maxTextBytes
        state = Mutex(State(lastVersion: lastVersion))
    }

    /// The current generation, taken before rendering a text to `store`.
    var generation: UInt64 { state.withLock { $0.generation } }

    /// The store's conversation version last looked at.
    var lastVersion: Int64 { state.withLock { $0.lastVersion } }

    func size(thread: Int64, version: Int64) -> Int? {
        state.withLock { state in
            guard let held = state.sizes[thread], held.version == version else { return nil }
            return held.size
        }
    }

    func text(thread: Int64, version: Int64) -> [UInt8]? {
        state.withLock { state in
            guard let held = state.texts[thread], held.version == version else { return nil }
            state.use(thread)
            return held.text
        }
    }

    /// Holds a text rendered since `generation` was read; false (nothing held) when a drop
    /// came in between: the store changed meanwhile, and the text may be of the snapshot
    /// before.
    func store(_ text: [UInt8], thread: Int64, version: Int64, builtIn generation: UInt64) -> Bool {
        state.withLock { state in
            guard state.generation == generation else { return false }
            if state.sizes.count >= Self.maxSizes && state.sizes[thread] == nil {
                state.sizes.removeAll(keepingCapacity: true)
            }
            state.sizes[thread] = (version, text.count)
            if let old = state.texts.removeValue(forKey: thread) { state.textBytes -= old.text.count }
            guard text.count <= maxTextBytes / 4 else { return true }
            state.texts[thread] = Held(version: version, text: text, stamp: 0)
            state.textBytes += text.count
            state.use(thread)
            state.evict(downTo: maxTextBytes)
            return true
        }
    }

    /// The conversations of `changes` changed: what is held of them goes, and
    /// `lastVersion` moves on.
    func drop(_ changes: [Int64], lastVersion: Int64) {
        state.withLock { state in
            state.generation &+= 1
            state.lastVersion = max(state.lastVersion, lastVersion)
            for thread in changes {
                state.sizes[thread] = nil
                if let old = state.texts.removeValue(forKey: thread) { state.textBytes -= old.text.count }
            }
        }
    }

    /// For a mount gone quiet: the texts go, their sizes stay (a `stat` needs no rendering).
    func releaseTexts() {
        state.withLock { state in
            state.texts = [:]
            state.textBytes = 0
            state.order = []
            state.head = 0
        }
    }

    /// Bytes of text held now.
    var textBytes: Int { state.withLock { $0.textBytes } }
}
