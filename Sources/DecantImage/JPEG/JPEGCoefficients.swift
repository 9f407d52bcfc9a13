/// Memory a JPEG decoder owns, read and written through ``pointer`` without the uniqueness and bounds checks of an
/// array: the quantized DCT coefficients of a component (64 per block; every offset written is a block's, which the
/// frame's geometry bounds, plus a coefficient index 0...63), and the sample planes of a sequential frame, which its
/// scans write a row of MCUs at a time so that only one row of coefficients is ever kept.
final class JPEGBuffer<Element> {
    /// The first element.
    let pointer: UnsafeMutablePointer<Element>
    /// How many elements there are.
    let count: Int

    /// Allocates `count` elements, all `value`.
    init(count: Int, repeating value: Element) {
        self.count = count
        pointer = .allocate(capacity: max(count, 1))
        pointer.initialize(repeating: value, count: max(count, 1))
    }

    deinit {
        pointer.deinitialize(count: max(count, 1))
        pointer.deallocate()
    }
}

/// The coefficients of one component, all zero at first.
typealias JPEGCoefficients = JPEGBuffer<Int16>

/// The sample planes of a sequential frame, 128 at first (what a block without coefficients decodes to), so a part
/// that no scan reaches is grey.
typealias JPEGSamples = JPEGBuffer<UInt8>
