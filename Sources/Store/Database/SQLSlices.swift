extension Array where Element == Int64 {
    /// The ids in slices small enough for one `IN (?, …)` list (SQLite caps the number of
    /// bound parameters of a statement).
    var inSQLSlices: [ArraySlice<Int64>] {
        stride(from: 0, to: count, by: 500).map { self[$0..<Swift.min($0 + 500, count)] }
    }
}
