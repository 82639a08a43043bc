/// A seeded random number generator (SplitMix64): tests that draw random inputs draw the
/// same ones every run, so a failure reproduces.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D1_049B_1331_11EB
        return value ^ (value >> 31)
    }
}
