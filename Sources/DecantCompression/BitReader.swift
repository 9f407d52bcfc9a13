/// An LSB-first bit reader over a byte buffer with a 64-bit bit buffer (RFC 1951 §3.1.1).
struct BitReader {
    let base: UnsafeRawPointer
    let count: Int
    var position: Int
    var buffer: UInt64 = 0
    var bitCount = 0
    /// Zero bytes appended past the end of the input, so that the buffer can always be filled.
    var overrun = 0

    init(base: UnsafeRawPointer, count: Int, position: Int) {
        self.base = base
        self.count = count
        self.position = position
    }

    /// Fills the buffer to at least 56 bits.
    @inline(__always)
    mutating func refill() throws(InflateError) {
        if position &+ 8 <= count {
            let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            buffer |= word &<< UInt64(bitCount)
            position &+= (63 &- bitCount) &>> 3
            bitCount |= 56
        } else {
            try slowRefill()
        }
    }

    @inline(never)
    mutating func slowRefill() throws(InflateError) {
        guard bitCount >= overrun * 8 else { throw Inflate.truncated(at: count, "its final block") }
        while bitCount <= 56 {
            if position < count {
                buffer |= UInt64(base.load(fromByteOffset: position, as: UInt8.self)) << UInt64(bitCount)
                position += 1
            } else {
                overrun += 1
            }
            bitCount += 8
        }
    }

    @inline(__always)
    mutating func drop(_ bits: Int) {
        buffer &>>= UInt64(truncatingIfNeeded: bits)
        bitCount &-= bits
    }

    @inline(__always)
    mutating func take(_ bits: Int) -> UInt64 {
        let value = buffer & ((1 &<< UInt64(truncatingIfNeeded: bits)) &- 1)
        drop(bits)
        return value
    }

    /// The offset of the first whole byte not yet consumed; throws when padding past the end was consumed.
    func alignedPosition() throws(InflateError) -> Int {
        guard bitCount >= overrun * 8 else { throw Inflate.truncated(at: count, "its final block") }
        return position - ((bitCount >> 3) - overrun)
    }

    /// The offset of the byte that holds the first bit not yet taken (the bytes read ahead into the buffer not
    /// counted), at most ``count``.
    var consumedOffset: Int {
        min(count, max(0, (8 &* (position &+ overrun) &- bitCount) &>> 3))
    }

    mutating func reset(to newPosition: Int) {
        position = newPosition
        buffer = 0
        bitCount = 0
        overrun = 0
    }
}
