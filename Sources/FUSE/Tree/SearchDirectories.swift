import MailCore
import Store
import Synchronization

/// What a search directory lists: the messages matching `query` in `scope`. `name` is the
/// directory's name (a saved search's, or the query as typed).
struct SearchDirectory: Sendable {
    var scope: SearchScope
    var name: String
    var query: SearchQuery
}

/// The query directories the kernel holds. A query is any text, so unlike every other
/// node its inode cannot be computed from the store: each gets an id here when a LOOKUP
/// names it, and the kernel's references are counted (one per LOOKUP answered, given back
/// by FORGET) so it is dropped once nothing uses it. The same scope and name get the same
/// id while it lives.
final class SearchDirectories: Sendable {
    private struct Key: Hashable {
        var scope: SearchScope
        var name: String
    }

    private struct Entry {
        var directory: SearchDirectory
        // INVARIANT: the kernel's lookup count of this inode, never 0 while held.
        var references: UInt64
    }

    private struct State {
        var entries: [Int64: Entry] = [:]
        var idByKey: [Key: Int64] = [:]
        var nextId: Int64 = 1
    }

    private let state = Mutex(State())

    /// The directory's id, counting one more reference; called before the LOOKUP answer
    /// goes out, so a FORGET racing with it can never drop the entry under it.
    func open(_ directory: SearchDirectory) -> Int64 {
        state.withLock { state in
            let key = Key(scope: directory.scope, name: directory.name)
            if let id = state.idByKey[key] {
                state.entries[id]?.references += 1
                return id
            }
            let id = state.nextId
            state.nextId += 1
            state.entries[id] = Entry(directory: directory, references: 1)
            state.idByKey[key] = id
            return id
        }
    }

    func directory(_ id: Int64) -> SearchDirectory? {
        state.withLock { $0.entries[id]?.directory }
    }

    /// The kernel gave back `references`; returns whether the directory is gone with them.
    func release(_ id: Int64, references: UInt64) -> Bool {
        state.withLock { state in
            guard var entry = state.entries[id] else { return false }
            guard entry.references > references else {
                state.entries[id] = nil
                state.idByKey[Key(scope: entry.directory.scope, name: entry.directory.name)] = nil
                return true
            }
            entry.references -= references
            state.entries[id] = entry
            return false
        }
    }
}
