import FUSE
import Foundation
import Synchronization

/// A small FilesystemOperations for the binding's tests:
///
///     /            hello.txt (xattr user.mailfs.from), broken.txt (read fails with errno 0)
///     docs/        numbers.txt (10 000 bytes)
///     big/         500 files with long names (several READDIR pages)
///     outbox/      writable: create, write, rename, unlink, truncate, touch, setxattr;
///                  a file named refused.txt fails on close()
/// and the files and directories a test adds: `addFile`, `addDirectory`, `addGatedFile`
/// (its open waits for the test).
final class InMemoryFilesystem: FilesystemOperations {
    struct Node {
        var attributes: FileAttributes
        var content: [UInt8] = []
        var children: [String: Inode] = [:]
        var xattrs: [String: [UInt8]] = [:]
        var writable = false
    }

    static let root: Inode = 1
    static let hello: Inode = 2
    static let docs: Inode = 3
    static let numbers: Inode = 4
    static let big: Inode = 5
    static let outbox: Inode = 6
    static let broken: Inode = 7
    static let fixedDate = Date(timeIntervalSince1970: 1_709_294_400)  // 2024-03-01 12:00 UTC
    static let helloText = "Hello, FUSE!\n"
    static let numbersText = String(repeating: "0123456789", count: 1000)
    static let bigNames = (0..<500).map { String(format: "message %03d with a long name to fill pages.eml", $0) }

    private let state = Mutex(State())
    private let gates = Mutex<[Inode: OpenGate]>([:])
    /// LOOKUPs served: READDIRPLUS should make `ls -l` need almost none.
    let lookupCount = Atomic<Int>(0)

    struct State {
        var nodes: [Inode: Node] = [:]
        var nextInode: Inode = 100
    }

    init() {
        state.withLock { state in
            state.nodes[Self.root] = Self.directory(Self.root)
            Self.add(&state, parent: Self.root, name: "hello.txt", inode: Self.hello, text: Self.helloText)
            state.nodes[Self.hello]?.xattrs["user.mailfs.from"] = Array("alice@example.com".utf8)
            Self.add(&state, parent: Self.root, name: "broken.txt", inode: Self.broken, text: "x")
            Self.add(&state, parent: Self.root, name: "docs", inode: Self.docs, node: Self.directory(Self.docs))
            Self.add(&state, parent: Self.docs, name: "numbers.txt", inode: Self.numbers, text: Self.numbersText)
            Self.add(&state, parent: Self.root, name: "big", inode: Self.big, node: Self.directory(Self.big))
            for (index, name) in Self.bigNames.enumerated() {
                Self.add(&state, parent: Self.big, name: name, inode: 1000 + Inode(index), text: name)
            }
            var outbox = Self.directory(Self.outbox)
            outbox.writable = true
            Self.add(&state, parent: Self.root, name: "outbox", inode: Self.outbox, node: outbox)
        }
    }

    /// A file in the root whose open waits until the test opens the gate, as a download does.
    func addGatedFile(name: String, text: String) -> OpenGate {
        let gate = OpenGate()
        let inode = addFile(parent: Self.root, name: name, text: text)
        gates.withLock { $0[inode] = gate }
        return gate
    }

    /// What the store does when new mail arrives while mounted: no kernel notification.
    @discardableResult
    func addFile(parent: Inode, name: String, text: String) -> Inode {
        addWithNewInode { state, inode in Self.add(&state, parent: parent, name: name, inode: inode, text: text) }
    }

    func addDirectory(parent: Inode, name: String) -> Inode {
        addWithNewInode { state, inode in
            Self.add(&state, parent: parent, name: name, inode: inode, node: Self.directory(inode))
        }
    }

    /// Runs `add` with the next free inode number, under the lock; returns that number.
    private func addWithNewInode(_ add: (inout State, Inode) -> Void) -> Inode {
        state.withLock { state in
            let inode = state.nextInode
            state.nextInode += 1
            add(&state, inode)
            return inode
        }
    }

    func names(in directory: Inode) -> [String] {
        state.withLock { ($0.nodes[directory]?.children.keys).map { $0.sorted() } ?? [] }
    }

    private static func directory(_ inode: Inode) -> Node {
        Node(attributes: FileAttributes(inode: inode, kind: .directory, permissions: 0o700,
                                        linkCount: 2, size: 0, modified: fixedDate))
    }

