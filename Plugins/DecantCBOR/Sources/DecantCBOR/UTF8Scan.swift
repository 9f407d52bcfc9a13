/// Fast work on runs of bytes in the body, eight bytes at a time: an ASCII test, a comparison and a hash.
enum UTF8Scan {
    /// The high bit of every byte of a 64-bit word.
    static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// Whether the `count` bytes at `start` are all ASCII.
    @inline(__always)
    static func isASCII(_ start: UnsafeRawPointer, count: Int) -> Bool {
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

    /// Whether the `count` bytes at `first` and at `second` are the same.
    @inline(__always)
    static func equal(_ first: UnsafeRawPointer, _ second: UnsafeRawPointer, count: Int) -> Bool {
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

    /// A fast hash of the `count` bytes at `start` (a multiply-and-fold over 64-bit words, not seeded: callers that
    /// hash untrusted keys into a table guard against crafted collisions themselves).
    @inline(__always)
    static func hash(_ start: UnsafeRawPointer, count: Int) -> UInt64 {
        var hash: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: count)
        var index = 0
        while index &+ 8 <= count {
            hash = (hash ^ start.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0xBF58_476D_1CE4_E5B9
            hash ^= hash >> 31
            index &+= 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(start.load(fromByteOffset: index, as: UInt8.self)) << shift
            shift &+= 8
            index &+= 1
        }
        hash = (hash ^ tail) &* 0x94D0_49BB_1331_11EB
        return hash ^ (hash >> 29)
    }
}
