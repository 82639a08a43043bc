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
        (.directory(.root), 1),
        (.generated(.rootStatus), 2),
        (.directory(.unifiedInbox), 3),
        (.directory(.unifiedSearches), 4),
        (.directory(.account(id)), 1 << 56 | 0x12_3456),
        (.generated(.accountStatus(id)), 2 << 56 | 0x12_3456),
        (.generated(.accountLog(id)), 3 << 56 | 0x12_3456),
        (.control(id), 4 << 56 | 0x12_3456),
        (.directory(.folder(id)), 5 << 56 | 0x12_3456),
        (.directory(.threads(id)), 6 << 56 | 0x12_3456),
        (.directory(.thread(id)), 7 << 56 | 0x12_3456),
        (.directory(.archive(id)), 8 << 56 | 0x12_3456),
        (.directory(.outbox(id)), 9 << 56 | 0x12_3456),
        (.directory(.attachments(id)), 10 << 56 | 0x12_3456),
        (.directory(.attachmentMessage(id)), 11 << 56 | 0x12_3456),
        (.content(.attachment(id)), 12 << 56 | 0x12_3456),
        (.content(.message(id)), 13 << 56 | 0x12_3456),
        (.outboxItem(id), 14 << 56 | 0x12_3456),
        (.newMessage(id), 15 << 56 | 0x12_3456),
        (.directory(.searches(id)), 16 << 56 | 0x12_3456),
        (.directory(.savedSearch(id)), 17 << 56 | 0x12_3456),
        (.directory(.search(id)), 18 << 56 | 0x12_3456),
        (.rendered(.conversation(id)), 19 << 56 | 0x12_3456),
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
        #expect(Node(inode: 20 << 56 | 1) == nil)
    }
}
