extension BodyStructure {
    /// A leaf of the structure with the section number that fetches it (`BODY[1.2]`).
    public struct Leaf: Sendable, Equatable {
        public var section: String
        public var part: SinglePart
    }

    /// Every leaf part in document order with its IMAP section number (RFC 3501 §6.4.5):
    /// the parts of a multipart are numbered from 1, a non-multipart message has the
    /// single part `1`, and the parts of an embedded message continue its number
    /// (`2.1`, `2.2`). An embedded message is listed itself and then its own parts.
    public var leaves: [Leaf] {
        var result: [Leaf] = []
        collectLeaves(prefix: "", into: &result)
        return result
    }

    /// The part at `section` (`"1.2"`), or nil when there is none.
    public func part(at section: String) -> SinglePart? {
        leaves.first { $0.section == section }?.part
    }

    private func collectLeaves(prefix: String, into result: inout [Leaf]) {
        switch self {
        case .single(let part):
            let section = prefix.isEmpty ? "1" : prefix
            result.append(Leaf(section: section, part: part))
            if let message = part.message {
                message.body.collectNested(prefix: section, into: &result)
            }
        case .multipart(let multipart):
            for (index, child) in multipart.parts.enumerated() {
                let number = String(index + 1)
                child.collectLeaves(prefix: prefix.isEmpty ? number : "\(prefix).\(number)", into: &result)
            }
        }
    }

    /// The body of an embedded message: a single part is `prefix.1`, a multipart's
    /// children are `prefix.n`.
    private func collectNested(prefix: String, into result: inout [Leaf]) {
        switch self {
        case .single:
            collectLeaves(prefix: "\(prefix).1", into: &result)
        case .multipart:
            collectLeaves(prefix: prefix, into: &result)
        }
    }
}
