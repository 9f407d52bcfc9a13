// Byte classes from RFC 9110 and the WHATWG "HTTP token" / "HTTP quoted-string token" definitions.
// Everything here works on UTF-8 bytes: every delimiter the grammars use is ASCII, so splitting a valid UTF-8
// string at those bytes never cuts a multi-byte scalar in half.

package enum HTTPBytes {
    /// RFC 9110 `tchar`: ``!#$%&'*+-.^_`|~``, digits and ASCII letters.
    static let tokenTable: [Bool] = {
        var table = [Bool](repeating: false, count: 256)
        for byte in UInt8(ascii: "0")...UInt8(ascii: "9") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "a")...UInt8(ascii: "z") { table[Int(byte)] = true }
        for byte in UInt8(ascii: "A")...UInt8(ascii: "Z") { table[Int(byte)] = true }
        for scalar in "!#$%&'*+-.^_`|~".utf8 { table[Int(scalar)] = true }
        return table
    }()

    @inline(__always)
    package static func isToken(_ byte: UInt8) -> Bool { tokenTable[Int(byte)] }

    /// WHATWG "HTTP whitespace": LF, CR, TAB, SPACE.
    @inline(__always)
    package static func isHTTPWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    /// RFC 9110 `OWS` bytes: SPACE and TAB.
    @inline(__always)
    package static func isOWS(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    package static func isToken<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        !bytes.isEmpty && bytes.allSatisfy(isToken)
    }

    /// WHATWG "HTTP quoted-string token code points": U+0009, U+0020-U+007E, U+0080-U+00FF, checked on UTF-8.
    ///
    /// U+0080-U+00FF are exactly the two-byte sequences led by 0xC2 or 0xC3; any other lead byte encodes a scalar
    /// above U+00FF and disqualifies the value.
    static func isQuotedStringTokenText<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        var expectContinuation = false
        for byte in bytes {
            if expectContinuation {
                expectContinuation = false
                continue
            }
            switch byte {
            case 0x09, 0x20...0x7E: continue
            case 0xC2, 0xC3: expectContinuation = true
            default: return false
            }
        }
        return true
    }

    @inline(__always)
    static func lowercased(_ byte: UInt8) -> UInt8 {
        (byte >= 0x41 && byte <= 0x5A) ? byte | 0x20 : byte
    }

    /// ASCII-lowercases `bytes` into a `String`; non-ASCII bytes are kept as they are.
    static func lowercasedString<C: Collection<UInt8>>(_ bytes: C) -> String {
        String(decoding: bytes.lazy.map(lowercased), as: UTF8.self)
    }

    /// ASCII case-insensitive comparison without allocating.
    ///
    /// Strings of different UTF-8 lengths are told apart without reading a byte (the count of a native string is
    /// stored), which is the usual answer when a header name is looked up among a response's fields.
    package static func equalsIgnoringASCIICase(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        let compared = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in
                equalsIgnoringASCIICase(leftBytes, rightBytes)
            }
        }
        if let compared, let result = compared { return result }
        return left.elementsEqual(right) { lowercased($0) == lowercased($1) }
    }

    /// ASCII case-insensitive comparison of two buffers of the same length.
    private static func equalsIgnoringASCIICase(
        _ left: UnsafeBufferPointer<UInt8>, _ right: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        for index in left.indices where left[index] != right[index] {
            guard lowercased(left[index]) == lowercased(right[index]) else { return false }
        }
        return true
    }

    /// Removes leading and trailing bytes matching `isSpace`.
    package static func trimmed(_ bytes: ArraySlice<UInt8>, where isSpace: (UInt8) -> Bool) -> ArraySlice<UInt8> {
        var lower = bytes.startIndex
        var upper = bytes.endIndex
        while lower < upper, isSpace(bytes[lower]) { lower += 1 }
        while upper > lower, isSpace(bytes[upper - 1]) { upper -= 1 }
        return bytes[lower..<upper]
    }
}
