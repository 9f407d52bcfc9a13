#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One data item of a tape: where its head is and where its subtree ends (8 bytes, as a JSON tape entry). What the
/// item is, its length or count and its value are read again from its head when asked for; nothing but the entries
/// is made while parsing.
struct CBORTapeEntry {
    /// What an entry is: the major type, split where reading differs (derived from the head, not stored).
    enum Kind: UInt8 {
        case unsignedInteger, negativeInteger, bytes, text, byteChunks, textChunks, array, map, tag
        case simple, falseValue, trueValue, null, undefined, float
    }

    /// The byte offset of the item's head in the body.
    var offset: UInt32
    /// The index of the entry after the item and everything it contains.
    var end: UInt32
}

/// The tape reader's growing entries, managed by hand (no uniqueness check per append); the owner calls
/// ``release()`` once, on success and on failure alike.
struct CBORTapeBuffer {
    private(set) var storage: UnsafeMutablePointer<CBORTapeEntry>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        storage = .allocate(capacity: self.capacity)
    }

    func release() {
        storage.deallocate()
    }

    @inline(__always)
    mutating func append(_ entry: CBORTapeEntry) {
        if count == capacity { grow() }
        (storage + count).initialize(to: entry)
        count &+= 1
    }

    private mutating func grow() {
        let larger = capacity * 2
        let moved = UnsafeMutablePointer<CBORTapeEntry>.allocate(capacity: larger)
        moved.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = moved
        capacity = larger
    }

    /// The entry at `index` (below ``count``).
    @inline(__always)
    subscript(index: Int) -> CBORTapeEntry {
        get { storage[index] }
        nonmutating set { storage[index] = newValue }
    }

    /// The entries as a buffer (valid until the next append).
    var buffer: UnsafeBufferPointer<CBORTapeEntry> { UnsafeBufferPointer(start: storage, count: count) }

    /// Hands the entries over to the caller (a ``CBORTape``, which frees them), leaving this buffer empty.
    mutating func takeEntries() -> UnsafeBufferPointer<CBORTapeEntry> {
        let taken = buffer
        capacity = 16
        storage = .allocate(capacity: capacity)
        count = 0
        return taken
    }

}

/// A parsed body and its tape: the entries of every data item in document order, each container followed by its
/// items (a map's keys and values alternating). Immutable once built, shared by every ``CBORItem`` of the body.
final class CBORTape: @unchecked Sendable {
    // Unchecked only because of the entries' pointer: the tape owns that memory, writes it only before `init`
    // returns (the reader hands it over) and frees it in `deinit`; every other stored property is a `let` of a
    // `Sendable` type.
    let body: Data
    let entries: UnsafeBufferPointer<CBORTapeEntry>
    /// The counts that the heads do not say: of indefinite-length arrays and maps, and of maps that lost repeated
    /// keys (``CBORParsingOptions/DuplicateKeyPolicy/lastWins``).
    let counts: [Int: Int]
    /// Under `lastWins`: for the first occurrence of a repeated key, the entry of the value that won; and the
    /// entries of the later occurrences' keys, which maps skip.
    let replacements: [Int: Int]
    let dropped: Set<Int>

    /// Takes over `entries` (allocated by a ``CBORTapeBuffer``; `nil` for an empty body).
    init(
        body: Data, entries: UnsafeBufferPointer<CBORTapeEntry>, counts: [Int: Int], replacements: [Int: Int],
        dropped: Set<Int>
    ) {
        self.body = body
        self.entries = entries
        self.counts = counts
        self.replacements = replacements
        self.dropped = dropped
    }

    deinit {
        entries.deallocate()
    }

    /// The number of entries.
    var count: Int { entries.count }

    /// The entry at `index`.
    @inline(__always)
    func entry(_ index: Int) -> CBORTapeEntry { entries[index] }

    /// Calls `read` with a reading of the tape and the body.
    @inline(__always)
    func withReading<Result>(_ read: (CBORTapeReading) -> Result) -> Result {
        body.withUnsafeBytes { raw in
            read(
                CBORTapeReading(
                    body: raw, entries: entries, counts: counts, replacements: replacements, dropped: dropped))
        }
    }

