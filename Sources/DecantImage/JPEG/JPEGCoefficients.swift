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

/// The sample planes of a sequential frame's components, in one block of memory the decoder owns: each scan writes
/// its rows of samples as soon as a row of MCUs is decoded, so that only one row of coefficients is ever kept.
/// Samples start at 128 (what blocks without coefficients decode to), so a part that no scan reaches is grey.
final class JPEGSamples {
    /// The first sample.
    let pointer: UnsafeMutablePointer<UInt8>
    /// How many samples there are.
    let count: Int

    /// Allocates `count` samples, all 128.
    init(count: Int) {
        self.count = count
        pointer = .allocate(capacity: max(count, 1))
        pointer.initialize(repeating: 128, count: max(count, 1))
    }

    deinit {
        pointer.deallocate()
    }
}
