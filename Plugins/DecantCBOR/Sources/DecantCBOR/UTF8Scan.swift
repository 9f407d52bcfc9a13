/// Fast checks of UTF-8 byte runs for the reader: an ASCII test eight bytes at a time, and a strict validator
/// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF) for the rest.
enum UTF8Scan {
    /// The high bit of every byte of a 64-bit word.
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether the `count` bytes at `start` are all ASCII.
    @inline(__always)
    static func isASCII(_ start: UnsafeRawPointer, count: Int) -> Bool {
        var index = 0
        var accumulated: UInt64 = 0
        while index + 8 <= count {
            accumulated |= start.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index += 8
        }
        while index < count {
            accumulated |= UInt64(start.load(fromByteOffset: index, as: UInt8.self))
            index += 1
        }
        return accumulated & highBits == 0
    }

    /// The length of the longest prefix of the `count` bytes at `start` made of whole, valid UTF-8 sequences: `count`
    /// when all of them are valid, else the offset (from `start`) of the first sequence that is not.
    static func validPrefix(_ start: UnsafeRawPointer, count: Int) -> Int {
        let bytes = start.assumingMemoryBound(to: UInt8.self)
        var index = 0
        while index < count {
            // Skip ASCII eight bytes at a time.
            while index + 8 <= count,
                start.loadUnaligned(fromByteOffset: index, as: UInt64.self) & highBits == 0
            {
                index += 8
            }
            guard index < count else { break }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            let length: Int
            // The range allowed for the second byte; later bytes are 0x80...0xBF.
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0:
                length = 3
                low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED:
                length = 3
                high = 0x9F
            case 0xF0:
                length = 4
                low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4:
                length = 4
                high = 0x8F
            default: return index
            }
            guard count - index >= length else { return index }
            let second = bytes[index + 1]
            guard second >= low && second <= high else { return index }
            var offset = 2
            while offset < length {
                guard bytes[index + offset] & 0xC0 == 0x80 else { return index }
                offset += 1
            }
            index += length
        }
        return count
    }

    /// Whether the `count` bytes at `first` and at `second` are the same.
    @inline(__always)
    static func equal(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
        var index = 0
        while index + 8 <= count {
            guard
                first.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    == second.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            else { return false }
            index += 8
        }
        while index < count {
            guard
                first.load(fromByteOffset: index, as: UInt8.self) == second.load(fromByteOffset: index, as: UInt8.self)
            else { return false }
            index += 1
        }
        return true
    }
}
