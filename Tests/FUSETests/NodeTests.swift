@testable import FUSE
import Testing

/// Inode numbers are computed, never allocated: kind in the top byte, store id below. Users
/// and the kernel see them (`ls -i`, `find -inum`, hard-link counts over one message), so
/// every kind keeps its number.
@Suite("Node inode numbers")
struct NodeTests {
    static let id: Int64 = 0x12_3456
    /// Every kind of node, with the inode it has always had.
    static let numbered: [(Node, Inode)] = [
        (.root, 1),
        (.rootStatus, 2),
        (.unifiedInbox, 3),
        (.unifiedSearches, 4),
        (.account(id), 1 << 56 | 0x12_3456),
        (.accountStatus(id), 2 << 56 | 0x12_3456),
        (.accountLog(id), 3 << 56 | 0x12_3456),
        (.accountControl(id), 4 << 56 | 0x12_3456),
        (.folder(id), 5 << 56 | 0x12_3456),
        (.threads(id), 6 << 56 | 0x12_3456),
        (.thread(id), 7 << 56 | 0x12_3456),
        (.archive(id), 8 << 56 | 0x12_3456),
        (.outbox(id), 9 << 56 | 0x12_3456),
        (.attachments(id), 10 << 56 | 0x12_3456),
        (.attachmentMessage(id), 11 << 56 | 0x12_3456),
        (.attachmentFile(id), 12 << 56 | 0x12_3456),
        (.message(id), 13 << 56 | 0x12_3456),
        (.outboxItem(id), 14 << 56 | 0x12_3456),
        (.newMessage(id), 15 << 56 | 0x12_3456),
        (.searches(id), 16 << 56 | 0x12_3456),
        (.savedSearch(id), 17 << 56 | 0x12_3456),
        (.search(id), 18 << 56 | 0x12_3456),
    ]

    @Test("every kind of node keeps its inode number, and the number gives the node back",
          arguments: numbered)
    func stableNumbers(node: Node, inode: Inode) {
        #expect(node.inode == inode)
        #expect(Node(inode: inode) == node)
    }

    @Test("numbers of no kind are no node")
    func unknownNumbers() {
        #expect(Node(inode: 0) == nil)
        #expect(Node(inode: 5) == nil)
        #expect(Node(inode: 19 << 56 | 1) == nil)
    }
}
