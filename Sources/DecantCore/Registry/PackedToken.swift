/// An ASCII token of 1 to 16 bytes packed into two words, zero-padded, so that two tokens compare with two integer
/// comparisons instead of a `String` comparison.
///
/// Only tokens without NUL and non-ASCII bytes are packed: for those, equal words mean equal bytes, and equal bytes
/// mean equal strings (`String` equality is canonical equivalence, which for ASCII is byte equality).
struct PackedToken: Sendable, Hashable {
    let low: UInt64
    let high: UInt64

    /// A value no packed token has (0xFF is never a byte of UTF-8 text): what a longer token packs to on the media
    /// type side, where it can equal no packed range token.
    static let unmatchable = PackedToken(low: .max, high: .max)

    private init(low: UInt64, high: UInt64) {
        self.low = low
        self.high = high
    }

    /// Packs `bytes`; `nil` when they are empty, longer than 16 bytes, or hold NUL or a non-ASCII byte.
    init?(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !bytes.isEmpty, bytes.count <= 16 else { return nil }
        var low: UInt64 = 0
        var high: UInt64 = 0
        for index in 0..<bytes.count {
            let byte = bytes[index]
            guard byte != 0, byte < 0x80 else { return nil }
            if index < 8 {
                low |= UInt64(byte) << (8 * UInt64(index))
            } else {
                high |= UInt64(byte) << (8 * UInt64(index - 8))
            }
        }
        self.init(low: low, high: high)
    }

    /// Packs `string` (see ``init(_:)-(UnsafeBufferPointer<UInt8>)``).
    init?(_ string: String) {
        let packed = string.utf8.withContiguousStorageIfAvailable { PackedToken($0) }
        if let packed {
            guard let packed else { return nil }
            self = packed
        } else {
            guard let packed = Array(string.utf8).withUnsafeBufferPointer({ PackedToken($0) }) else { return nil }
            self = packed
        }
    }
}
