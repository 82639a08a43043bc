extension ThreadingInput {
    /// At most this many References ids of one message take part in threading: the first
    /// (the thread's root) and the last `maxReferences - 1` (the nearest ancestors), as
    /// RFC 5322 §3.6.4 suggests when a References list is trimmed. A hostile header with
    /// 10,000 ids then costs no more than a long legitimate one.
    public static let maxReferences = 256
    /// At most this many In-Reply-To ids are used (a real header holds one).
    public static let maxInReplyTo = 16

    /// The cleaned, capped parent ids: In-Reply-To first, then References.
    static func parentIDs(inReplyTo: [String], references: [String]) -> [String] {
        let replyTo = inReplyTo.lazy.compactMap(Self.cleanID).prefix(Self.maxInReplyTo)
        let references = references.compactMap(Self.cleanID)
        let kept: [String]
        if references.count > Self.maxReferences {
            kept = [references[0]] + references.suffix(Self.maxReferences - 1)
        } else {
            kept = references
        }
        return Array(replyTo) + kept
    }

    /// A Message-ID as a graph node: surrounding whitespace and angle brackets removed,
    /// compared exactly (notmuch and RFC 5256 compare ids byte for byte too).
    static func cleanID(_ raw: String) -> String? {
        if isPlainID(raw.utf8) { return raw }
        var id = trimmed(Substring(raw))
        if id.hasPrefix("<") { id = id.dropFirst() }
        if id.hasSuffix(">") { id = id.dropLast() }
        id = trimmed(id)
        return id.isEmpty ? nil : String(id)
    }

    /// Fast path: an id that starts and ends with a visible ASCII byte other than `<`/`>`
    /// needs no cleaning.
    private static func isPlainID(_ bytes: String.UTF8View) -> Bool {
        guard let first = bytes.first, let last = bytes.last else { return false }
        let plain: (UInt8) -> Bool = { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "<") && $0 != UInt8(ascii: ">") }
        return plain(first) && plain(last)
    }

    private static func trimmed(_ text: Substring) -> Substring {
        guard let first = text.firstIndex(where: { !$0.isWhitespace }),
              let last = text.lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return text[first...last]
    }
}
