import DecantCore

/// The WHATWG UTF-8 decoder (Encoding §8.1.1): a table-driven validator, then one copy into the string.
///
/// Valid input (the common case) is checked once by ``validPrefix(of:from:)``, sixteen bytes at a time, and then
/// copied into the string without a second validation.
/// Invalid input is copied run by run with one U+FFFD per maximal subpart: the lead byte and the continuation bytes
/// that were valid for it, exactly the sequences the standard's decoder turns into one error (and the Unicode "best
/// practice"); ``firstInvalidSequence(in:from:)`` finds them.
enum UTF8Decoder {
    static func decode(
        _ input: UnsafeBufferPointer<UInt8>, mode: TextDecodingMode, encoding: TextEncoding
    ) throws(TextDecodingError) -> String {
        let count = input.count
        let scan = validPrefix(of: input, from: 0)
        if scan.end == count { return String.decant_fromValidUTF8(input, isASCII: scan.isASCII) }
        guard var invalid = firstInvalidSequence(in: input, from: scan.end) else {
            // Not reached (the validator and the scan agree on every input); repair rather than trust.
            return String(decoding: input, as: UTF8.self)
        }
        if mode == .strict { throw TextDecodingError(encoding: encoding, offset: invalid.offset, input: input) }
        var output = DecoderOutput(input: input, mode: mode, encoding: encoding)
        var position = 0
        while true {
            output.append(validUTF8: UnsafeBufferPointer(rebasing: input[position..<invalid.offset]))
            output.appendReplacement()
            position = invalid.offset + invalid.length
            // The validator skips the next valid stretch quickly; the scan pins down the error after it.
            let valid = validPrefix(of: input, from: position).end
            if valid == count { break }
            guard let next = firstInvalidSequence(in: input, from: valid) else {
                // Not reached, as above.
                return String(decoding: input, as: UTF8.self)
            }
            invalid = next
        }
        output.append(validUTF8: UnsafeBufferPointer(rebasing: input[position..<count]))
        return output.makeString()
    }

    // MARK: - Validation

    /// The DFA's states, each the bit offset of its 6-bit field in a transition row: the state after reading a byte
    /// in state `s` is `(row(byte) >> s) & 63`. The error state is 0, so a row's low field (all zero) keeps it
    /// there; the others name what the sequence still needs.
    private enum State {
        static let error: UInt64 = 0
        static let accept: UInt64 = 6
        /// One, two or three more continuation bytes (0x80-0xBF).
        static let needOne: UInt64 = 12
        static let needTwo: UInt64 = 18
        static let needThree: UInt64 = 24
        /// After E0: A0-BF, then one more (no overlongs).
        static let afterE0: UInt64 = 30
        /// After ED: 80-9F, then one more (no surrogates).
        static let afterED: UInt64 = 36
        /// After F0: 90-BF, then two more (no overlongs).
        static let afterF0: UInt64 = 42
        /// After F4: 80-8F, then two more (nothing above U+10FFFF).
        static let afterF4: UInt64 = 48
    }

    /// The DFA's transition rows, one per byte value (§8.1.1's bounds, as a table).
    private static let transitions: [UInt64] = (0..<256).map { (byte: Int) -> UInt64 in
        var row: UInt64 = 0
        func edge(_ from: UInt64, _ to: UInt64) { row |= to << from }
        switch byte {
        case 0x00...0x7F: edge(State.accept, State.accept)
        case 0xC2...0xDF: edge(State.accept, State.needOne)
        case 0xE0: edge(State.accept, State.afterE0)
        case 0xE1...0xEC, 0xEE, 0xEF: edge(State.accept, State.needTwo)
        case 0xED: edge(State.accept, State.afterED)
        case 0xF0: edge(State.accept, State.afterF0)
        case 0xF1...0xF3: edge(State.accept, State.needThree)
        case 0xF4: edge(State.accept, State.afterF4)
        default: break
        }
        if (0x80...0xBF).contains(byte) {
            edge(State.needOne, State.accept)
            edge(State.needTwo, State.needOne)
            edge(State.needThree, State.needTwo)
            edge(byte >= 0xA0 ? State.afterE0 : State.afterED, State.needOne)
            edge(byte >= 0x90 ? State.afterF0 : State.afterF4, State.needTwo)
        }
        return row
    }

