/// The immutable storage behind every ``JSONValue``: one tape of 64-bit entries and one byte buffer.
///
/// The tape lists the values of a document in document order (a pre-order walk). Each entry packs a kind in its top
/// four bits and a 60-bit payload:
///
/// | kind | payload |
/// |---|---|
/// | null, false, true | unused |
/// | integer | the value, a 60-bit two's complement integer (integers written without fraction or exponent) |
/// | number | the byte offset (32 bits) and length (28 bits) of the number's text in ``bytes`` |
/// | string | the byte offset (32 bits) and length (28 bits) of the unescaped UTF-8 in ``bytes`` |
/// | array, object | the entry count of the container including its header (32 bits), and its element or member
///   count (28 bits, saturated) |
///
/// An array's elements follow its header; an object's members follow as a key (a string entry) then the value.
/// Because containers store a relative size rather than an absolute end, any subtree can be copied or moved as a
/// block; a `Decoder` walks the same tape with plain indices, without building intermediate values.
///
/// The storage owns its two buffers (allocated, not `Array`s): the parser hands over the scanner's tape and its padded
/// copy of the body as they are, so a parse makes no array and copies no tape. `@unchecked Sendable` because the
/// buffers are written only before the storage is made and freed only when it goes; every index into them comes
/// from the tape the scanner wrote (the fuzz targets run under the address sanitizer to prove it).
final class JSONStorage: @unchecked Sendable {
    /// The entries.
    let tape: UnsafeBufferPointer<UInt64>
    /// Unescaped string bytes and number texts, addressed by offset and length from the tape. For a parsed body,
    /// the body itself (strings without escapes are not copied), followed by the scanner's padding.
    let bytes: UnsafeBufferPointer<UInt8>

    /// A storage with copies of `tape` and `bytes`.
    convenience init(tape: [UInt64], bytes: [UInt8]) {
        let ownTape = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: tape.count)
        _ = ownTape.initialize(from: tape)
        let ownBytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: bytes.count)
        _ = ownBytes.initialize(from: bytes)
        self.init(adoptingTape: ownTape, bytes: ownBytes)
    }

    /// A storage that owns `tape` and `bytes` (both initialised and allocated with `allocate(capacity:)`) and
    /// frees them when it goes.
    init(adoptingTape tape: UnsafeMutableBufferPointer<UInt64>, bytes: UnsafeMutableBufferPointer<UInt8>) {
        self.tape = UnsafeBufferPointer(tape)
        self.bytes = UnsafeBufferPointer(bytes)
    }

    deinit {
        tape.deallocate()
        bytes.deallocate()
    }

    static let null = JSONStorage(tape: [Tape.null], bytes: [])
    static let `false` = JSONStorage(tape: [Tape.false], bytes: [])
    static let `true` = JSONStorage(tape: [Tape.true], bytes: [])
}

/// The tape entry layout (see ``JSONStorage``).
enum Tape {
    static let kindShift: UInt64 = 60
    static let nullKind: UInt64 = 0
    static let falseKind: UInt64 = 1
    static let trueKind: UInt64 = 2
    static let integerKind: UInt64 = 3
    static let numberKind: UInt64 = 4
    static let stringKind: UInt64 = 5
    static let arrayKind: UInt64 = 6
    static let objectKind: UInt64 = 7

    static let null: UInt64 = nullKind << kindShift
    static let `false`: UInt64 = falseKind << kindShift
    static let `true`: UInt64 = trueKind << kindShift

    /// The largest length a string or number span can have (28 bits).
    static let maxSpanLength = (1 << 28) - 1
    /// The largest count a container header records; larger counts are recomputed by walking.
    static let saturatedCount = (1 << 28) - 1
    /// The largest offset (32 bits); documents are limited to this many bytes.
    static let maxOffset = Int(UInt32.max)
    /// The smallest and largest integers stored inline.
    static let inlineIntegerRange: ClosedRange<Int64> = -(1 << 59)...((1 << 59) - 1)

    @inline(__always) static func kind(_ entry: UInt64) -> UInt64 { entry >> kindShift }