    /// What the item at `index` is.
    func kind(_ index: Int) -> CBORTapeEntry.Kind { withReading { $0.kind(index) } }
}

/// Reads values from a tape's entries and its body, both in place: used by ``CBORItem`` through
/// ``CBORTape/withReading(_:)``, and by the tape reader for keys that are not text strings while the tape grows.
struct CBORTapeReading {
    let body: UnsafeRawBufferPointer
    let entries: UnsafeBufferPointer<CBORTapeEntry>
    let counts: [Int: Int]
    let replacements: [Int: Int]
    let dropped: Set<Int>

    /// What the item at `index` is, from its head.
    func kind(_ index: Int) -> CBORTapeEntry.Kind {
        let offset = Int(entries[index].offset)
        let initial = body[offset]
        let info = initial & 0x1F
        switch initial >> 5 {
        case 0: return .unsignedInteger
        case 1: return .negativeInteger
        case 2: return info == 31 ? .byteChunks : .bytes
        case 3: return info == 31 ? .textChunks : .text
        case 4: return .array
        case 5: return .map
        case 6: return .tag
        default:
            // Simple values 20-23 sent in two bytes (allowsTwoByteLowSimpleValues) are still false ... undefined.
            switch info == 24 ? body[offset + 1] : info {
            case 20: return .falseValue
            case 21: return .trueValue
            case 22: return .null
            case 23: return .undefined
            case 25, 26, 27: return info == 24 ? .simple : .float
            default: return .simple
            }
        }
    }

    /// The length of the head of the item at `index`: 1, 2, 3, 5 or 9 bytes.
    func headLength(_ index: Int) -> Int {
        switch body[Int(entries[index].offset)] & 0x1F {
        case 24: 2
        case 25: 3
        case 26: 5
        case 27: 9
        default: 1
        }
    }

    /// The elements of an array or entries of a map at `index`.
    func count(_ index: Int) -> Int {
        if !counts.isEmpty, let count = counts[index] { return count }
        return Int(truncatingIfNeeded: argument(index))
    }

    /// The head argument of entry `index` (a scalar's value, a string's length, a tag's number, a float's bits).
    func argument(_ index: Int) -> UInt64 {
        Self.argument(body, offset: Int(entries[index].offset), headLength: headLength(index))
    }

