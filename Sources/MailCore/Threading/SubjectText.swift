/// A subject being reduced to its base subject: the scalars and the bounds still kept.
/// Every step only moves the bounds inward, so normalizing is linear in the subject's
/// length and always terminates, whatever the input.
struct SubjectText {
    private var scalars: [Unicode.Scalar]
    private var start: Int
    private var end: Int

    private static let forwardTrailer = Array("(fwd)".unicodeScalars)
    private static let forwardOpener = Array("[fwd:".unicodeScalars)

    /// Subjects are cut to this many scalars before normalizing. Real subjects are far
    /// shorter (RFC 5322 lines end at 998 characters; names keep 255 bytes); the cap keeps
    /// crafted nestings like `[fwd: [fwd: …` from costing quadratic time.
    static let maxScalars = 2048

    /// NFC form with every whitespace or control run turned into one space, trimmed.
    init(collapsing subject: String) {
        let head = subject.unicodeScalars.count > Self.maxScalars
            ? String(String.UnicodeScalarView(subject.unicodeScalars.prefix(Self.maxScalars)))
            : subject
        let isASCII = head.utf8.allSatisfy { $0 < 0x80 }
        let source = isASCII ? head : head.precomposedStringWithCanonicalMapping
        var collapsed: [Unicode.Scalar] = []
        collapsed.reserveCapacity(source.utf8.count)
        var pendingSpace = false
        for scalar in source.unicodeScalars {
            if Self.isSpaceOrControl(scalar) {
                pendingSpace = !collapsed.isEmpty
                continue
            }
            if pendingSpace { collapsed.append(" ") }
            pendingSpace = false
            collapsed.append(scalar)
        }
        scalars = collapsed
        start = 0
        end = collapsed.count
    }

    private static func isSpaceOrControl(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value <= 0x20 || scalar.value == 0x7F }
        return scalar.properties.isWhitespace || scalar.properties.generalCategory == .control
    }

    var string: String {
        var view = String.UnicodeScalarView()
        view.append(contentsOf: scalars[start..<end])
        return String(view)
    }

    /// RFC 5256 step 2: trailing `(fwd)` and spaces.
    mutating func dropTrailingForwardMarkers() -> Bool {
        let marker = Self.forwardTrailer
        let before = end
        while end > start {
            if scalars[end - 1] == " " {
                end -= 1
            } else if end - start >= marker.count, matches(marker, at: end - marker.count) {
                end -= marker.count
            } else {
                break
            }
        }
        return end != before
    }

    /// RFC 5256 steps 3–5: reply/forward prefixes and removable leading `[tag]`s.
    mutating func dropLeaders() -> Bool {
        let before = start
        while true {
            skipSpaces()
            if let afterPrefix = replyPrefixEnd(at: start) {
                start = afterPrefix
            } else if let afterBlob = blobEnd(at: start), hasContent(from: afterBlob) {
                start = afterBlob
            } else {
                break
            }
        }
        return start != before
    }

    /// RFC 5256 step 6: `[fwd: subject]` becomes `subject`.
    mutating func unwrapForwardBrackets() -> Bool {
        let opener = Self.forwardOpener
        guard end - start > opener.count, matches(opener, at: start), scalars[end - 1] == "]" else {
            return false
        }
        start += opener.count
        end -= 1
        skipSpaces()
        return true
    }

    // MARK: - Matching

    private mutating func skipSpaces() {
        while start < end, scalars[start] == " " { start += 1 }
    }

    private func hasContent(from index: Int) -> Bool {
        scalars[index..<end].contains { $0 != " " }
    }

    /// The index after a reply/forward prefix starting at `index`, or nil.
    private func replyPrefixEnd(at index: Int) -> Int? {
        guard index < end, let candidates = ReplyPrefixes.byFirstScalar[Self.folded(scalars[index])] else {
            return nil
        }
        for word in candidates where matches(word.scalars, at: index) {
            if let after = prefixTerminatorEnd(at: index + word.scalars.count, allowsDot: word.allowsDot) {
                return after
            }
        }
        return nil
    }

    /// After the prefix word: `[n]` or `(n)`, spaces, an optional `[tag]`, then the colon.
    private func prefixTerminatorEnd(at index: Int, allowsDot: Bool) -> Int? {
        var position = counterEnd(at: index) ?? index
        if allowsDot, position < end, scalars[position] == "." {
            position += 1
            while position < end, scalars[position] == " " { position += 1 }
            return position < end && isColon(scalars[position]) ? position + 1 : position
        }
        while position < end, scalars[position] == " " { position += 1 }
        position = blobEnd(at: position) ?? position
        guard position < end, isColon(scalars[position]) else { return nil }
        return position + 1
    }

    /// `(2)` after a prefix word (the `[2]` form is a blob and handled as one).
    private func counterEnd(at index: Int) -> Int? {
        guard index < end, scalars[index] == "(" else { return nil }
        var position = index + 1
        while position < end, ("0"..."9").contains(scalars[position]) { position += 1 }
        guard position > index + 1, position < end, scalars[position] == ")" else { return nil }
        return position + 1
    }

    /// RFC 5256 subj-blob: `[` chars other than brackets `]` followed by spaces.
    private func blobEnd(at index: Int) -> Int? {
        guard index < end, scalars[index] == "[" else { return nil }
        var position = index + 1
        while position < end, scalars[position] != "]" {
            if scalars[position] == "[" { return nil }
            position += 1
        }
        guard position < end else { return nil }
        position += 1
        while position < end, scalars[position] == " " { position += 1 }
        return position
    }

    private func isColon(_ scalar: Unicode.Scalar) -> Bool {
        scalar == ":" || scalar == "\u{FF1A}"
    }

    /// Case-insensitive match of a lower-case pattern at `index`.
    private func matches(_ pattern: [Unicode.Scalar], at index: Int) -> Bool {
        guard index >= start, index + pattern.count <= end else { return false }
        for (offset, expected) in pattern.enumerated() where Self.folded(scalars[index + offset]) != expected {
            return false
        }
        return true
    }

    static func folded(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
        if scalar.isASCII {
            return ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
        }
        return scalar.properties.lowercaseMapping.unicodeScalars.first ?? scalar
    }
}
