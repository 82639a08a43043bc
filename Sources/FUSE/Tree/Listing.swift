/// A directory's entries in listing order, with a name index for LOOKUP.
struct Listing: Sendable {
    let entries: [DirectoryEntry]
    private let indexByName: [EntryName: Int]

    init(_ entries: [DirectoryEntry]) {
        (self.entries, indexByName) = Self.indexed(entries)
    }

    /// The entries, each name's first only, and the index of their names: one hash per name,
    /// and no copy of the entries when their names are unique, as they are by construction
    /// (a duplicate would be a bug, never two entries).
    private static func indexed(_ entries: [DirectoryEntry]) -> ([DirectoryEntry], [EntryName: Int]) {
        var index: [EntryName: Int] = [:]
        index.reserveCapacity(entries.count)
        var namesUnique = true
        for (position, entry) in entries.enumerated() {
            let name = EntryName(entry.name)
            if let first = index.updateValue(position, forKey: name) {
                index[name] = first
                namesUnique = false
            }
        }
        guard namesUnique else {
            return indexed(entries.enumerated().filter { index[EntryName($0.element.name)] == $0.offset }.map(\.element))
        }
        return (entries, index)
    }

    func entry(named name: String) -> DirectoryEntry? {
        indexByName[EntryName(name)].map { entries[$0] }
    }

    /// The names of this listing that `other` lacks (all of them when it is nil).
    func names(missingFrom other: Listing?) -> [String] {
        entries.map(\.name).filter { other?.entry(named: $0) == nil }
    }

    var subdirectoryCount: Int { entries.filter { $0.attributes.kind == .directory }.count }
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
