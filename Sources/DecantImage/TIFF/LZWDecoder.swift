import DecantCore

/// TIFF LZW decoding (TIFF 6.0 §13): 9- to 12-bit codes, most significant bit first, Clear (256) and EndOfInformation
/// (257), the code width growing one code early. Old-style ("compat") streams, written least significant bit first
/// and growing the width on time, are recognised as libtiff does, by a first byte of 0 with the low bit of the
/// second set (a new-style stream starts with the Clear code, whose first byte is 0x80).
///
/// The table is flat and holds no strings: every entry's string was written to the output once already (an entry
/// is the previous code's string followed by the first byte of the next), so an entry is the offset and length of
/// that earlier copy, and a code's string is copied from there. Nothing is allocated per code.
struct LZWDecoder {
    /// Where in the output each entry's string was first written.
    var offset = [Int](repeating: 0, count: 4096)
    /// The length of each entry's string.
    var length = [Int](repeating: 0, count: 4096)

    /// Decodes `bytes[start..<end]` into `output`, at most `count` bytes; returns how many were produced.
    ///
    /// Decoding stops at EndOfInformation, at the end of the data or when the output is full; an invalid code
    /// throws `invalidBody`.
    mutating func decode(
        _ bytes: [UInt8], from start: Int, to end: Int, into output: inout [UInt8], count: Int
    ) throws(SerializationError) -> Int {
        let compat = end - start >= 2 && bytes[start] == 0 && bytes[start + 1] & 1 != 0
        let early = compat ? 0 : 1
        var produced = 0
        var failure: Int?
        offset.withUnsafeMutableBufferPointer { offset in
            length.withUnsafeMutableBufferPointer { length in
                output.withUnsafeMutableBufferPointer { out in
                    bytes.withUnsafeBufferPointer { input in
                        guard count <= out.count, end <= input.count, start >= 0, start <= end,
                            let table = offset.baseAddress, let lengths = length.baseAddress,
                            let target = out.baseAddress, let source = input.baseAddress
                        else { return }
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
                                while bitCount <= 56 && position < end {
                                    if compat {
                                        buffer |= UInt64(source[position]) << UInt64(bitCount)
                                    } else {
                                        buffer |= UInt64(source[position]) << UInt64(56 - bitCount)
                                    }
                                    position += 1
                                    bitCount += 8
                                }
                                guard bitCount >= width else { break }
                            }
                            let code: Int
                            if compat {
                                code = Int(buffer & ((1 << UInt64(width)) - 1))
                                buffer >>= UInt64(width)
                            } else {
                                code = Int(buffer >> UInt64(64 - width))
                                buffer <<= UInt64(width)
                            }
                            bitCount -= width
                            if code == 256 {
                                width = 9
                                next = 258
                                previous = -1
                                continue
                            }
                            if code == 257 { break }
                            let here = produced
                            let size: Int
                            if code < 256 {
                                target[produced] = UInt8(code)
                                produced += 1
                                size = 1
                            } else if code < next {
                                // The entry's string, written earlier in this output, copied forward.
                                size = lengths[code]
                                let copy = min(size, count - produced)
                                let from = target + table[code]
                                let to = target + produced
                                for index in 0..<copy { to[index] = from[index] }
                                produced += copy
                            } else if code == next && previous >= 0 {
                                // KwKwK: the previous string and its own first byte.
                                size = previousLength + 1
                                let copy = min(size, count - produced)
                                let from = target + previousStart
                                let to = target + produced
                                for index in 0..<copy { to[index] = from[index] }
                                produced += copy
                            } else {
                                failure = code
                                break
                            }
                            if previous >= 0 && next < 4096 {
                                table[next] = previousStart
                                lengths[next] = previousLength + 1
                                next += 1
                            }
                            previous = code
                            previousStart = here
                            previousLength = size
                            if next + early >= (1 << width) && width < 12 { width += 1 }
                        }
                    }
                }
            }
        }
        if let failure {
            throw TIFFDecoder.invalid(start, "an LZW code (\(failure)) names no string defined yet (TIFF 6.0 §13)")
        }
        return produced
    }
}
