/// A set of UIDs (or sequence numbers) as IMAP writes it: `1:5,7,9:*`.
///
/// Kept as sorted, merged, non-overlapping ranges, so a huge VANISHED or COPYUID set
/// costs memory per range, not per UID. `*` is stored as `UInt32.max` ("the largest
/// UID in use"), and rendered back as `*`.
public struct UIDSet: Sendable, Hashable, CustomStringConvertible {
    /// Sorted, non-overlapping, non-adjacent ranges.
    public private(set) var ranges: [ClosedRange<UInt32>]

    public init() {
        ranges = []
    }

    public init(_ ranges: some Sequence<ClosedRange<UInt32>>) {
        self.ranges = Self.normalized(Array(ranges))
    }

    public init(uids: some Sequence<UInt32>) {
        self.init(uids.map { $0...$0 })
    }

    /// Parses `1:5,7,9:*` (ranges may be reversed: `9:5`). Returns nil when malformed.
    public init?(_ text: String) {
        guard let set = UIDSetSyntax.parse(Array(text.utf8)) else { return nil }
        self = set
    }

    public var isEmpty: Bool { ranges.isEmpty }

    /// How many numbers the set holds (`*` counted as `UInt32.max`).
    public var count: UInt64 {
        ranges.reduce(0) { $0 + UInt64($1.upperBound - $1.lowerBound) + 1 }
    }

    public func contains(_ uid: UInt32) -> Bool {
        var low = 0
        var high = ranges.count - 1
        while low <= high {
            let middle = (low + high) / 2
            let range = ranges[middle]
            if range.contains(uid) { return true }
            if uid < range.lowerBound { high = middle - 1 } else { low = middle + 1 }
        }
        return false
    }

    /// Every number in order, or nil when the set holds more than `limit` of them
    /// (a hostile `1:4294967295` must not allocate 16 GiB).
    public func expanded(limit: Int = 1_000_000) -> [UInt32]? {
        guard count <= UInt64(max(limit, 0)) else { return nil }
        return ranges.flatMap { Array($0) }
    }

    public mutating func insert(_ range: ClosedRange<UInt32>) {
        ranges = Self.normalized(ranges + [range])
    }

    /// The IMAP spelling: `1:5,7,9:*`.
    public var description: String {
        ranges.map { range in
            let low = Self.render(range.lowerBound)
            return range.lowerBound == range.upperBound ? low : "\(low):\(Self.render(range.upperBound))"
        }.joined(separator: ",")
    }

    private static func render(_ value: UInt32) -> String {
        value == .max ? "*" : String(value)
    }

    private static func normalized(_ input: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
        var merged: [ClosedRange<UInt32>] = []
        for range in input.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = merged.last, range.lowerBound <= last.upperBound &+ 1 || last.upperBound == .max {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}

/// The sequence-set syntax (RFC 3501 `sequence-set`) over bytes.
enum UIDSetSyntax {
    /// sequence-set = (seq-number / seq-range) ["," sequence-set]
    /// seq-range    = seq-number ":" seq-number
    /// seq-number   = nz-number / "*"
    static func parse(_ bytes: some Collection<UInt8>) -> UIDSet? {
        var ranges: [ClosedRange<UInt32>] = []
        for item in bytes.split(separator: UInt8(ascii: ","), omittingEmptySubsequences: false) {
            let ends = item.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
            guard ends.count == 1 || ends.count == 2,
                  let first = number(ends[ends.startIndex]),
                  let last = number(ends[ends.index(before: ends.endIndex)])
            else { return nil }
            ranges.append(min(first, last)...max(first, last))
        }
        return UIDSet(ranges)
    }

    private static func number(_ bytes: some Collection<UInt8>) -> UInt32? {
        if bytes.count == 1, bytes.first == UInt8(ascii: "*") { return .max }
        guard !bytes.isEmpty, bytes.count <= 10 else { return nil }
        var value: UInt64 = 0
        for byte in bytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(byte - UInt8(ascii: "0"))
        }
        return value <= UInt64(UInt32.max) ? UInt32(value) : nil
    }
}
