/// The texts a reader made from one body, so that a text that repeats (a map key above all) is made once and its
/// value shared: a direct-mapped table of the last text made for each value of the top bits of the texts' hash.
///
/// The reader hashes the bytes and makes the values; the cache chooses the slot, compares and stores:
///
/// ```swift
/// let slot = cache.slot(forHash: hash)
/// if let shared = cache.shortText(count: count, first: first, second: second, slot: slot) { return shared }
/// let value = makeText()
/// cache.storeShortText(value, count: count, first: first, second: second, slot: slot)
/// ```
///
/// A text of at most 16 bytes is known by its length and
/// its bytes as two words, so a hit reads the body no further; a longer one by its length, its hash and where its
/// bytes are in the body, which the reader compares (`sameBytes`).
///
/// It has one slot per 32 bytes of body, from 128 to 1,024 slots, and none for a body under 4 KB (where it does not
/// pay): its memory is bounded by 1,024 values whatever the body.
@frozen
public struct TextCache<Value> {
    /// One slot: the length of its text (-1: empty), the two words of a short text or the hash and offset of a long
    /// one, and the value made of it.
    @usableFromInline
    struct Slot {
        @usableFromInline var count: Int
        @usableFromInline var first: UInt64
        @usableFromInline var second: UInt64
        @usableFromInline var value: Value

        @inlinable
        init(count: Int, first: UInt64, second: UInt64, value: Value) {
            self.count = count
            self.first = first
            self.second = second
            self.value = value
        }
    }

    @usableFromInline var slots: [Slot]
    /// 64 minus the number of hash bits that choose a slot (64: no slots).
    @usableFromInline let shift: UInt64

    /// Creates the cache for a body of `bodyBytes` bytes; empty when `enabled` is `false` or the body is under
    /// 4 KB. Empty slots hold `placeholder`.
    @inlinable
    public init(bodyBytes: Int, enabled: Bool = true, placeholder: Value) {
        var bits: UInt64 = 0
        if bodyBytes >= 4096 && enabled {
            bits = 7
            while bits < 10 && bodyBytes >> (bits + 5) > 1 { bits += 1 }
        }
        shift = 64 - bits
        slots = Array(
            repeating: Slot(count: -1, first: 0, second: 0, value: placeholder), count: bits == 0 ? 0 : 1 << bits)
    }

    /// Whether the cache has slots; when it has none, the reader makes every text itself.
    @inlinable
    public var isEnabled: Bool { shift < 64 }

    /// The slot of the texts whose hash is `hash`. The cache must be enabled.
    @inlinable @inline(__always)
    public func slot(forHash hash: UInt64) -> Int { Int(truncatingIfNeeded: hash >> shift) }

    /// The value cached in `slot` for a text of `count` bytes (at most 16) whose bytes are the words `first` and
    /// `second` (as `ByteRun.shortWords` gives them), or `nil`.
    @inlinable @inline(__always)
    public func shortText(count: Int, first: UInt64, second: UInt64, slot: Int) -> Value? {
        slots[slot].count == count && slots[slot].first == first && slots[slot].second == second
            ? slots[slot].value : nil
    }

    /// The value cached in `slot` for a text of `count` bytes whose hash is `hash`, when `sameBytes(offset)` says
    /// that the cached text's bytes, at `offset` in the body, are the text's; or `nil`.
    @inlinable @inline(__always)
    public func longText(count: Int, hash: UInt64, slot: Int, sameBytes: (Int) -> Bool) -> Value? {
        slots[slot].count == count && slots[slot].first == hash
            && sameBytes(Int(truncatingIfNeeded: slots[slot].second)) ? slots[slot].value : nil
    }

    /// Caches `value` in `slot` for a text of `count` bytes (at most 16) whose bytes are the words `first` and
    /// `second`.
    @inlinable @inline(__always)
    public mutating func storeShortText(_ value: Value, count: Int, first: UInt64, second: UInt64, slot: Int) {
        slots[slot] = Slot(count: count, first: first, second: second, value: value)
    }

    /// Caches `value` in `slot` for a text of `count` bytes at offset `start` of the body whose hash is `hash`.
    @inlinable @inline(__always)
    public mutating func storeLongText(_ value: Value, count: Int, hash: UInt64, start: Int, slot: Int) {
        slots[slot] = Slot(count: count, first: hash, second: UInt64(start), value: value)
    }
}