    /// Validates `input` from `start` (a scalar boundary).
    ///
    /// Sixteen bytes at a time: a block of ASCII bytes is skipped; any other block is checked as a whole against the
    /// one, two and three bytes before each of its bytes, loaded from memory just before it (`SIMD16<UInt8>`
    /// comparisons, no tables): a byte must be a continuation byte exactly when one of those bytes is a lead byte
    /// whose sequence reaches it; C0, C1 and F5-FF never occur; and the byte after E0, ED, F0 and F4 is in the
    /// narrower range §8.1.1 gives (no overlongs, surrogates or code points above U+10FFFF). The first bytes (until
    /// three are behind) and the last (under sixteen) go through the DFA.
    ///
    /// - Returns: `end` is `input.count` when the rest is well-formed UTF-8; otherwise it is a scalar boundary at or
    ///   before the first invalid sequence, from which ``firstInvalidSequence(in:from:)`` finds it. `isASCII` is true
    ///   when the bytes from `start` to `end` are all ASCII.
    static func validPrefix(of input: UnsafeBufferPointer<UInt8>, from start: Int) -> (end: Int, isASCII: Bool) {
        guard let base = input.baseAddress, start < input.count else { return (input.count, true) }
        return transitions.withUnsafeBufferPointer { table in
            guard let rows = table.baseAddress, table.count == 256 else { return (start, false) }
            let count = input.count
            let raw = UnsafeRawPointer(base)
            var isASCII = true
            // The DFA until three bytes are behind, at a scalar boundary. The state sits in the low six bits; the
            // shift ignores the bits above (`&>>` masks its amount).
            var state = State.accept
            var index = start
            // The error state is absorbing: stop there, or every call on input with many errors would scan to the
            // end and decoding would be quadratic.
            while index < count && (index < start + 3 || state & 63 != State.accept) {
                let byte = base[index]
                if byte >= 0x80 { isASCII = false }
                state = rows[Int(byte)] &>> state
                index += 1
                if state & 63 == State.error { return (start, false) }
            }
            if index == count { return state & 63 == State.accept ? (count, isASCII) : (start, false) }
            /// A scalar boundary at or before `position` (past `start + 3`, in checked bytes): the last byte there
            /// that is not a continuation byte, at most three back.
            func boundary(before position: Int) -> Int {
                var candidate = position - 3
                while candidate > start && base[candidate] & 0xC0 == 0x80 { candidate -= 1 }
                return candidate
            }
            typealias Bytes = SIMD16<UInt8>
            let highBits: UInt64 = 0x8080_8080_8080_8080
            // Lanes whose byte starts a sequence that runs past the block (a lead byte in the last three lanes).
            let incompleteAbove = Bytes(
                0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xEF, 0xDF, 0xBF)
            var incomplete = SIMDMask<SIMD16<Int8>>(repeating: false)
            while index + 16 <= count {
                let low = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
                let high = raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
                if (low | high) & highBits == 0 {
                    // ASCII: valid, unless the block before ended inside a sequence.
                    if any(incomplete) { return (boundary(before: index), false) }
                    index += 16
                    continue
                }
                isASCII = false
                let bytes = raw.loadUnaligned(fromByteOffset: index, as: Bytes.self)
                let back1 = raw.loadUnaligned(fromByteOffset: index - 1, as: Bytes.self)
                let back2 = raw.loadUnaligned(fromByteOffset: index - 2, as: Bytes.self)
                let back3 = raw.loadUnaligned(fromByteOffset: index - 3, as: Bytes.self)
                let continuationExpected =
                    (back1 .>= Bytes(repeating: 0xC0)) .| (back2 .>= Bytes(repeating: 0xE0))
                    .| (back3 .>= Bytes(repeating: 0xF0))
                // 0x80-0xBF are the signed bytes below -64.
                let isContinuation = SIMD16<Int8>(truncatingIfNeeded: bytes) .< SIMD16<Int8>(repeating: -64)
                var errors = continuationExpected .^ isContinuation
                errors .|= bytes .>= Bytes(repeating: 0xF5)
                errors .|= bytes & Bytes(repeating: 0xFE) .== Bytes(repeating: 0xC0)
                errors .|= (back1 .== Bytes(repeating: 0xE0)) .& (bytes .< Bytes(repeating: 0xA0))
                errors .|= (back1 .== Bytes(repeating: 0xED)) .& (bytes .> Bytes(repeating: 0x9F))
                errors .|= (back1 .== Bytes(repeating: 0xF0)) .& (bytes .< Bytes(repeating: 0x90))
                errors .|= (back1 .== Bytes(repeating: 0xF4)) .& (bytes .> Bytes(repeating: 0x8F))
                if any(errors) { return (boundary(before: index), false) }
                incomplete = bytes .> incompleteAbove
                index += 16
            }
            // The rest through the DFA, from the start of the sequence (if any) that runs into it.
            let tail = boundary(before: index)
            state = State.accept
            index = tail
            while index < count {
                let byte = base[index]
                if byte >= 0x80 { isASCII = false }
                state = rows[Int(byte)] &>> state
                index += 1
                if state & 63 == State.error { break }
            }
            return index == count && state & 63 == State.accept ? (count, isASCII) : (tail, false)
        }
    }

