import DecantCore

/// TIFF LZW decoding (TIFF 6.0 §13): 9- to 12-bit codes, most significant bit first, Clear (256) and EndOfInformation
/// (257), the code width growing one code early. Old-style ("compat") streams, written least significant bit first
/// and growing the width on time, are recognised as libtiff does, by a first byte of 0 with the low bit of the
/// second set (a new-style stream starts with the Clear code, whose first byte is 0x80).
///
/// The table is flat and holds no strings: every entry's string was written to the output once already (an entry
/// is the previous code's string followed by the first byte of the next), so an entry is the address and length of
/// that earlier copy, and a code's string is copied from there. The 256 single-byte codes point into a constant table
/// of the bytes 0-255, so that every code is copied the same way, without a branch that photographs make
/// unpredictable. Nothing is allocated per code.
struct LZWDecoder {
    /// For each code, the address of its string (at `2 * code`: in the output for the codes defined while decoding,
    /// in ``bytes`` for the single-byte codes, set again by every ``decode(_:from:to:into:at:count:)``) and its length
    /// (at `2 * code + 1`), side by side so that one cache line holds both.
    var entries = [Int](repeating: 0, count: 2 * 4096)

    /// The bytes 0-255 in order, then eight zeros (a string is read eight bytes at a time).
    nonisolated(unsafe) static let bytes: UnsafeMutablePointer<UInt8> = {
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: 256 + 8)
        for value in 0..<(256 + 8) { (bytes + value).initialize(to: UInt8(truncatingIfNeeded: value & 0xFF)) }
        return bytes
    }()

    /// Decodes `bytes[start..<end]` into `output` from `base`, at most `count` bytes; returns how many were produced.
    ///
    /// Decoding stops at EndOfInformation, at the end of the data or when the output is full; an invalid code
    /// throws `invalidBody`.
    mutating func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into output: inout [UInt8], at base: Int,
        count: Int
    ) throws(SerializationError) -> Int {
        let compat = end - start >= 2 && bytes[start] == 0 && bytes[start + 1] & 1 != 0
        let (produced, failure) = entries.withUnsafeMutableBufferPointer { entries in
            output.withUnsafeMutableBufferPointer { out -> (Int, Int?) in
                guard base >= 0, count >= 0, base <= out.count - count, end <= bytes.count, start >= 0, start <= end,
                    let table = entries.baseAddress, let target = out.baseAddress, let source = bytes.baseAddress
                else { return (0, nil) }
                let literals = Int(bitPattern: Self.bytes)
                for code in 0..<256 {
                    table[2 &* code] = literals &+ code
                    table[2 &* code &+ 1] = 1
                }
                // Two copies of the loop, each with its bit order fixed, so that neither tests it per code.
                if compat {
                    return Self.run(
                        source, from: start, to: end, into: target + base, count: count, table: table, compat: true,
                        early: 0)
                }
                return Self.run(
                    source, from: start, to: end, into: target + base, count: count, table: table, compat: false,
                    early: 1)
            }
        }
        if let failure {
            throw TIFFDecoder.invalid(start, "an LZW code (\(failure)) names no string defined yet (TIFF 6.0 §13)")
        }
        return produced
    }

    /// The decoding loop of ``decode(_:from:to:into:at:count:)`` over checked pointers: `count` bytes of `target` and
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
        var previousStart = 0
        // The previous code's string length; 0 after a Clear code (no previous code).
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
            if UInt(bitPattern: code &- 256) < 2 {
                if code == 257 { break }
                // Clear: back to the 258 initial codes.
                width = 9
                next = 258
                previousLength = 0
                continue
            }
            let to = target + produced
            let from: Int
            var size: Int
            let repeatsItself: Bool
            if code < next {
                // A single byte, or an entry's string written earlier in this output; either lies wholly before `to`.
                from = table[2 &* code]
                size = table[2 &* code &+ 1]
                repeatsItself = false
            } else if code == next && previousLength != 0 {
                // KwKwK: the previous string and its own first byte (the copy overlaps by that one byte).
                from = previousStart
                size = previousLength &+ 1
                repeatsItself = true
            } else {
                return (produced, code)
            }
            if size &+ 8 <= count &- produced {
                // Eight bytes at a time: the string lies before `to`, so each byte of it is read before this copy
                // writes there; the bytes written past its end lie within the output and are overwritten by the strings
                // that follow. A self-repeating string's last byte, read before it was written, is set afterwards.
                let origin = UnsafeRawPointer(bitPattern: from).unsafelyUnwrapped
                var index = 0
                repeat {
                    UnsafeMutableRawPointer(to + index).storeBytes(
                        of: (origin + index).loadUnaligned(as: UInt64.self), as: UInt64.self)
                    index &+= 8
                } while index < size
                if repeatsItself { to[size &- 1] = to[0] }
                produced &+= size
            } else {
                let origin = UnsafePointer<UInt8>(bitPattern: from).unsafelyUnwrapped
                let copy = min(size, count &- produced)
                var index = 0
                while index < copy {
                    to[index] = origin[index]
                    index &+= 1
                }
                produced &+= copy
                size = copy
            }
            if previousLength != 0 && next < 4096 {
                table[2 &* next] = previousStart
                table[2 &* next &+ 1] = previousLength &+ 1
                next &+= 1
            }
            previousStart = Int(bitPattern: to)
            previousLength = size
            if next &+ early >= (1 &<< width) && width < 12 { width &+= 1 }
        }
        return (produced, nil)
    }
}
