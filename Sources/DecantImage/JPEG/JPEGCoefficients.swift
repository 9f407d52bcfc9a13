/// The quantized DCT coefficients of one component, 64 per block, in memory the decoder owns: scans write them
/// through ``pointer`` without the uniqueness and bounds checks of an array (every offset written is a block's, which
/// the frame's geometry bounds, plus a coefficient index 0...63).
final class JPEGCoefficients {
    /// The first coefficient.
    let pointer: UnsafeMutablePointer<Int16>
    /// How many coefficients there are.
    let count: Int

    /// Allocates `count` coefficients, all zero.
    init(count: Int) {
        self.count = count
        pointer = .allocate(capacity: max(count, 1))
        pointer.initialize(repeating: 0, count: max(count, 1))
    }

    deinit {
        pointer.deallocate()
    }
}
