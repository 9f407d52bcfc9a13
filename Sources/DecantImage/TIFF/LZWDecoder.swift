import DecantCore

/// TIFF LZW decoding (TIFF 6.0 §13): 9- to 12-bit codes, most significant bit first, Clear (256) and EndOfInformation
/// (257), the code width growing one code early. Old-style ("compat") streams, written least significant bit first
/// and growing the width on time, are recognised as libtiff does, by a first byte of 0 with the low bit of the
/// second set (a new-style stream starts with the Clear code, whose first byte is 0x80).
///
/// The table is flat: for each code its prefix code, last byte, first byte and length, so a code's string is
/// written backwards straight into the output without any allocation per code.
struct LZWDecoder {
    /// The prefix code of each table entry.
    var prefix = [UInt16](repeating: 0, count: 4096)
    /// The last byte of each entry's string.
    var suffix = [UInt8](repeating: 0, count: 4096)
    /// The first byte of each entry's string.
    var first = [UInt8](repeating: 0, count: 4096)
    /// The length of each entry's string.
    var length = [Int](repeating: 0, count: 4096)

    /// Creates a decoder with the 256 single-byte strings.
    init() {
        for code in 0..<256 {
            suffix[code] = UInt8(code)
            first[code] = UInt8(code)
            length[code] = 1
        }
    }

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
        prefix.withUnsafeMutableBufferPointer { prefix in
            suffix.withUnsafeMutableBufferPointer { suffix in
                first.withUnsafeMutableBufferPointer { first in
                    length.withUnsafeMutableBufferPointer { length in
                        output.withUnsafeMutableBufferPointer { out in
                            bytes.withUnsafeBufferPointer { input in
                                guard count <= out.count, end <= input.count else { return }
                                var position = start
                                var buffer: UInt64 = 0
                                var bitCount = 0
                                var width = 9
                                var next = 258
                                var previous = -1
                                while produced < count {
                                    while bitCount < width && position < end {
                                        if compat {
                                            buffer |= UInt64(input[position]) << UInt64(bitCount)
                                        } else {
                                            buffer = buffer << 8 | UInt64(input[position])
                                        }
                                        position += 1
                                        bitCount += 8
                                    }
                                    guard bitCount >= width else { break }
                                    let code: Int
                                    if compat {
                                        code = Int(buffer & ((1 << UInt64(width)) - 1))
                                        buffer >>= UInt64(width)
                                    } else {
                                        code = Int((buffer >> UInt64(bitCount - width)) & ((1 << UInt64(width)) - 1))
                                    }
                                    bitCount -= width
                                    if !compat { buffer &= (1 << UInt64(bitCount)) - 1 }
                                    if code == 256 {
                                        width = 9
                                        next = 258
                                        previous = -1
                                        continue
                                    }
                                    if code == 257 { break }
                                    let entry: Int
                                    if code < next {
                                        entry = code
                                    } else if code == next && previous >= 0 {
                                        entry = previous
                                    } else {
                                        failure = code
                                        break
                                    }
                                    // Write the entry's string backwards, clipped at the output's end.
                                    let size = length[entry]
                                    var cursor = entry
                                    var index = produced + size - 1
                                    while cursor >= 256 {
                                        if index < count { out[index] = suffix[cursor] }
                                        cursor = Int(prefix[cursor])
                                        index -= 1
                                    }
                                    if index < count { out[index] = UInt8(cursor) }
                                    produced = min(count, produced + size)
                                    if code == next {
                                        // KwKwK: the previous string and its own first byte.
                                        if produced < count || produced + 1 <= count {
                                            if produced < count { out[produced] = first[entry] }
                                        }
                                        produced = min(count, produced + 1)
                                    }
                                    if previous >= 0 && next < 4096 {
                                        prefix[next] = UInt16(previous)
                                        suffix[next] = first[entry]
                                        first[next] = first[previous]
                                        length[next] = length[previous] + 1
                                        next += 1
                                    }
                                    previous = code
                                    if next + early >= (1 << width) && width < 12 { width += 1 }
                                }
                            }
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
