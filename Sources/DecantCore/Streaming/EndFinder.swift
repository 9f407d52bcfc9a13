public import DecantBytes

/// Finds the line ends of a chunk in order: the ends in 64 bytes are found at once, as one bit each in a mask, and
/// each next end is the lowest bit left. Finding a line's end then does not wait for the end of the line before it
/// (short lines cost a few instructions each), and every byte is looked at once.
@usableFromInline
struct EndFinder {
    @usableFromInline let bytes: UnsafeRawBufferPointer
    @usableFromInline let delimiter: UInt8
    @usableFromInline let carriageReturn: Bool
    /// The offset of the 64 bytes `mask` covers.
    @usableFromInline var blockStart = -64
    /// Bit `i` is set when the byte at `blockStart + i` ends a line.
    @usableFromInline var mask: UInt64 = 0

    @inlinable
    init(bytes: UnsafeRawBufferPointer, delimiter: UInt8, carriageReturn: Bool) {
        self.bytes = bytes
        self.delimiter = delimiter
        self.carriageReturn = carriageReturn
    }

    /// The offset of the first `delimiter` (or CR, when `carriageReturn`) at or after `position`, which never goes
    /// back from one call to the next.
    @inlinable @inline(__always)
    mutating func next(from position: Int) -> Int? {
        while true {
            // Negative after a move to the next block, which lies wholly after `position`.
            let shift = position &- blockStart
            if shift < 64 {
                let left = shift <= 0 ? mask : mask & (UInt64.max &<< UInt64(truncatingIfNeeded: shift))
                if left != 0 { return blockStart &+ left.trailingZeroBitCount }
                blockStart &+= 64
            } else {
                blockStart = position
            }
            guard blockStart < bytes.count else {
                mask = 0
                return nil
            }
            mask = bytes.count &- blockStart >= 64 ? wholeBlock() : partialBlock()
        }
    }

    /// The mask of the 64 bytes at `blockStart`, eight at a time by a word-wide zero-byte test (measured faster
    /// here than comparing vectors and gathering their lanes).
    @inlinable @inline(__always)
    func wholeBlock() -> UInt64 {
        var mask: UInt64 = 0
        if carriageReturn {
            for word in 0..<8 {
                mask |= Self.ends(in: load(word), delimiter: delimiter, carriageReturn: true) &<< UInt64(word &* 8)
            }
        } else {
            for word in 0..<8 {
                mask |= Self.ends(in: load(word), delimiter: delimiter, carriageReturn: false) &<< UInt64(word &* 8)
            }
        }
        return mask
    }

    /// Word `word` of the block at `blockStart`.
    @inlinable @inline(__always)
    func load(_ word: Int) -> UInt64 {
        UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: blockStart &+ word &* 8, as: UInt64.self))
    }

    /// The mask of the last bytes (fewer than 64), one at a time.
    @usableFromInline
    func partialBlock() -> UInt64 {
        var mask: UInt64 = 0
        for index in 0..<(bytes.count &- blockStart) {
            let byte = bytes[blockStart &+ index]
            if byte == delimiter || (carriageReturn && byte == 0x0D) { mask |= 1 &<< UInt64(index) }
        }
        return mask
    }

    /// Bit `i` set when byte `i` of `word` is `delimiter` (or CR, when `carriageReturn`).
    @inlinable @inline(__always)
    static func ends(in word: UInt64, delimiter: UInt8, carriageReturn: Bool) -> UInt64 {
        var zeros = ByteRun.bytes(word, equalTo: delimiter)
        if carriageReturn { zeros |= ByteRun.bytes(word, equalTo: 0x0D) }
        // The high bit of byte i, moved to bit 56 + i, then down.
        return ((zeros &>> 7) &* 0x0102_0408_1020_4080) &>> 56
    }
}
