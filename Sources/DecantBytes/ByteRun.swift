/// Word-at-a-time work on runs of bytes, for parsers of binary and text formats: an ASCII test, a UTF-8 validity
/// test, a comparison, the bytes of a short run as two words, a fast hash, and the bytes of a word equal to a given
/// byte. DecantCBOR,
/// DecantMessagePack and DecantEventStream use them to read keys and strings in place; a third party's parser may
/// too.
///
/// Every function reads only the `count` bytes at its pointers (none before, none after), eight at a time where it
/// can.
///
/// ```swift
/// let bytes: [UInt8] = Array("token".utf8)
/// let (low, high) = bytes.withUnsafeBytes { ByteRun.shortWords($0.baseAddress!, count: $0.count) }
/// print(low == 0x6E_656B_6F74, high)   // true 0
/// ```
public enum ByteRun {
    /// The high bit of every byte of a 64-bit word.
    public static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each byte of `word` that is zero, exactly (no carry crosses bytes, so no byte is flagged
    /// because of its neighbour).
    @inlinable @inline(__always)
    public static func zeroBytes(_ word: UInt64) -> UInt64 {
        let low: UInt64 = 0x7F7F_7F7F_7F7F_7F7F
        return ~(((word & low) &+ low) | word | low)
    }

    /// The high bit of each byte of `word` that equals `byte`, exactly.
    @inlinable @inline(__always)
    public static func bytes(_ word: UInt64, equalTo byte: UInt8) -> UInt64 {
        zeroBytes(word ^ (0x0101_0101_0101_0101 &* UInt64(byte)))
    }

    /// Whether the `count` bytes at `start` are all ASCII (below 0x80).
    @inlinable @inline(__always)
    public static func isASCII(_ start: UnsafeRawPointer, count: Int) -> Bool {
        var index = 0
        var accumulated: UInt64 = 0
        while index &+ 8 <= count {
            accumulated |= start.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            index &+= 8
        }
        while index < count {
            accumulated |= UInt64(start.load(fromByteOffset: index, as: UInt8.self))
            index &+= 1
        }
        return accumulated & highBits == 0
    }

    /// Whether the `count` bytes at `start` are well-formed UTF-8 (Unicode §3.9, table 3-7): no overlong forms, no
    /// surrogates, nothing above U+10FFFF, no sequence cut off at the end. Runs of ASCII are checked eight bytes at a
    /// time; nothing is allocated, so a parser can validate a string in place and make a `String` only when asked.
    @inlinable
    public static func isValidUTF8(_ start: UnsafeRawPointer, count: Int) -> Bool {
        if count <= 16 {
            // Short ASCII runs (most keys and many values) in two loads.
            let (first, second) = shortWords(start, count: count)
            if (first | second) & highBits == 0 { return true }
        }
        var index = 0
        while index < count {
            if count &- index >= 8 && start.loadUnaligned(fromByteOffset: index, as: UInt64.self) & highBits == 0 {
                index &+= 8
                continue
            }
            var lead = start.load(fromByteOffset: index, as: UInt8.self)
            if lead < 0x80 {
                index &+= 1
                continue
            }
            // Two- and three-byte sequences (most non-ASCII text), one after another without the ASCII test;
            // anything else, or anything doubtful, goes to the table below.
            while count &- index >= 3 {
                let second = start.load(fromByteOffset: index &+ 1, as: UInt8.self)
                if lead >= 0xC2 && lead <= 0xDF && second & 0xC0 == 0x80 {
                    index &+= 2
                } else {
                    let third = start.load(fromByteOffset: index &+ 2, as: UInt8.self)
                    guard
                        lead & 0xF0 == 0xE0 && (second & third) & 0xC0 == 0x80 && (second | third) & 0x40 == 0
                            && (lead != 0xE0 || second >= 0xA0) && (lead != 0xED || second <= 0x9F)
                    else { break }
                    index &+= 3
                }
                guard index < count else { return true }
                lead = start.load(fromByteOffset: index, as: UInt8.self)
                if lead < 0x80 { break }
            }
            if lead < 0x80 { continue }
            // The second byte's range depends on the lead (overlongs, surrogates and the top of the code space are
            // excluded there); the others are plain continuation bytes.
            let length: Int
            var low: UInt8 = 0x80
            var high: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: length = 2
            case 0xE0: (length, low) = (3, 0xA0)
            case 0xE1...0xEC, 0xEE, 0xEF: length = 3
            case 0xED: (length, high) = (3, 0x9F)
            case 0xF0: (length, low) = (4, 0x90)
            case 0xF1...0xF3: length = 4
            case 0xF4: (length, high) = (4, 0x8F)
            default: return false
            }
            guard count &- index >= length else { return false }
            let second = start.load(fromByteOffset: index &+ 1, as: UInt8.self)
            guard second >= low && second <= high else { return false }
            var next = index &+ 2
            while next < index &+ length {
                guard start.load(fromByteOffset: next, as: UInt8.self) & 0xC0 == 0x80 else { return false }
                next &+= 1
            }
            index = next
        }
        return true
    }

