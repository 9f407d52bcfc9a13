/// The Unicode encodings a JSON text can arrive in, and their detection and transcoding to UTF-8.
///
/// RFC 8259 §8.1 requires UTF-8 between systems and lets parsers ignore a byte order mark; older peers still send
/// UTF-16 or UTF-32, which RFC 4627 §3 detects from the pattern of zero bytes in the first four bytes (the first two
/// characters of a JSON text are ASCII). UTF-16 and UTF-32 bodies are transcoded to UTF-8 before scanning, the rare
/// path; UTF-8 is scanned as it is, after its byte order mark.
enum JSONTextEncoding: Sendable, Hashable, CustomStringConvertible {
    case utf8, utf16BigEndian, utf16LittleEndian, utf32BigEndian, utf32LittleEndian

    var description: String {
        switch self {
        case .utf8: "UTF-8"
        case .utf16BigEndian: "UTF-16BE"
        case .utf16LittleEndian: "UTF-16LE"
        case .utf32BigEndian: "UTF-32BE"
        case .utf32LittleEndian: "UTF-32LE"
        }
    }

    /// The encoding of `bytes` and the length of its byte order mark (0 when there is none).
    static func detect(_ bytes: UnsafeRawBufferPointer) -> (encoding: JSONTextEncoding, bomLength: Int) {
        let count = bytes.count
        func at(_ index: Int) -> UInt8 { index < count ? bytes[index] : 0xAA }
        if count >= 3 && at(0) == 0xEF && at(1) == 0xBB && at(2) == 0xBF { return (.utf8, 3) }
        if count >= 4 && at(0) == 0 && at(1) == 0 && at(2) == 0xFE && at(3) == 0xFF { return (.utf32BigEndian, 4) }
        if count >= 4 && at(0) == 0xFF && at(1) == 0xFE && at(2) == 0 && at(3) == 0 {
            return (.utf32LittleEndian, 4)
        }
        if count >= 2 && at(0) == 0xFE && at(1) == 0xFF { return (.utf16BigEndian, 2) }
        if count >= 2 && at(0) == 0xFF && at(1) == 0xFE { return (.utf16LittleEndian, 2) }
        guard count >= 2 else { return (.utf8, 0) }
        if count >= 4 && at(0) == 0 && at(1) == 0 && at(2) == 0 && at(3) != 0 { return (.utf32BigEndian, 0) }
        if count >= 4 && at(0) != 0 && at(1) == 0 && at(2) == 0 && at(3) == 0 { return (.utf32LittleEndian, 0) }
        if at(0) == 0 && at(1) != 0 { return (.utf16BigEndian, 0) }
        if at(0) != 0 && at(1) == 0 { return (.utf16LittleEndian, 0) }
        return (.utf8, 0)
    }

    /// The size of a code unit in bytes.
    var unitSize: Int {
        switch self {
        case .utf8: 1
        case .utf16BigEndian, .utf16LittleEndian: 2
        case .utf32BigEndian, .utf32LittleEndian: 4
        }
    }

    /// A transcoding failure: the byte offset (after the byte order mark) of the bad code unit.
    struct Failure: Error {
        var offset: Int
        var reason: String
    }

    /// Transcodes `bytes` (UTF-16 or UTF-32, without the byte order mark) to UTF-8 followed by `padding` zero bytes.
    func transcodeToUTF8(_ bytes: UnsafeRawBufferPointer, padding: Int) throws(Failure) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count / unitSize * 3 + padding)
        let count = bytes.count
        guard count % unitSize == 0 else {
            throw Failure(
                offset: count - count % unitSize,
                reason: "the body ends in the middle of a \(unitSize)-byte \(self) code unit")
        }
        func unit16(_ index: Int) -> UInt32 {
            self == .utf16BigEndian
                ? UInt32(bytes[index]) << 8 | UInt32(bytes[index + 1])
                : UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index])
        }
        func unit32(_ index: Int) -> UInt32 {
            let b0 = UInt32(bytes[index])
            let b1 = UInt32(bytes[index + 1])
            let b2 = UInt32(bytes[index + 2])
            let b3 = UInt32(bytes[index + 3])
            return self == .utf32BigEndian ? b0 << 24 | b1 << 16 | b2 << 8 | b3 : b3 << 24 | b2 << 16 | b1 << 8 | b0
        }
        var index = 0
        while index < count {
            var scalar: UInt32
            switch self {
            case .utf8:
                scalar = UInt32(bytes[index])
                index += 1
            case .utf16BigEndian, .utf16LittleEndian:
                scalar = unit16(index)
                if scalar & 0xFC00 == 0xD800 {
                    guard index + 4 <= count, unit16(index + 2) & 0xFC00 == 0xDC00 else {
                        throw Failure(offset: index, reason: "a high surrogate is not followed by a low surrogate")
                    }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (unit16(index + 2) - 0xDC00)
                    index += 4
                } else if scalar & 0xFC00 == 0xDC00 {
                    throw Failure(offset: index, reason: "a low surrogate is not preceded by a high surrogate")
                } else {
                    index += 2
                }
            case .utf32BigEndian, .utf32LittleEndian:
                scalar = unit32(index)
                guard scalar <= 0x10FFFF, scalar & 0xFFFF_F800 != 0xD800 else {
                    throw Failure(offset: index, reason: "the code unit is not a Unicode scalar value")
                }
                index += 4
            }
            Self.appendUTF8(scalar, to: &output)
        }
        output.append(contentsOf: repeatElement(0, count: padding))
        return output
    }

    static func appendUTF8(_ scalar: UInt32, to output: inout [UInt8]) {
        if scalar < 0x80 {
            output.append(UInt8(scalar))
        } else if scalar < 0x800 {
            output.append(UInt8(0xC0 | scalar >> 6))
            output.append(UInt8(0x80 | scalar & 0x3F))
        } else if scalar < 0x10000 {
            output.append(UInt8(0xE0 | scalar >> 12))
            output.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        } else {
            output.append(UInt8(0xF0 | scalar >> 18))
            output.append(UInt8(0x80 | (scalar >> 12) & 0x3F))
            output.append(UInt8(0x80 | (scalar >> 6) & 0x3F))
            output.append(UInt8(0x80 | scalar & 0x3F))
        }
    }

    /// The byte offset in the original text (after the byte order mark) of the UTF-8 offset `utf8Offset` of the
    /// transcoded text `utf8`.
    func originalOffset(ofUTF8Offset utf8Offset: Int, in utf8: [UInt8]) -> Int {
        guard self != .utf8 else { return utf8Offset }
        var original = 0
        var index = 0
        while index < min(utf8Offset, utf8.count) {
            let lead = utf8[index]
            let length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
            original += unitSize == 4 ? 4 : (length == 4 ? 4 : 2)
            index += length
        }
        return original
    }
}