    /// The number of bytes at the start of `input` below 0x80, sixteen at a time.
    static func asciiPrefixLength(_ input: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = input.baseAddress else { return 0 }
        let count = input.count
        let raw = UnsafeRawPointer(base)
        let highBits: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 16 <= count {
            let low = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let high = raw.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self)
            if (low | high) & highBits != 0 { break }
            index += 16
        }
        while index < count && base[index] < 0x80 { index += 1 }
        return index
    }

    /// Whether every byte of `bytes` is below 0x80.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        asciiPrefixLength(bytes) == bytes.count
    }

    /// The first invalid sequence at or after `start`: its offset and the length of its maximal subpart (at least
    /// 1), or `nil` when the rest of the input is valid UTF-8.
    static func firstInvalidSequence(
        in input: UnsafeBufferPointer<UInt8>, from start: Int
    ) -> (offset: Int, length: Int)? {
        guard let base = input.baseAddress else { return nil }
        let count = input.count
        var index = max(0, start)
        while index < count {
            // ASCII fast path: eight bytes at a time, then skip the ASCII bytes before the first non-ASCII one.
            if index + 8 <= count {
                let word = UInt64(littleEndian: UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self))
                let high = word & 0x8080_8080_8080_8080
                if high == 0 {
                    index += 8
                    continue
                }
                index += high.trailingZeroBitCount / 8
            }
            let lead = input[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            // §8.1.1: the bytes needed and the bounds of the first continuation byte, by lead byte.
            let needed: Int
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            switch lead {
            case 0xC2...0xDF: needed = 1
            case 0xE0:
                needed = 2
                lower = 0xA0
            case 0xE1...0xEC, 0xEE, 0xEF: needed = 2
            case 0xED:
                needed = 2
                upper = 0x9F
            case 0xF0:
                needed = 3
                lower = 0x90
            case 0xF1...0xF3: needed = 3
            case 0xF4:
                needed = 3
                upper = 0x8F
            default: return (index, 1)
            }
            var next = index + 1
            for _ in 0..<needed {
                guard next < count else { return (index, next - index) }
                let byte = input[next]
                guard byte >= lower && byte <= upper else { return (index, next - index) }
                lower = 0x80
                upper = 0xBF
                next += 1
            }
            index = next
        }
        return nil
    }
}