    /// Whether the `count` bytes at `first` and at `second` are the same.
    @inlinable @inline(__always)
    public static func equal(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
        var index = 0
        while index &+ 8 <= count {
            guard
                first.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                    == second.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            else { return false }
            index &+= 8
        }
        while index < count {
            guard
                first.load(fromByteOffset: index, as: UInt8.self) == second.load(fromByteOffset: index, as: UInt8.self)
            else { return false }
            index &+= 1
        }
        return true
    }

    /// The `count` bytes (at most 16) at `start` as two little-endian words, zero beyond `count`: equal runs of the
    /// same length have equal words, and nothing is read outside the run.
    @inlinable @inline(__always)
    public static func shortWords(_ start: UnsafeRawPointer, count: Int) -> (UInt64, UInt64) {
        if count >= 8 {
            let first = UInt64(littleEndian: start.loadUnaligned(as: UInt64.self))
            if count == 8 { return (first, 0) }
            // The last eight bytes, shifted so that the bytes before offset 8 leave.
            let last = UInt64(littleEndian: start.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self))
            return (first, last >> UInt64(truncatingIfNeeded: 8 &* (16 &- count)))
        }
        // Two overlapping loads of the same width: the bytes they share are the same in both.
        if count >= 4 {
            let first = UInt64(UInt32(littleEndian: start.loadUnaligned(as: UInt32.self)))
            let last = UInt64(UInt32(littleEndian: start.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)))
            return (first | last << UInt64(truncatingIfNeeded: 8 &* (count &- 4)), 0)
        }
        if count >= 2 {
            let first = UInt64(UInt16(littleEndian: start.loadUnaligned(as: UInt16.self)))
            let last = UInt64(UInt16(littleEndian: start.loadUnaligned(fromByteOffset: count &- 2, as: UInt16.self)))
            return (first | last << UInt64(truncatingIfNeeded: 8 &* (count &- 2)), 0)
        }
        return (count == 1 ? UInt64(start.load(as: UInt8.self)) : 0, 0)
    }

    /// The hash of a run of at most 16 bytes, from its ``shortWords(_:count:)``.
    @inlinable @inline(__always)
    public static func hashShort(_ first: UInt64, _ second: UInt64, count: Int) -> UInt64 {
        var hash = (first ^ 0x9E37_79B9_7F4A_7C15) &* 0xBF58_476D_1CE4_E5B9
        hash ^= hash >> 31
        hash = (hash ^ second ^ UInt64(truncatingIfNeeded: count)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 29)
    }

    /// A fast hash of the `count` bytes at `start` (a multiply-and-fold over 64-bit words, not seeded: callers that
    /// hash untrusted keys into a table guard against crafted collisions themselves).
    @inlinable @inline(__always)
    public static func hash(_ start: UnsafeRawPointer, count: Int) -> UInt64 {
        if count <= 16 {
            let (first, second) = shortWords(start, count: count)
            return hashShort(first, second, count: count)
        }
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
        var index = 0
        while index &+ 8 < count {
            hash = (hash ^ start.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            index &+= 8
        }
        // The last eight bytes, overlapping the previous word when the length is not a multiple of eight.
        hash = (hash ^ start.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 29)
    }
}
