/// Every object of the mounted tree, and its inode number.
///
/// Kinds are grouped by what the tree does with them: a switch treats a group alike where
/// the group decides (a directory is never opened, a file never listed) and names each kind
/// where the kind decides. No switch over nodes has a `default:`, so a new kind is flagged
/// wherever it needs a decision.
///
/// Decision: inode numbers are computed from store ids (kind in the top byte, id below),
/// never allocated, so LOOKUP, FORGET and invalidation notices cannot race over a
/// table, and a message keeps its inode everywhere it appears (one message, one inode).
enum Node: Hashable, Sendable {
    case directory(Directory)
    /// A message or attachment file: its bytes come from the store, else from the server.
    case content(ContentFile)
    /// `.status` and `.log`: rendered at open.
    case generated(GeneratedFile)
    /// Text rendered from a thread's messages, held by `ConversationTexts` and kept in the
    /// kernel's page cache until the store changes what it shows.
    case rendered(RenderedFile)
    /// An account's `.control`: the commands written to it run at once.
    case control(Int64)
    /// A file of outbox/: a row of the send queue.
    case outboxItem(Int64)
    /// A message being written into a server folder, by open-file handle, until close.
    case newMessage(Int64)

    enum Directory: Hashable, Sendable {
        case root
        case unifiedInbox
        case account(Int64)
        case folder(Int64)
        case threads(Int64)
        case thread(Int64)
        case archive(Int64)
        case outbox(Int64)
        case attachments(Int64)
        /// attachments/<message>/ of one message (email id).
        case attachmentMessage(Int64)
        /// search/ of an account: its saved searches; any other name is run as a query.
        case searches(Int64)
        /// search/ at the mount root, over every account.
        case unifiedSearches
        /// A saved search's directory: its scope and place in the list (`SavedSearchID`).
        case savedSearch(Int64)
        /// A query's directory, by its id in `SearchDirectories`: it lives while the kernel
        /// holds it (the only node with state, since a query is any text).
        case search(Int64)

        var inode: Inode { Node.directory(self).inode }
    }

    enum ContentFile: Hashable, Sendable {
        /// By email id.
        case message(Int64)
        /// By attachment id.
        case attachment(Int64)

        var inode: Inode { Node.content(self).inode }
    }

    enum GeneratedFile: Hashable, Sendable {
        /// `.status` at the mount root, over every account.
        case rootStatus
        case accountStatus(Int64)
        case accountLog(Int64)

        var inode: Inode { Node.generated(self).inode }
    }

    enum RenderedFile: Hashable, Sendable {
        /// threads/<thread>/conversation.txt, by thread id.
        case conversation(Int64)

        var inode: Inode { Node.rendered(self).inode }
    }

    private static let idBits: UInt64 = 56
    private static let idMask: UInt64 = (1 << idBits) - 1

    var inode: Inode {
        switch self {
        case .directory(.root): 1
        case .generated(.rootStatus): 2
        case .directory(.unifiedInbox): 3
        case .directory(.unifiedSearches): 4
        case .directory(.account(let id)): Self.encode(1, id)
        case .generated(.accountStatus(let id)): Self.encode(2, id)
        case .generated(.accountLog(let id)): Self.encode(3, id)
        case .control(let id): Self.encode(4, id)
        case .directory(.folder(let id)): Self.encode(5, id)
        case .directory(.threads(let id)): Self.encode(6, id)
        case .directory(.thread(let id)): Self.encode(7, id)
        case .directory(.archive(let id)): Self.encode(8, id)
        case .directory(.outbox(let id)): Self.encode(9, id)
        case .directory(.attachments(let id)): Self.encode(10, id)
        case .directory(.attachmentMessage(let id)): Self.encode(11, id)
        case .content(.attachment(let id)): Self.encode(12, id)
        case .content(.message(let id)): Self.encode(13, id)
        case .outboxItem(let id): Self.encode(14, id)
        case .newMessage(let handle): Self.encode(15, handle)
        case .directory(.searches(let id)): Self.encode(16, id)
        case .directory(.savedSearch(let id)): Self.encode(17, id)
        case .directory(.search(let id)): Self.encode(18, id)
        case .rendered(.conversation(let id)): Self.encode(19, id)
        }
    }

    init?(inode: Inode) {
        switch inode {
        case 1: self = .directory(.root); return
        case 2: self = .generated(.rootStatus); return
        case 3: self = .directory(.unifiedInbox); return
        case 4: self = .directory(.unifiedSearches); return
        default: break
        }
        let id = Int64(inode & Self.idMask)
        switch inode >> Self.idBits {
        case 1: self = .directory(.account(id))
        case 2: self = .generated(.accountStatus(id))
        case 3: self = .generated(.accountLog(id))
        case 4: self = .control(id)
        case 5: self = .directory(.folder(id))
        case 6: self = .directory(.threads(id))
        case 7: self = .directory(.thread(id))
        case 8: self = .directory(.archive(id))
        case 9: self = .directory(.outbox(id))
        case 10: self = .directory(.attachments(id))
        case 11: self = .directory(.attachmentMessage(id))
        case 12: self = .content(.attachment(id))
        case 13: self = .content(.message(id))
        case 14: self = .outboxItem(id)
        case 15: self = .newMessage(id)
        case 16: self = .directory(.searches(id))
        case 17: self = .directory(.savedSearch(id))
        case 18: self = .directory(.search(id))
        case 19: self = .rendered(.conversation(id))
        default: return nil
        }
    }

    private static func encode(_ kind: UInt64, _ id: Int64) -> Inode {
        (kind << idBits) | (UInt64(truncatingIfNeeded: id) & idMask)
    }

    /// Whether the tree keeps the node's attributes from one store change to the next
    /// (`ListingCache`): those of one store row by id, which change only with the store.
    /// A folder's are not (its mtime is that of the last change), nor are those of files
    /// that change without one (`.status`, a file being written). A rendered file's size
    /// changes only with the store.
    var attributesAreKept: Bool {
        switch self {
        case .content, .rendered:
            return true
        case .directory(let directory):
            switch directory {
            case .thread, .attachmentMessage:
                return true
            case .root, .unifiedInbox, .unifiedSearches, .account, .folder, .threads, .archive, .outbox, .attachments,
                 .searches, .savedSearch, .search:
                return false
            }
        case .generated, .control, .outboxItem, .newMessage:
            return false
        }
    }
}
