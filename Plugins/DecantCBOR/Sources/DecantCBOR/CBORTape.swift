#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One data item of a tape: where its head is, where its subtree ends, and what it is. Scalars are read again
/// from their head when asked for; nothing but the entries is made while parsing.
struct CBORTapeEntry {
    /// What an entry is: the major type, split where reading differs.
    enum Kind: UInt8 {
        case unsignedInteger, negativeInteger, bytes, text, byteChunks, textChunks, array, map, tag
        case simple, falseValue, trueValue, null, undefined, float
    }

    /// The byte offset of the item's head in the body.
    var offset: UInt32
    /// The index of the entry after the item and everything it contains.
    var end: UInt32
    /// Arrays: elements; maps: entries (repeated keys that lost to a later value not counted); strings: content
    /// bytes; indefinite-length strings: chunks; tags: 1.
    var count: UInt32
    var kind: Kind
    /// The length of the head in bytes (1, 2, 3, 5 or 9).
    var headLength: UInt8
}

/// A parsed body and its tape: the entries of every data item in document order, each container followed by its
/// items (a map's keys and values alternating). Immutable once built, shared by every ``CBORItem`` of the body.
final class CBORTape: Sendable {
    let body: Data
    let entries: [CBORTapeEntry]
    /// Under ``CBORParsingOptions/DuplicateKeyPolicy/lastWins``: for the first occurrence of a repeated key, the
    /// entry of the value that won; and the entries of the later occurrences' keys, which maps skip.
    let replacements: [Int: Int]
    let dropped: Set<Int>

    init(body: Data, entries: [CBORTapeEntry], replacements: [Int: Int], dropped: Set<Int>) {
        self.body = body
        self.entries = entries
        self.replacements = replacements
        self.dropped = dropped
    }

    /// Calls `read` with a reading of the tape and the body.
    func withReading<Result>(_ read: (CBORTapeReading) -> Result) -> Result {
        entries.withUnsafeBufferPointer { entries in
            body.withUnsafeBytes { raw in
                read(CBORTapeReading(body: raw, entries: entries, replacements: replacements, dropped: dropped))
            }
        }
    }
}

/// Reads values from a tape's entries and its body, both in place: used by ``CBORItem`` through
/// ``CBORTape/withReading(_:)``, and by the tape reader for keys that are not text strings while the tape grows.
struct CBORTapeReading {
    let body: UnsafeRawBufferPointer
    let entries: UnsafeBufferPointer<CBORTapeEntry>
    let replacements: [Int: Int]
    let dropped: Set<Int>

    /// The head argument of entry `index` (a scalar's value, a string's length, a tag's number, a float's bits).
    func argument(_ index: Int) -> UInt64 {
        Self.argument(body, offset: Int(entries[index].offset), headLength: Int(entries[index].headLength))
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
        let entry = entries[index]
        let start = Int(entry.offset) + Int(entry.headLength)
        return UnsafeRawBufferPointer(rebasing: body[start..<start + Int(entry.count)])
    }

    /// The text of entry `index`: a definite-length text string, or the chunks of an indefinite-length one joined.
    func text(_ index: Int) -> String {
        if entries[index].kind == .text {
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
        if entries[index].kind == .bytes { return Data(content(index)) }
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
        items.reserveCapacity(2 * Int(entries[index].count))
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
        switch entries[index].kind {
        case .map: return mapItems(index)
        case .array, .tag:
            var items: [Int] = []
            items.reserveCapacity(Int(entries[index].count))
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
        switch entries[index].kind {
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
        switch entries[index].headLength {
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
            let kind = entries[index].kind
            var value: CBORValue
            if kind == .array || kind == .map || kind == .tag, entries[index].count > 0 {
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
                switch entries[done.index].kind {
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