    @inline(__always) static func span(kind: UInt64, offset: Int, length: Int) -> UInt64 {
        kind << kindShift | UInt64(truncatingIfNeeded: offset) << 28 | UInt64(truncatingIfNeeded: length)
    }

    @inline(__always) static func offset(_ entry: UInt64) -> Int {
        Int(truncatingIfNeeded: (entry >> 28) & 0xFFFF_FFFF)
    }
    @inline(__always) static func length(_ entry: UInt64) -> Int { Int(truncatingIfNeeded: entry & 0x0FFF_FFFF) }

    @inline(__always) static func integer(_ value: Int64) -> UInt64 {
        integerKind << kindShift | (UInt64(bitPattern: value) & 0x0FFF_FFFF_FFFF_FFFF)
    }

    @inline(__always) static func integerValue(_ entry: UInt64) -> Int64 { Int64(bitPattern: entry << 4) >> 4 }

    @inline(__always) static func container(kind: UInt64, size: Int, count: Int) -> UInt64 {
        kind << kindShift | UInt64(truncatingIfNeeded: size) << 28
            | UInt64(truncatingIfNeeded: min(count, saturatedCount))
    }

    /// The number of tape entries of the container (header included).
    @inline(__always) static func size(_ entry: UInt64) -> Int { Int(truncatingIfNeeded: (entry >> 28) & 0xFFFF_FFFF) }
    @inline(__always) static func count(_ entry: UInt64) -> Int { Int(truncatingIfNeeded: entry & 0x0FFF_FFFF) }

    /// The number of tape entries of the value whose entry is `entry`.
    @inline(__always) static func width(_ entry: UInt64) -> Int {
        kind(entry) >= arrayKind ? size(entry) : 1
    }
}

extension JSONStorage {
    /// The index just past the value at `index`.
    @inline(__always) func end(of index: Int) -> Int { index + Tape.width(tape[index]) }

    /// The number of elements or members of the container at `index`.
    func count(of index: Int) -> Int {
        let entry = tape[index]
        let stored = Tape.count(entry)
        guard stored == Tape.saturatedCount else { return stored }
        let isObject = Tape.kind(entry) == Tape.objectKind
        var position = index + 1
        let end = index + Tape.size(entry)
        var counted = 0
        while position < end {
            if isObject { position += 1 }
            position = self.end(of: position)
            counted += 1
        }
        return counted
    }

    /// The bytes of the string or number at `index`.
    @inline(__always) func withSpan<R>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        let entry = tape[index]
        let offset = Tape.offset(entry)
        let length = Tape.length(entry)
        return try body(UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]))
    }

    /// The string at `index` (a string entry).
    func string(at index: Int) -> String {
        withSpan(at: index) { String(decoding: $0, as: UTF8.self) }
    }

    /// Whether the key at `index` has exactly the UTF-8 bytes of `key`.
    @inline(__always) func keyEquals(at index: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        let entry = tape[index]
        guard Tape.length(entry) == key.count else { return false }
        return withSpan(at: index) { span in JSONBytes.equal(span, key) }
    }
}

/// Byte helpers shared by the parser, the storage and the writer.
enum JSONBytes {
    /// Whether two byte buffers hold the same bytes.
    @inline(__always) static func equal(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        guard a.count == b.count else { return false }
        guard let pa = a.baseAddress, let pb = b.baseAddress else { return true }
        var index = 0
        let count = a.count
        while index + 8 <= count {
            let wa = UnsafeRawPointer(pa + index).loadUnaligned(as: UInt64.self)
            let wb = UnsafeRawPointer(pb + index).loadUnaligned(as: UInt64.self)
            if wa != wb { return false }
            index += 8
        }
        while index < count {
            if pa[index] != pb[index] { return false }
            index += 1
        }
        return true
    }

    /// Orders byte buffers lexicographically (which is code point order for UTF-8).
    static func less(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = min(a.count, b.count)
        var index = 0
        while index < count {
            if a[index] != b[index] { return a[index] < b[index] }
            index += 1
        }
        return a.count < b.count
    }
}
