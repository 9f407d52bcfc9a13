/// An ASCII token of 1 to 16 bytes packed into two words, zero-padded, so that two tokens compare with two integer
/// comparisons instead of a `String` comparison.
///
/// Only tokens without NUL and non-ASCII bytes are packed: for those, equal words mean equal bytes, and equal bytes
/// mean equal strings (`String` equality is canonical equivalence, which for ASCII is byte equality).
struct PackedToken: Sendable, Hashable {
    let low: UInt64
    let high: UInt64

    /// A value no packed token has (0xFF is never a byte of UTF-8 text): the words of a ``MediaToken`` that is
    /// spelled out.
    static let unpacked = PackedToken(low: .max, high: .max)

    /// Another value no packed token has: the words of ``MediaToken/absent``.
    static let absent = PackedToken(low: .max, high: .max - 1)

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

/// A type, subtype or structured syntax suffix in the form media range matching compares: packed into two words when
/// it is 1 to 16 ASCII bytes without NUL, so that the common comparison is two integer comparisons; spelled out
/// otherwise. Two tokens are equal exactly when their strings are (a packed token never equals a spelled one: a
/// spelled token is empty, longer than 16 bytes, or not ASCII).
struct MediaToken: Sendable, Hashable {
    /// The packed token, or ``PackedToken/unpacked`` when spelled out.
    let packed: PackedToken
    /// The token, only when it does not pack.
    let spelled: String?

    private init(packed: PackedToken, spelled: String?) {
        self.packed = packed
        self.spelled = spelled
    }

    /// The token `string`.
    init(_ string: String) {
        if let packed = PackedToken(string) {
            self.init(packed: packed, spelled: nil)
        } else {
            self.init(packed: .unpacked, spelled: string)
        }
    }

    /// What a media type without a structured syntax suffix has in place of one: equal to no token of a range.
    static let absent = MediaToken(packed: .absent, spelled: nil)

    @inline(__always)
    static func == (lhs: MediaToken, rhs: MediaToken) -> Bool {
        lhs.packed == rhs.packed && lhs.spelled == rhs.spelled
    }
}