    private static func add(_ state: inout State, parent: Inode, name: String, inode: Inode, text: String) {
        let bytes = Array(text.utf8)
        var node = Node(attributes: FileAttributes(inode: inode, kind: .regular, permissions: 0o600,
                                                   linkCount: 1, size: UInt64(bytes.count), modified: fixedDate))
        node.content = bytes
        add(&state, parent: parent, name: name, inode: inode, node: node)
    }

    private static func add(_ state: inout State, parent: Inode, name: String, inode: Inode, node: Node) {
        state.nodes[inode] = node
        state.nodes[parent]?.children[name] = inode
    }

    // MARK: Reading

    func lookup(parent: Inode, name: String) throws(FSError) -> FileAttributes {
        lookupCount.add(1, ordering: .relaxed)
        return try state.withLock { state throws(FSError) in
            guard let inode = state.nodes[parent]?.children[name], let node = state.nodes[inode] else {
                throw FSError(ENOENT)
            }
            return node.attributes
        }
    }

    func getattr(_ inode: Inode) throws(FSError) -> FileAttributes {
        try node(inode).attributes
    }

    func readdir(_ inode: Inode) throws(FSError) -> [DirectoryEntry] {
        try state.withLock { state throws(FSError) in
            guard let directory = state.nodes[inode] else { throw FSError(ENOENT) }
            return directory.children.sorted { $0.key < $1.key }.compactMap { name, child in
                state.nodes[child].map { DirectoryEntry(name: name, attributes: $0.attributes) }
            }
        }
    }

    func open(_ inode: Inode, flags: Int32) throws(FSError) -> OpenedFile {
        _ = try node(inode)
        gates.withLock { $0[inode] }?.pass()
        guard flags & O_ACCMODE == O_RDONLY || isWritable(inode) else { throw FSError(EROFS) }
        return OpenedFile(handle: inode + 10_000, keepCache: !isWritable(inode), directIO: false)
    }

    func read(_ inode: Inode, handle: UInt64, offset: UInt64, size: Int) throws(FSError) -> [UInt8] {
        guard inode != Self.broken else { throw FSError(0) }
        let content = try node(inode).content
        guard offset < UInt64(content.count) else { return [] }
        let start = Int(offset)
        return Array(content[start..<min(content.count, start + size)])
    }

    func release(_ inode: Inode, handle: UInt64) {}

    func getxattr(_ inode: Inode, name: String) throws(FSError) -> [UInt8] {
        guard let value = try node(inode).xattrs[name] else { throw FSError(ENODATA) }
        return value
    }

    func listxattr(_ inode: Inode) throws(FSError) -> [String] {
        try node(inode).xattrs.keys.sorted()
    }

    private func node(_ inode: Inode) throws(FSError) -> Node {
        guard let node = state.withLock({ $0.nodes[inode] }) else { throw FSError(ENOENT) }
        return node
    }

    /// A file is writable when its directory is (only outbox/ is).
    func isWritable(_ inode: Inode) -> Bool {
        state.withLock { state in
            state.nodes.values.contains { $0.writable && $0.children.values.contains(inode) }
        }
    }

    func update(_ inode: Inode, _ change: (inout Node) throws(FSError) -> Void) throws(FSError) -> Node {
        guard isWritable(inode) else { throw FSError(EROFS) }
        return try state.withLock { state throws(FSError) in
            guard var node = state.nodes[inode] else { throw FSError(ENOENT) }
            try change(&node)
            node.attributes.size = UInt64(node.content.count)
            state.nodes[inode] = node
            return node
        }
    }

    func withWritableDirectory<T>(_ parent: Inode,
                                  _ body: (inout State) throws(FSError) -> T) throws(FSError) -> T {
        try state.withLock { state throws(FSError) in
            guard state.nodes[parent]?.writable == true else { throw FSError(EROFS) }
            return try body(&state)
        }
    }
}

/// Holds the opens of a file until `open()`: `entered` is signalled by each open that waits.
final class OpenGate: Sendable {
    let entered = DispatchSemaphore(value: 0)
    private let opened = DispatchSemaphore(value: 0)

    func pass() {
        entered.signal()
        opened.wait()
        opened.signal()  // the next open passes too
    }

    func open() {
        opened.signal()
    }
}