    static func argument(_ raw: UnsafeRawBufferPointer, offset: Int, headLength: Int) -> UInt64 {
        let initial = raw[offset]
        switch headLength {
        case 1: return UInt64(initial & 0x1F)
        case 2: return UInt64(raw[offset + 1])
        case 3: return UInt64(UInt16(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 1, as: UInt16.self)))
        case 5: return UInt64(UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 1, as: UInt32.self)))
        default: return UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: offset + 1, as: UInt64.self))
        }
    }

    /// The content of the definite-length string of entry `index`.
    func content(_ index: Int) -> UnsafeRawBufferPointer {
        let start = Int(entries[index].offset) + headLength(index)
        return UnsafeRawBufferPointer(rebasing: body[start..<start + Int(truncatingIfNeeded: argument(index))])
    }

    /// The text of entry `index`: a definite-length text string, or the chunks of an indefinite-length one joined.
    func text(_ index: Int) -> String {
        if kind(index) == .text {
            // Validated when parsed.
            return String(decoding: content(index), as: UTF8.self)
        }
        var text = ""
        var chunk = index + 1
        while chunk < Int(entries[index].end) {
            text += String(decoding: content(chunk), as: UTF8.self)
            chunk += 1
        }
        return text
    }

    /// The bytes of entry `index`: a definite-length byte string, or the chunks of an indefinite-length one joined.
    func bytes(_ index: Int) -> Data {
        if kind(index) == .bytes { return Data(content(index)) }
        var data = Data()
        var chunk = index + 1
        while chunk < Int(entries[index].end) {
            data.append(contentsOf: content(chunk))
            chunk += 1
        }
        return data
    }

    /// The entries of the keys and values of the map at `index`, alternating, as the map reads: repeated keys that
    /// lost to a later value are skipped, and the first occurrence has the winning value.
    func mapItems(_ index: Int) -> [Int] {
        var items: [Int] = []
        items.reserveCapacity(2 * count(index))
        var key = index + 1
        let end = Int(entries[index].end)
        while key < end {
            let value = Int(entries[key].end)
            let next = Int(entries[value].end)
            if dropped.isEmpty || !dropped.contains(key) {
                items.append(key)
                items.append(replacements.isEmpty ? value : replacements[key] ?? value)
            }
            key = next
        }
        return items
    }

    /// The entries of the items of the container at `index` (for a map, keys and values alternating).
    func items(_ index: Int) -> [Int] {
        switch kind(index) {
        case .map: return mapItems(index)
        case .array, .tag:
            var items: [Int] = []
            var item = index + 1
            while item < Int(entries[index].end) {
                items.append(item)
                item = Int(entries[item].end)
            }
            return items
        default: return []
        }
    }

    /// The value of an entry that is not an array, map or tag.
    func scalar(_ index: Int) -> CBORValue {
        switch kind(index) {
        case .unsignedInteger: .unsignedInteger(argument(index))
        case .negativeInteger: .negativeInteger(argument(index))
        case .bytes, .byteChunks: .bytes(bytes(index))
        case .text, .textChunks: .text(text(index))
        case .simple: .simple(UInt8(truncatingIfNeeded: argument(index)))
        case .falseValue: .bool(false)
        case .trueValue: .bool(true)
        case .null: .null
        case .undefined: .undefined
        case .float: .float(float(index))
        case .array: .array([])
        case .map: .map([])
        case .tag: .null
        }
    }

    /// The float of a float entry, widened exactly.
    func float(_ index: Int) -> Double {
        let bits = argument(index)
        switch headLength(index) {
        case 3: return CBORReader.half(UInt16(truncatingIfNeeded: bits))
        case 5: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: bits)))
        default: return Double(bitPattern: bits)
        }
    }

    /// The item at `root` as a ``CBORValue`` tree, exactly as ``CBORParser/parse(_:)`` makes it; without recursion.
    func value(at root: Int) -> CBORValue {
        struct Open {
            var index: Int
            var items: [Int]
            var values: [CBORValue]
        }
        var stack: [Open] = []
        var index = root
        descending: while true {
            let kind = self.kind(index)
            var value: CBORValue
            if kind == .tag || (kind == .array || kind == .map) && count(index) > 0 {
                let items = self.items(index)
                stack.append(Open(index: index, items: items, values: []))
                stack[stack.count - 1].values.reserveCapacity(items.count)
                index = items[0]
                continue descending
            }
            value = scalar(index)
            while let last = stack.indices.last {
                stack[last].values.append(value)
                let filled = stack[last].values.count
                if filled < stack[last].items.count {
                    index = stack[last].items[filled]
                    continue descending
                }
                let done = stack.removeLast()
                switch self.kind(done.index) {
                case .array:
                    value = .array(done.values)
                case .map:
                    var pairs: [CBORValue.MapEntry] = []
                    pairs.reserveCapacity(done.values.count / 2)
                    var position = 0
                    while position + 1 < done.values.count {
                        pairs.append(CBORValue.MapEntry(key: done.values[position], value: done.values[position + 1]))
                        position += 2
                    }
                    value = .map(pairs)
                default:
                    value = CBORValue.tagged(argument(done.index), done.values[0])
                }
            }
            return value
        }
    }
}

extension CBORValue {
    /// The value of a tag over `content`: bignums (tags 2 and 3 over a byte string, RFC 8949 §3.4.3) of at most
    /// ``CBORParser/maxBignumBytes`` become integers, any other tag is kept.
    static func tagged(_ number: UInt64, _ content: CBORValue) -> CBORValue {
        guard number == 2 || number == 3, case .bytes(let data) = content else { return .tag(number, content) }
        let magnitude = Array(data.drop { $0 == 0 })
        guard magnitude.count <= CBORParser.maxBignumBytes else { return .tag(number, content) }
        if magnitude.count <= 8 {
            let small = magnitude.reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            return number == 2 ? .unsignedInteger(small) : .negativeInteger(small)
        }
        return .bignum(negative: number == 3, magnitude: magnitude)
    }
}
