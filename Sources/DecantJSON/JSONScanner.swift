/// A syntax error found by ``JSONScanner``: where, and why. Turned into a `SerializationError` with line, column
/// and an excerpt by ``JSONParser``.
struct JSONSyntaxError: Error {
    /// What was expected where the scanner stopped.
    enum Expectation {
        case value, valueOrArrayEnd, keyOrObjectEnd, key, colon, commaOrArrayEnd, commaOrObjectEnd
    }

    enum Reason {
        case empty
        case unexpected(Expectation)
        case invalidLiteral
        case leadingZero
        case missingIntegerDigits
        case missingFractionDigits
        case missingExponentDigits
        case invalidEscape
        case invalidUnicodeEscape
        case loneHighSurrogate
        case loneLowSurrogate
        case controlCharacter
        case unterminatedString
        case invalidUTF8
        case trailingContent
        case fragmentNotAllowed
        case depthExceeded(Int)
        case duplicateKey(length: Int)
        case spanTooLong
    }

    /// The byte offset in the UTF-8 text the scanner read.
    var offset: Int
    var reason: Reason
}

/// The RFC 8259 scanner: one pass over UTF-8 bytes that validates the grammar and writes the tape.
///
/// It never recurses: open containers live on an explicit stack, so the depth limit is the only bound on nesting.
/// Strings are unescaped in place (an escape is never shorter than what it stands for), so a string's bytes are a
/// span of the same buffer; numbers are validated and left as text, except integers that fit in 60 bits, which are
/// stored in the tape entry itself.
///
/// The buffer must hold at least ``padding`` zero bytes after `end`: every loop stops at a zero byte, and the 8-byte
/// loads near the end read into the padding instead of past the allocation.
struct JSONScanner: ~Copyable {
    static let padding = 32

    /// Copies `bytes` to `destination` (uninitialized, room for `bytes.count + padding`) followed by the ``padding``
    /// zero bytes the scanner needs after a text.
    static func initializePadded(_ destination: UnsafeMutablePointer<UInt8>, from bytes: UnsafeRawBufferPointer) {
        if let source = bytes.baseAddress, bytes.count > 0 {
            destination.initialize(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        }
        (destination + bytes.count).initialize(repeating: 0, count: padding)
    }

    private struct Frame {
        var header: Int
        var count: Int
        var keyStart: Int
        var isObject: Bool
        var sawNull: Bool
    }

    let p: UnsafeMutablePointer<UInt8>
    /// The end of the text being scanned (``scanText(from:to:)`` moves it from text to text).
    private(set) var end: Int
    let maxDepth: Int
    let rejectsDuplicates: Bool
    let removesNulls: Bool
    let allowsFragments: Bool

    private(set) var tape: UnsafeMutablePointer<UInt64>
    private(set) var tapeCount = 0
    private var tapeCapacity: Int
    private var frames: UnsafeMutablePointer<Frame>
    private var frameCapacity = 16
    private var hashes: UnsafeMutablePointer<UInt64>
    private var hashCount = 0
    private var hashCapacity = 64
    /// An open-addressing set of key hashes, for duplicate detection in objects with more than 16 members.
    private var slots: UnsafeMutablePointer<UInt64>
    private var slotCapacity = 0

    init(bytes: UnsafeMutablePointer<UInt8>, count: Int, options: JSONParsingOptions) {
        p = bytes
        end = count
        maxDepth = options.maxDepth
        rejectsDuplicates = options.duplicateKeys == .reject
        removesNulls = options.removesKeysWithNullValues
        allowsFragments = options.allowsFragments
        tapeCapacity = max(16, count / 8)
        tape = .allocate(capacity: tapeCapacity)
        frames = .allocate(capacity: frameCapacity)
        hashes = .allocate(capacity: hashCapacity)
        slots = .allocate(capacity: 0)
    }

    deinit {
        tape.deallocate()
        freeWorkspace()
    }

    /// Frees the buffers that only the scan uses (everything but the tape).
    private func freeWorkspace() {
        frames.deallocate()
        hashes.deallocate()
        slots.deallocate()
    }

    /// Ends the scan and hands over the tape, for a ``JSONStorage`` to own: the scanner's own buffer when it is at
    /// most about half empty, otherwise a copy of exactly the tape's size (so a value never keeps more than twice
    /// its tape, or a few kilobytes, alive).
    consuming func takeTape() -> UnsafeMutableBufferPointer<UInt64> {
        freeWorkspace()
        let tape = self.tape
        let count = tapeCount
        let spare = tapeCapacity - count
        discard self
        guard spare > max(count, 512) else { return UnsafeMutableBufferPointer(start: tape, count: count) }
        let exact = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: count)
        exact.baseAddress!.moveInitialize(from: tape, count: count)
        tape.deallocate()
        return exact
    }

