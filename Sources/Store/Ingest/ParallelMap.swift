import Dispatch

extension Array where Element: Sendable {
    /// `map` spread over the machine's cores: parsing a batch of messages is CPU-bound and
    /// independent per message. Order is preserved.
    func parallelMap<T: Sendable>(_ transform: @Sendable (Element) -> T) -> [T] {
        guard count > 1 else { return map(transform) }
        let results = UnsafeMutableBufferPointer<T?>.allocate(capacity: count)
        results.initialize(repeating: nil)
        defer {
            // deallocate() alone frees the slots without releasing what they hold: every
            // parsed message (raw bytes, bodies) would leak, and an import's memory would
            // grow with the mailbox.
            results.deinitialize()
            results.deallocate()
        }
        // Each iteration writes only its own slot, so the writes never overlap.
        nonisolated(unsafe) let slots = results
        self.withUnsafeBufferPointer { input in
            nonisolated(unsafe) let source = input
            DispatchQueue.concurrentPerform(iterations: count) { index in
                slots[index] = transform(source[index])
            }
        }
        return results.map { $0! }
    }
}
