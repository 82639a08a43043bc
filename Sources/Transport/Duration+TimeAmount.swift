import NIOCore

extension Duration {
    /// The same span as a NIO `TimeAmount`: negative spans are zero, spans beyond what
    /// nanoseconds in an Int64 hold (about 292 years) are clamped, never an overflow trap.
    public var timeAmount: TimeAmount {
        let (seconds, attoseconds) = components
        guard seconds >= 0 else { return .zero }
        guard seconds < Int64.max / 1_000_000_000 - 1 else { return .nanoseconds(.max) }
        return .nanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
