/// The "did you mean …?" for a misspelt key.
enum KeySuggestion {
    /// The allowed key within two single-character edits of `name`, if exactly one is closest.
    static func closest(to name: String, among allowed: [String]) -> String? {
        let name = Array(name.utf8)
        let scored = allowed.map { Array($0.utf8) }
            .filter { abs($0.count - name.count) <= 2 }  // farther anyway; keeps a huge key cheap
            .map { (String(decoding: $0, as: UTF8.self), distance(name, $0)) }
            .filter { $0.1 <= 2 }
        guard let best = scored.map(\.1).min() else { return nil }
        let candidates = scored.filter { $0.1 == best }
        return candidates.count == 1 ? candidates.first?.0 : nil
    }

    /// Levenshtein distance (insertions, deletions, substitutions), in O(|a|·|b|) with one row.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        guard !a.isEmpty else { return b.count }
        var row = Array(0...b.count)
        for (i, byteA) in a.enumerated() {
            var diagonal = row[0]
            row[0] = i + 1
            for (j, byteB) in b.enumerated() {
                let substitution = diagonal + (byteA == byteB ? 0 : 1)
                diagonal = row[j + 1]
                row[j + 1] = min(substitution, row[j] + 1, diagonal + 1)
            }
        }
        return row[b.count]
    }
}
