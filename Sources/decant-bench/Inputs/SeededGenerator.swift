/// SplitMix64: a small deterministic generator, so that generated inputs are identical in every run.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    /// A generator starting from `seed`.
    init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var mixed = state
        mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
        mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
        return mixed ^ (mixed >> 31)
    }

    /// A uniformly chosen element of `elements`, which must not be empty.
    mutating func pick<Element>(_ elements: [Element]) -> Element {
        elements[Int(next() % UInt64(elements.count))]
    }

    /// A uniformly chosen integer in `range`.
    mutating func int(in range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(next() % UInt64(range.count))
    }
}