    // MARK: Loads

    @inline(__always) private func load64(_ index: Int) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(p + index).loadUnaligned(as: UInt64.self))
    }

    @inline(__always) private func load32(_ index: Int) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(p + index).loadUnaligned(as: UInt32.self))
    }

    @inline(__always) private func store64(_ index: Int, _ value: UInt64) {
        UnsafeMutableRawPointer(p + index).storeBytes(of: value.littleEndian, as: UInt64.self)
    }

    // MARK: Tape

    @inline(__always) private mutating func append(_ entry: UInt64) {
        if tapeCount == tapeCapacity { growTape() }
        tape[tapeCount] = entry
        tapeCount &+= 1
    }

    private mutating func growTape() {
        let capacity = tapeCapacity * 2
        let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        grown.moveInitialize(from: tape, count: tapeCount)
        tape.deallocate()
        tape = grown
        tapeCapacity = capacity
    }

    @inline(__always) private mutating func appendSpan(kind: UInt64, offset: Int, length: Int) throws(JSONSyntaxError) {
        guard length <= Tape.maxSpanLength else { throw JSONSyntaxError(offset: offset, reason: .spanTooLong) }
        append(Tape.span(kind: kind, offset: offset, length: length))
    }

    // MARK: Whitespace (RFC 8259 §2: space, tab, line feed, carriage return)

    @inline(__always) private func skipWhitespace(_ index: Int) -> Int {
        p[index] > 0x20 ? index : skipWhitespaceRun(index)
    }

    private func skipWhitespaceRun(_ start: Int) -> Int {
        var index = start
        while true {
            let byte = p[index]
            if byte == 0x20 {
                let spaces = load64(index) ^ 0x2020_2020_2020_2020
                index &+= spaces == 0 ? 8 : spaces.trailingZeroBitCount &>> 3
            } else if byte == 0x0A || byte == 0x0D || byte == 0x09 {
                index &+= 1
            } else {
                return index
            }
        }
    }

    // MARK: Document

    /// Scans one more text of a buffer that holds several, each followed by ``padding`` zero bytes: the text between
    /// `start` and `stop`, appended to the tape after the texts scanned before. Returns the tape index of its root;
    /// after an error the tape is as it was, so the next text can be scanned.
    mutating func scanText(from start: Int, to stop: Int) throws(JSONSyntaxError) -> Int {
        let root = tapeCount
        end = stop
        hashCount = 0
        do {
            try scan(startingAt: start)
        } catch {
            tapeCount = root
            hashCount = 0
            throw error
        }
        return root
    }

    /// Scans the whole text (from `start`, 0 for a buffer of one text).
    mutating func scan(startingAt start: Int = 0) throws(JSONSyntaxError) {
        var i = skipWhitespace(start)
        if i >= end { throw JSONSyntaxError(offset: i, reason: .empty) }
        if !allowsFragments && p[i] != UInt8(ascii: "[") && p[i] != UInt8(ascii: "{") {
            throw JSONSyntaxError(offset: i, reason: .fragmentNotAllowed)
        }
        var depth = 0
        var header = -1
        var count = 0
        var keyStart = 0
        var isObject = false
        var sawNull = false

        value: while true {
            // `i` is at the first byte of a value.
            let byte = p[i]
            switch byte {
            case UInt8(ascii: "\""):
                var length = 0
                let next = try scanString(i &+ 1, length: &length)
                try appendSpan(kind: Tape.stringKind, offset: i &+ 1, length: length)
                i = next
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"):
                i = try scanNumber(i)
            case UInt8(ascii: "["), UInt8(ascii: "{"):
                if depth == maxDepth { throw JSONSyntaxError(offset: i, reason: .depthExceeded(maxDepth)) }
                if depth == frameCapacity { growFrames() }
                frames[depth] = Frame(
                    header: header, count: count, keyStart: keyStart, isObject: isObject, sawNull: sawNull)
                depth &+= 1
                header = tapeCount
                append(0)
                count = 0
                keyStart = hashCount
                sawNull = false
                isObject = byte == UInt8(ascii: "{")
                i = skipWhitespace(i &+ 1)
                if isObject {
                    if p[i] == UInt8(ascii: "\"") {
                        i = try scanKey(i)
                        continue value
                    }
                    if p[i] != UInt8(ascii: "}") {
                        throw JSONSyntaxError(offset: i, reason: .unexpected(.keyOrObjectEnd))
                    }
                } else if p[i] != UInt8(ascii: "]") {
                    continue value
                }
                // An empty container: close it at once.
                i &+= 1
                tape[header] = Tape.container(kind: isObject ? Tape.objectKind : Tape.arrayKind, size: 1, count: 0)
                depth &-= 1
                let frame = frames[depth]
                header = frame.header
                count = frame.count
                keyStart = frame.keyStart
                isObject = frame.isObject
                sawNull = frame.sawNull
            case UInt8(ascii: "t"):
                guard load32(i) == 0x6575_7274 else { throw JSONSyntaxError(offset: i, reason: .invalidLiteral) }
                append(Tape.true)
                i &+= 4
            case UInt8(ascii: "f"):
                guard load32(i &+ 1) == 0x6573_6C61 else {
                    throw JSONSyntaxError(offset: i, reason: .invalidLiteral)
                }
                append(Tape.false)
                i &+= 5
            case UInt8(ascii: "n"):
                guard load32(i) == 0x6C6C_756E else { throw JSONSyntaxError(offset: i, reason: .invalidLiteral) }
                append(Tape.null)
                sawNull = true
                i &+= 4
            default:
                throw JSONSyntaxError(
                    offset: i, reason: .unexpected(header >= 0 && !isObject && count == 0 ? .valueOrArrayEnd : .value))
            }

            // A value is complete: continue or close the containers around it.
            while true {
                if depth == 0 { break value }
                count &+= 1
                i = skipWhitespace(i)
                let next = p[i]
                if next == UInt8(ascii: ",") {
                    i = skipWhitespace(i &+ 1)
                    if isObject {
                        guard p[i] == UInt8(ascii: "\"") else {
                            throw JSONSyntaxError(offset: i, reason: .unexpected(.key))
                        }
                        i = try scanKey(i)
                    }
                    continue value
                }
                if isObject {
                    guard next == UInt8(ascii: "}") else {
                        throw JSONSyntaxError(offset: i, reason: .unexpected(.commaOrObjectEnd))
                    }
                    tape[header] = Tape.container(kind: Tape.objectKind, size: tapeCount &- header, count: count)
                    if count > 1 || (sawNull && removesNulls) {
                        try finishObject(header: header, count: count, keyStart: keyStart, sawNull: sawNull)
                    }
                    hashCount = keyStart
                } else {
                    guard next == UInt8(ascii: "]") else {
                        throw JSONSyntaxError(offset: i, reason: .unexpected(.commaOrArrayEnd))
                    }
                    tape[header] = Tape.container(kind: Tape.arrayKind, size: tapeCount &- header, count: count)
                }
                i &+= 1
                depth &-= 1
                let frame = frames[depth]
                header = frame.header
                count = frame.count
                keyStart = frame.keyStart
                isObject = frame.isObject
                sawNull = frame.sawNull
            }
        }
        i = skipWhitespace(i)
        if i < end { throw JSONSyntaxError(offset: i, reason: .trailingContent) }
    }

    private mutating func growFrames() {
        let capacity = frameCapacity * 2
        let grown = UnsafeMutablePointer<Frame>.allocate(capacity: capacity)
        grown.moveInitialize(from: frames, count: frameCapacity)
        frames.deallocate()
        frames = grown
        frameCapacity = capacity
    }

    /// Scans a key at `start` (its opening quote), records its hash, and the `:` after it; returns the index of the
    /// member's value.
    @inline(__always) private mutating func scanKey(_ start: Int) throws(JSONSyntaxError) -> Int {
        var length = 0
        var i = try scanString(start &+ 1, length: &length)
        try appendSpan(kind: Tape.stringKind, offset: start &+ 1, length: length)
        if hashCount == hashCapacity { growHashes() }
        hashes[hashCount] = hashKey(start &+ 1, length)
        hashCount &+= 1
        if p[i] != UInt8(ascii: ":") {
            i = skipWhitespace(i)
            guard p[i] == UInt8(ascii: ":") else { throw JSONSyntaxError(offset: i, reason: .unexpected(.colon)) }
        }
        return skipWhitespace(i &+ 1)
    }

    private mutating func growHashes() {
        let capacity = hashCapacity * 2
        let grown = UnsafeMutablePointer<UInt64>.allocate(capacity: capacity)
        grown.moveInitialize(from: hashes, count: hashCount)
        hashes.deallocate()
        hashes = grown
        hashCapacity = capacity
    }

    /// A 64-bit hash of a key's bytes, for finding duplicate keys (equal hashes are then compared byte by byte).
    @inline(__always) private func hashKey(_ start: Int, _ length: Int) -> UInt64 {
        var hash = UInt64(truncatingIfNeeded: length) &* 0x9E37_79B9_7F4A_7C15
        var index = start
        let stop = start &+ length
        while index &+ 8 <= stop {
            hash = (hash ^ load64(index)) &* 0xFF51_AFD7_ED55_8CCD
            hash ^= hash &>> 29
            index &+= 8
        }
        if index < stop {
            let tail = load64(index) & ((1 &<< UInt64(truncatingIfNeeded: (stop &- index) &* 8)) &- 1)
            hash = (hash ^ tail) &* 0xC4CE_B9FE_1A85_EC53
        }
        return hash ^ (hash &>> 32)
    }

    // MARK: Strings (RFC 8259 §7)

    /// A mask with the high bit set in each byte of `word` that ends a run of plain string bytes: `"`, `\`, a
    /// control character or a non-ASCII byte. Bits above the lowest set one may be false positives.
    @inline(__always) private static func specialBytes(_ word: UInt64) -> UInt64 {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let quotes = word ^ (ones &* 0x22)
        let backslashes = word ^ (ones &* 0x5C)
        let quote = (quotes &- ones) & ~quotes
        let backslash = (backslashes &- ones) & ~backslashes
        let control = (word &- ones &* 0x20) & ~word
        return (quote | backslash | control | word) & 0x8080_8080_8080_8080
    }

    /// Scans string content from `start` (just after the opening quote) to the closing quote; returns the index after
    /// it and sets `length` to the number of unescaped bytes, which start at `start`.
    @inline(__always) private mutating func scanString(
        _ start: Int, length: inout Int
    ) throws(JSONSyntaxError) -> Int {
        var r = start
        while true {
            let special = Self.specialBytes(load64(r))
            if special == 0 {
                r &+= 8
                continue
            }
            r &+= special.trailingZeroBitCount &>> 3
            let byte = p[r]
            if byte == UInt8(ascii: "\"") {
                length = r &- start
                return r &+ 1
            }
            if byte >= 0x80 {
                r = try validateUTF8(r)
            } else if byte == UInt8(ascii: "\\") {
                return try scanEscapedString(start, from: r, length: &length)
            } else {
                throw JSONSyntaxError(offset: r, reason: r >= end ? .unterminatedString : .controlCharacter)
            }
        }
    }

    /// Validates the UTF-8 sequence whose lead byte (≥ 0x80) is at `index` (RFC 3629 §4: no overlong forms, no
    /// surrogates, nothing above U+10FFFF); returns the index after it.
    @inline(__always) private func validateUTF8(_ index: Int) throws(JSONSyntaxError) -> Int {
        let b0 = p[index]
        let b1 = p[index &+ 1]
        if b0 < 0xE0 {
            guard b0 >= 0xC2, b1 & 0xC0 == 0x80 else { throw JSONSyntaxError(offset: index, reason: .invalidUTF8) }
            return index &+ 2
        }
        let b2 = p[index &+ 2]
        if b0 < 0xF0 {
            guard b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80, b0 != 0xE0 || b1 >= 0xA0, b0 != 0xED || b1 < 0xA0 else {
                throw JSONSyntaxError(offset: index, reason: .invalidUTF8)
            }
            return index &+ 3
        }
        let b3 = p[index &+ 3]
        guard b0 <= 0xF4, b1 & 0xC0 == 0x80, b2 & 0xC0 == 0x80, b3 & 0xC0 == 0x80, b0 != 0xF0 || b1 >= 0x90,
            b0 != 0xF4 || b1 < 0x90
        else { throw JSONSyntaxError(offset: index, reason: .invalidUTF8) }
        return index &+ 4
    }

    /// The rest of a string that has an escape at `from`: unescapes in place, writing behind the read position.
    private mutating func scanEscapedString(
        _ start: Int, from: Int, length: inout Int
    ) throws(JSONSyntaxError) -> Int {
        var r = from
        var w = from
        while true {
            let byte = p[r]
            if byte == UInt8(ascii: "\\") {
                let escaped = p[r &+ 1]
                var replacement: UInt8 = 0
                switch escaped {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): replacement = escaped
                case UInt8(ascii: "b"): replacement = 0x08
                case UInt8(ascii: "f"): replacement = 0x0C
                case UInt8(ascii: "n"): replacement = 0x0A
                case UInt8(ascii: "r"): replacement = 0x0D
                case UInt8(ascii: "t"): replacement = 0x09
                case UInt8(ascii: "u"):
                    guard let unit = hex4(r &+ 2) else {
                        var digit = r &+ 2
                        while digit < r &+ 6 && hex4Digit(p[digit]) != nil { digit &+= 1 }
                        throw JSONSyntaxError(
                            offset: r, reason: digit >= end ? .unterminatedString : .invalidUnicodeEscape)
                    }
                    var scalar = unit
                    if unit & 0xFC00 == 0xD800 {
                        guard p[r &+ 6] == UInt8(ascii: "\\"), p[r &+ 7] == UInt8(ascii: "u"),
                            let low = hex4(r &+ 8), low & 0xFC00 == 0xDC00
                        else { throw JSONSyntaxError(offset: r, reason: .loneHighSurrogate) }
                        scalar = 0x10000 &+ ((unit &- 0xD800) &<< 10) &+ (low &- 0xDC00)
                        r &+= 12
                    } else if unit & 0xFC00 == 0xDC00 {
                        throw JSONSyntaxError(offset: r, reason: .loneLowSurrogate)
                    } else {
                        r &+= 6
                    }
                    w = writeUTF8(scalar, at: w)
                    continue
                default:
                    throw JSONSyntaxError(offset: r, reason: r &+ 1 >= end ? .unterminatedString : .invalidEscape)
                }
                p[w] = replacement
                w &+= 1
                r &+= 2
                continue
            }
            if byte == UInt8(ascii: "\"") {
                length = w &- start
                return r &+ 1
            }
            if byte >= 0x80 {
                let next = try validateUTF8(r)
                while r < next {
                    p[w] = p[r]
                    w &+= 1
                    r &+= 1
                }
                continue
            }
            if byte < 0x20 {
                throw JSONSyntaxError(offset: r, reason: r >= end ? .unterminatedString : .controlCharacter)
            }
            // A run of plain bytes: move it 8 at a time while a whole word is plain.
            let word = load64(r)
            let special = Self.specialBytes(word)
            if special == 0 {
                store64(w, word)
                w &+= 8
                r &+= 8
                continue
            }
            let plain = special.trailingZeroBitCount &>> 3
            for offset in 0..<plain { p[w &+ offset] = p[r &+ offset] }
            w &+= plain
            r &+= plain
        }
    }

    /// The value of the four hexadecimal digits at `index`, or `nil`.
    @inline(__always) private func hex4(_ index: Int) -> UInt32? {
        var value: UInt32 = 0
        for offset in 0..<4 {
            guard let digit = hex4Digit(p[index &+ offset]) else { return nil }
            value = value &<< 4 | digit
        }
        return value
    }

    /// The value of one hexadecimal digit, or `nil`.
    @inline(__always) private func hex4Digit(_ byte: UInt8) -> UInt32? {
        if byte &- 0x30 < 10 { return UInt32(byte &- 0x30) }
        let lower = byte | 0x20
        if lower &- 0x61 < 6 { return UInt32(lower &- 0x61 &+ 10) }
        return nil
    }

    /// Writes `scalar` as UTF-8 at `index`; returns the index after it.
    @inline(__always) private func writeUTF8(_ scalar: UInt32, at index: Int) -> Int {
        if scalar < 0x80 {
            p[index] = UInt8(truncatingIfNeeded: scalar)
            return index &+ 1
        }
        if scalar < 0x800 {
            p[index] = UInt8(truncatingIfNeeded: 0xC0 | scalar &>> 6)
            p[index &+ 1] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return index &+ 2
        }
        if scalar < 0x10000 {
            p[index] = UInt8(truncatingIfNeeded: 0xE0 | scalar &>> 12)
            p[index &+ 1] = UInt8(truncatingIfNeeded: 0x80 | (scalar &>> 6) & 0x3F)
            p[index &+ 2] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
            return index &+ 3
        }
        p[index] = UInt8(truncatingIfNeeded: 0xF0 | scalar &>> 18)
        p[index &+ 1] = UInt8(truncatingIfNeeded: 0x80 | (scalar &>> 12) & 0x3F)
        p[index &+ 2] = UInt8(truncatingIfNeeded: 0x80 | (scalar &>> 6) & 0x3F)
        p[index &+ 3] = UInt8(truncatingIfNeeded: 0x80 | scalar & 0x3F)
        return index &+ 4
    }

    // MARK: Numbers (RFC 8259 §6)

    /// Whether all eight bytes of `word` are ASCII digits.
    @inline(__always) private static func eightDigits(_ word: UInt64) -> Bool {
        let high = word & 0xF0F0_F0F0_F0F0_F0F0
        let carried = (word &+ 0x0606_0606_0606_0606) & 0xF0F0_F0F0_F0F0_F0F0
        return high == 0x3030_3030_3030_3030 && carried == 0x3030_3030_3030_3030
    }

    @inline(__always) private func skipDigits(_ start: Int) -> Int {
        var index = start
        while Self.eightDigits(load64(index)) { index &+= 8 }
        while p[index] &- 0x30 < 10 { index &+= 1 }
        return index
    }

    /// Scans the number at `start` and appends it; returns the index after it.
    @inline(__always) private mutating func scanNumber(_ start: Int) throws(JSONSyntaxError) -> Int {
        var r = start
        let negative = p[r] == UInt8(ascii: "-")
        if negative { r &+= 1 }
        let firstDigit = r
        var byte = p[r]
        var magnitude: UInt64 = 0
        if byte == UInt8(ascii: "0") {
            r &+= 1
            byte = p[r]
            if byte &- 0x30 < 10 { throw JSONSyntaxError(offset: firstDigit, reason: .leadingZero) }
        } else if byte &- 0x31 < 9 {
            repeat {
                magnitude = magnitude &* 10 &+ UInt64(byte &- 0x30)
                r &+= 1
                byte = p[r]
            } while byte &- 0x30 < 10
        } else {
            throw JSONSyntaxError(offset: r, reason: .missingIntegerDigits)
        }
        if byte != UInt8(ascii: ".") && byte | 0x20 != UInt8(ascii: "e") {
            if r &- firstDigit <= 18 && (magnitude != 0 || !negative) {
                let value = negative ? -Int64(bitPattern: magnitude) : Int64(bitPattern: magnitude)
                if Tape.inlineIntegerRange.contains(value) {
                    append(Tape.integer(value))
                    return r
                }
            }
            try appendSpan(kind: Tape.numberKind, offset: start, length: r &- start)
            return r
        }
        if byte == UInt8(ascii: ".") {
            r &+= 1
            guard p[r] &- 0x30 < 10 else { throw JSONSyntaxError(offset: r, reason: .missingFractionDigits) }
            r = skipDigits(r)
            byte = p[r]
        }
        if byte | 0x20 == UInt8(ascii: "e") {
            r &+= 1
            if p[r] == UInt8(ascii: "+") || p[r] == UInt8(ascii: "-") { r &+= 1 }
            guard p[r] &- 0x30 < 10 else { throw JSONSyntaxError(offset: r, reason: .missingExponentDigits) }
            r = skipDigits(r)
        }
        try appendSpan(kind: Tape.numberKind, offset: start, length: r &- start)
        return r
    }

    // MARK: Duplicate keys and null members

    /// Checks a closed object (its header already written) for duplicate keys and, when asked, null members; applies
    /// the duplicate-key policy and removes null members by rewriting the object's entries.
    private mutating func finishObject(header: Int, count: Int, keyStart: Int, sawNull: Bool) throws(JSONSyntaxError) {
        var maybeDuplicate = false
        if count > 1 {
            let keyHashes = UnsafeMutableBufferPointer(start: hashes + keyStart, count: count)
            if count <= 16 {
                search: for i in 1..<count {
                    let hash = keyHashes[i]
                    for j in 0..<i where keyHashes[j] == hash {
                        maybeDuplicate = true
                        break search
                    }
                }
            } else {
                maybeDuplicate = containsEqualHashes(keyHashes)
            }
        }
        guard maybeDuplicate || (sawNull && removesNulls) else { return }
        try rewriteObject(header: header)
    }

    /// Whether two of `keyHashes` are equal: a hash set at most a quarter full, in linear time. When the probes run
    /// long (hashes crafted to collide), sorting decides instead, so the worst case stays O(n log n).
    private mutating func containsEqualHashes(_ keyHashes: UnsafeMutableBufferPointer<UInt64>) -> Bool {
        let count = keyHashes.count
        let capacity = 1 << (Int.bitWidth - (count &* 4 &- 1).leadingZeroBitCount)
        if capacity > slotCapacity {
            slots.deallocate()
            slots = .allocate(capacity: capacity)
            slotCapacity = capacity
        }
        slots.update(repeating: 0, count: capacity)
        let mask = capacity &- 1
        var budget = count &* 8
        for hash in keyHashes {
            let stored = hash | 1
            var slot = Int(truncatingIfNeeded: (stored &* 0x9E37_79B9_7F4A_7C15) &>> 40) & mask
            while true {
                let existing = slots[slot]
                if existing == 0 {
                    slots[slot] = stored
                    break
                }
                if existing == stored { return true }
                budget &-= 1
                if budget < 0 {
                    var sorted = keyHashes
                    sorted.sort()
                    return (1..<count).contains { sorted[$0] == sorted[$0 &- 1] }
                }
                slot = (slot &+ 1) & mask
            }
        }
        return false
    }

    /// The rare path: resolves duplicate keys (first position, last value; or an error) and removes null members.
    private mutating func rewriteObject(header: Int) throws(JSONSyntaxError) {
        struct Member {
            var key: Int
            var valueStart: Int
            var valueEnd: Int
        }
        var members: [Member] = []
        var index = header &+ 1
        while index < tapeCount {
            let valueStart = index &+ 1
            let valueEnd = valueStart &+ Tape.width(tape[valueStart])
            members.append(Member(key: index, valueStart: valueStart, valueEnd: valueEnd))
            index = valueEnd
        }
        func keyBytes(_ member: Member) -> [UInt8] {
            let entry = tape[member.key]
            return Array(UnsafeBufferPointer(start: p + Tape.offset(entry), count: Tape.length(entry)))
        }
        var resolved: [Member] = []
        var positions: [[UInt8]: Int] = [:]
        for member in members {
            let key = keyBytes(member)
            if let position = positions[key] {
                if rejectsDuplicates {
                    let entry = tape[member.key]
                    throw JSONSyntaxError(
                        offset: Tape.offset(entry) &- 1, reason: .duplicateKey(length: Tape.length(entry)))
                }
                resolved[position].valueStart = member.valueStart
                resolved[position].valueEnd = member.valueEnd
            } else {
                positions[key] = resolved.count
                resolved.append(member)
            }
        }
        if removesNulls {
            resolved.removeAll { tape[$0.valueStart] == Tape.null }
        }
        var entries: [UInt64] = []
        entries.reserveCapacity(tapeCount &- header)
        for member in resolved {
            entries.append(tape[member.key])
            for position in member.valueStart..<member.valueEnd { entries.append(tape[position]) }
        }
        for (offset, entry) in entries.enumerated() { tape[header &+ 1 &+ offset] = entry }
        tapeCount = header &+ 1 &+ entries.count
        tape[header] = Tape.container(kind: Tape.objectKind, size: tapeCount &- header, count: resolved.count)
    }
}
