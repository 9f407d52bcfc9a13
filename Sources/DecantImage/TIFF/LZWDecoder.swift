import DecantCore

/// TIFF LZW decoding (TIFF 6.0 §13): 9- to 12-bit codes, most significant bit first, Clear (256) and EndOfInformation
/// (257), the code width growing one code early. Old-style ("compat") streams, written least significant bit first
/// and growing the width on time, are recognised as libtiff does, by a first byte of 0 with the low bit of the
/// second set (a new-style stream starts with the Clear code, whose first byte is 0x80).
///
/// The table is flat and holds no strings: every entry's string was written to the output once already (an entry
/// is the previous code's string followed by the first byte of the next), so an entry is the offset and length of
/// that earlier copy, packed in one word (`offset << 16 | length`; a string is at most 4,096 bytes), and a code's
/// string is copied from there. Nothing is allocated per code.
struct LZWDecoder {
    /// Where in the output each entry's string was first written, shifted left 16 bits, and its length.
    var entries = [Int](repeating: 0, count: 4096)

    /// Decodes `bytes[start..<end]` into `output` from `base`, at most `count` bytes; returns how many were produced.
    ///
    /// Decoding stops at EndOfInformation, at the end of the data or when the output is full; an invalid code
    /// throws `invalidBody`.
    mutating func decode(
        _ bytes: [UInt8], from start: Int, to end: Int, into output: inout [UInt8], at base: Int, count: Int
    ) throws(SerializationError) -> Int {
        let compat = end - start >= 2 && bytes[start] == 0 && bytes[start + 1] & 1 != 0
        let early = compat ? 0 : 1
        let (produced, failure) = entries.withUnsafeMutableBufferPointer { entries in
            output.withUnsafeMutableBufferPointer { out in
                bytes.withUnsafeBufferPointer { input -> (Int, Int?) in
                    guard base >= 0, count >= 0, base <= out.count - count, end <= input.count, start >= 0,
                        start <= end,
                        let table = entries.baseAddress,
                        let target = out.baseAddress, let source = input.baseAddress
                    else { return (0, nil) }
                    return Self.run(
                        source, from: start, to: end, into: target + base, count: count, table: table,
                        compat: compat, early: early)
                }
            }
        }
        if let failure {
            throw TIFFDecoder.invalid(start, "an LZW code (\(failure)) names no string defined yet (TIFF 6.0 §13)")
        }
        return produced
    }

    /// The decoding loop of ``decode(_:from:to:into:count:)`` over checked pointers: `count` bytes of `target` and
    /// `source[start..<end]` are valid. Returns the bytes produced and the invalid code met, if any. Every index is
    /// below `count` or `end`, so the arithmetic cannot overflow and wraps unchecked.
    @inline(__always)
    static func run(
        _ source: UnsafePointer<UInt8>, from start: Int, to end: Int, into target: UnsafeMutablePointer<UInt8>,
        count: Int, table: UnsafeMutablePointer<Int>, compat: Bool, early: Int
    ) -> (Int, Int?) {
        var produced = 0
        var position = start
        var buffer: UInt64 = 0
        var bitCount = 0
        var width = 9
        var next = 258
        var previous = -1
        var previousStart = 0
        var previousLength = 0
        while produced < count {
            if bitCount < width {
                if !compat && end &- position >= 8 {
                    // Eight bytes at once, most significant first; the whole bytes that fit are consumed.
                    let word = UInt64(bigEndian: UnsafeRawPointer(source + position).loadUnaligned(as: UInt64.self))
                    buffer |= word &>> UInt64(bitCount)
                    let taken = (63 &- bitCount) &>> 3
                    position &+= taken
                    bitCount &+= taken &<< 3
                }
                while bitCount <= 56 && position < end {
                    if compat {
                        buffer |= UInt64(source[position]) &<< UInt64(bitCount)
                    } else {
                        buffer |= UInt64(source[position]) &<< UInt64(56 &- bitCount)
                    }
                    position &+= 1
                    bitCount &+= 8
                }
                guard bitCount >= width else { break }
            }
            let code: Int
            if compat {
                code = Int(truncatingIfNeeded: buffer & ((1 &<< UInt64(width)) &- 1))
                buffer = buffer &>> UInt64(width)
            } else {
                code = Int(truncatingIfNeeded: buffer &>> UInt64(64 &- width))
                buffer = buffer &<< UInt64(width)
            }
            bitCount &-= width
            if code == 256 {
                width = 9
                next = 258
                previous = -1
                continue
            }
            if code == 257 { break }
            let here = produced
            let size: Int
            let from: UnsafeMutablePointer<UInt8>
            if code < 256 {
                target[produced] = UInt8(truncatingIfNeeded: code)
                produced &+= 1
                size = 1
            } else {
                if code < next {
                    // The entry's string, written earlier in this output, copied forward.
                    let entry = table[code]
                    size = entry & 0xFFFF
                    from = target + (entry &>> 16)
                } else if code == next && previous >= 0 {
                    // KwKwK: the previous string and its own first byte (the copy overlaps by one byte).
                    size = previousLength &+ 1
                    from = target + previousStart
                } else {
                    return (produced, code)
                }
                let to = target + produced
                if size &+ 8 <= count &- produced && to - from >= 8 {
                    // Eight bytes at a time: the bytes written past the string's end lie within the output and
                    // are overwritten by the strings that follow.
                    var index = 0
                    while index < size {
                        UnsafeMutableRawPointer(to + index).storeBytes(
                            of: UnsafeRawPointer(from + index).loadUnaligned(as: UInt64.self), as: UInt64.self)
                        index &+= 8
                    }
                    produced &+= size
                } else {
                    let copy = min(size, count &- produced)
                    var index = 0
                    while index < copy {
                        to[index] = from[index]
                        index &+= 1
                    }
                    produced &+= copy
                }
            }
            if previous >= 0 && next < 4096 {
                table[next] = previousStart &<< 16 | (previousLength &+ 1)
                next &+= 1
            }
            previous = code
            previousStart = here
            previousLength = size
            if next &+ early >= (1 &<< width) && width < 12 { width &+= 1 }
        }
        return (produced, nil)
    }
}
