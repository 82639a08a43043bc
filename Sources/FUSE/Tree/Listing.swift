import Synchronization

/// A directory's entries in listing order, with a name index for LOOKUP.
struct Listing: Sendable {
    let entries: [DirectoryEntry]
    private let names: NameIndex

    /// Entries whose names might repeat: each name's first only is kept, which takes
    /// the index at once.
    init(_ entries: [DirectoryEntry]) {
        let (unique, index) = Self.indexed(entries)
        self.entries = unique
        names = NameIndex(index)
    }

    /// Entries whose names are unique by construction: the index is built at the first
    /// LOOKUP that needs it, which neither `ls` nor a walk makes (the kernel has every
    /// name from READDIRPLUS). Hashing every name of a 10,000-message folder was a fifth
    /// of its first listing from a kept file.
    private init(uniqueNames entries: [DirectoryEntry]) {
        self.entries = entries
        names = NameIndex(nil)
    }

    /// A folder's listing: its subfolders, then its messages, which are unique within
    /// their account (the store's schema). A message named like a subfolder is left out,
    /// as the first of two equal names always is.
    static func folder(subfolders: [DirectoryEntry], messages: [DirectoryEntry]) -> Listing {
        guard !subfolders.isEmpty else { return Listing(uniqueNames: messages) }
        let taken = Set(subfolders.map { EntryName($0.name) })
        return Listing(subfolders + messages.filter { !taken.contains(EntryName($0.name)) })
    }

    /// The entries, each name's first only, and the index of their names: one hash per name,
    /// and no copy of the entries when their names are unique.
    private static func indexed(_ entries: [DirectoryEntry]) -> ([DirectoryEntry], [EntryName: Int]) {
        let (index, unique) = firstPositions(entries)
        guard unique else {
            return indexed(entries.enumerated().filter { index[EntryName($0.element.name)] == $0.offset }.map(\.element))
        }
        return (entries, index)
    }

    /// Each name's first position in `entries`, and whether no name came twice.
    private static func firstPositions(_ entries: [DirectoryEntry]) -> (index: [EntryName: Int], unique: Bool) {
        var index: [EntryName: Int] = [:]
        index.reserveCapacity(entries.count)
        var unique = true
        for (position, entry) in entries.enumerated() {
            let name = EntryName(entry.name)
            if let first = index.updateValue(position, forKey: name) {
                index[name] = first
                unique = false
            }
        }
        return (index, unique)
    }

    func entry(named name: String) -> DirectoryEntry? {
        names.position(of: EntryName(name), building: { Self.firstPositions(entries).index }).map { entries[$0] }
    }

    /// How `fresh` differs from this listing, an older one of the same directory: the names
    /// it lacks (all of them when it is nil), and the inodes of the entries both hold whose
    /// attributes changed.
    func changes(to fresh: Listing?) -> (vanished: [String], changed: [Inode]) {
        // Most listings a store change rebuilds come back as they were, in the same order:
        // compared side by side, no name index need be built for them.
        if let fresh, fresh.entries == entries { return ([], []) }
        var vanished: [String] = []
        var changed: [Inode] = []
        for entry in entries {
            guard let now = fresh?.entry(named: entry.name) else {
                vanished.append(entry.name)
                continue
            }
            if now.attributes != entry.attributes { changed.append(now.attributes.inode) }
        }
        return (vanished, changed)
    }

    var subdirectoryCount: Int { entries.filter { $0.attributes.kind == .directory }.count }
}

/// A listing's name index, built by the first lookup when the listing began without one;
/// shared by every copy of the listing.
private final class NameIndex: Sendable {
    private let index: Mutex<[EntryName: Int]?>

    init(_ index: [EntryName: Int]?) {
        self.index = Mutex(index)
    }

    func position(of name: EntryName, building build: () -> [EntryName: Int]) -> Int? {
        index.withLock { index in
            if index == nil { index = build() }
            return index?[name]
        }
    }
}

/// A name as the kernel compares it: by its bytes. `String`'s own equality and hash work on
/// Unicode canonical equivalence, which checks and hashes a name's normal form: a quarter of
/// a daemon's first listing of a 10,000-message folder, and it would also match a LOOKUP of
/// a name spelled with other bytes, which the file system does not hold.
private struct EntryName: Hashable {
    let name: String

    init(_ name: String) {
        self.name = name
    }

    static func == (lhs: EntryName, rhs: EntryName) -> Bool {
        var left = lhs.name, right = rhs.name
        return left.withUTF8 { left in right.withUTF8 { right in left.count == right.count && left.elementsEqual(right) } }
    }

    func hash(into hasher: inout Hasher) {
        var name = name
        name.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
