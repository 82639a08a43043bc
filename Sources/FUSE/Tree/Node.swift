/// Every object of the mounted tree, and its inode number.
///
/// Decision: inode numbers are computed from store ids (kind in the top byte, id below),
/// never allocated, so LOOKUP, FORGET and invalidation notices cannot race over a
/// table, and a message keeps its inode everywhere it appears (one message, one inode).
enum Node: Hashable, Sendable {
    case root
    case rootStatus
    case unifiedInbox
    case account(Int64)
    case accountStatus(Int64)
    case accountLog(Int64)
    case accountControl(Int64)
    case folder(Int64)
    case threads(Int64)
    case thread(Int64)
    case archive(Int64)
    case outbox(Int64)
    case attachments(Int64)
    /// attachments/<message>/ of one message (email id).
    case attachmentMessage(Int64)
    case attachmentFile(Int64)
    case message(Int64)
    /// A file of outbox/: a row of the send queue.
    case outboxItem(Int64)
    /// A message being written into a server folder, by open-file handle, until close.
    case newMessage(Int64)
    /// search/ of an account: its saved searches; any other name is run as a query.
    case searches(Int64)
    /// search/ at the mount root, over every account.
    case unifiedSearches
    /// A saved search's directory: its scope and place in the list (`SavedSearchID`).
    case savedSearch(Int64)
    /// A query's directory, by its id in `SearchDirectories`: it lives while the kernel
    /// holds it (the only node with state, since a query is any text).
    case search(Int64)

    private static let idBits: UInt64 = 56
    private static let idMask: UInt64 = (1 << idBits) - 1

    var inode: Inode {
        switch self {
        case .root: return 1
        case .rootStatus: return 2
        case .unifiedInbox: return 3
        case .unifiedSearches: return 4
        case .account(let id): return Self.encode(1, id)
        case .accountStatus(let id): return Self.encode(2, id)
        case .accountLog(let id): return Self.encode(3, id)
        case .accountControl(let id): return Self.encode(4, id)
        case .folder(let id): return Self.encode(5, id)
        case .threads(let id): return Self.encode(6, id)
        case .thread(let id): return Self.encode(7, id)
        case .archive(let id): return Self.encode(8, id)
        case .outbox(let id): return Self.encode(9, id)
        case .attachments(let id): return Self.encode(10, id)
        case .attachmentMessage(let id): return Self.encode(11, id)
        case .attachmentFile(let id): return Self.encode(12, id)
        case .message(let id): return Self.encode(13, id)
        case .outboxItem(let id): return Self.encode(14, id)
        case .newMessage(let handle): return Self.encode(15, handle)
        case .searches(let id): return Self.encode(16, id)
        case .savedSearch(let id): return Self.encode(17, id)
        case .search(let id): return Self.encode(18, id)
        }
    }

    init?(inode: Inode) {
        switch inode {
        case 1: self = .root; return
        case 2: self = .rootStatus; return
        case 3: self = .unifiedInbox; return
        case 4: self = .unifiedSearches; return
        default: break
        }
        let id = Int64(inode & Self.idMask)
        switch inode >> Self.idBits {
        case 1: self = .account(id)
        case 2: self = .accountStatus(id)
        case 3: self = .accountLog(id)
        case 4: self = .accountControl(id)
        case 5: self = .folder(id)
        case 6: self = .threads(id)
        case 7: self = .thread(id)
        case 8: self = .archive(id)
        case 9: self = .outbox(id)
        case 10: self = .attachments(id)
        case 11: self = .attachmentMessage(id)
        case 12: self = .attachmentFile(id)
        case 13: self = .message(id)
        case 14: self = .outboxItem(id)
        case 15: self = .newMessage(id)
        case 16: self = .searches(id)
        case 17: self = .savedSearch(id)
        case 18: self = .search(id)
        default: return nil
        }
    }

    private static func encode(_ kind: UInt64, _ id: Int64) -> Inode {
        (kind << idBits) | (UInt64(truncatingIfNeeded: id) & idMask)
    }

    var isDirectory: Bool {
        switch self {
        case .rootStatus, .accountStatus, .accountLog, .accountControl, .attachmentFile, .message, .outboxItem,
             .newMessage:
            return false
        default:
            return true
        }
    }
}
