/// A directory's entries in listing order, with a name index for LOOKUP.
struct Listing: Sendable {
    let entries: [DirectoryEntry]
    private let indexByName: [String: Int]

    init(_ entries: [DirectoryEntry]) {
        var index: [String: Int] = [:]
        index.reserveCapacity(entries.count)
        var unique: [DirectoryEntry] = []
        unique.reserveCapacity(entries.count)
        // Names are unique by construction; a duplicate would be a bug, never two entries.
        for entry in entries where index[entry.name] == nil {
            index[entry.name] = unique.count
            unique.append(entry)
        }
        self.entries = unique
        indexByName = index
    }

    func entry(named name: String) -> DirectoryEntry? {
        indexByName[name].map { entries[$0] }
    }

    var names: Set<String> { Set(indexByName.keys) }

    var subdirectoryCount: Int { entries.filter { $0.attributes.kind == .directory }.count }
}
