#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One value of a tape: where its head is, where its subtree ends, and what it is. Scalars are read again from
/// their head when asked for; nothing but the entries is made while parsing.
struct MessagePackTapeEntry {
    /// What an entry is: the cases of ``MessagePackValue``, with `nil`, `false` and `true` apart.
    enum Kind: UInt8 {
        case nilValue, falseValue, trueValue, int, uint, float32, float64, string, binary, array, map, ext, timestamp
    }

    /// The byte offset of the value's head in the body.
    var offset: UInt32
    /// The index of the entry after the value and everything it contains.
    var end: UInt32
    /// Arrays: elements; maps: entries; strs, bins and exts: content bytes (an ext's data).
    var count: UInt32
    var kind: Kind
    /// The bytes from the head to the content: the head byte, a length, and an ext's type byte.
    var headLength: UInt8
}

/// The tape reader's entries as they grow: allocated by hand, so that an append costs no uniqueness check. The
/// reader frees them with ``release()`` unless it handed them to a ``MessagePackTape`` (``handOver()``).
struct MessagePackTapeStorage {
    private(set) var start: UnsafeMutablePointer<MessagePackTapeEntry>
    private(set) var count = 0
    private var capacity: Int

    init(capacity: Int) {
        self.capacity = max(16, capacity)
        start = .allocate(capacity: self.capacity)
    }

    @inline(__always)
    mutating func append(_ entry: MessagePackTapeEntry) {
        if count == capacity {
            capacity *= 2
            let larger = UnsafeMutablePointer<MessagePackTapeEntry>.allocate(capacity: capacity)
            larger.moveInitialize(from: start, count: count)
            start.deallocate()
            start = larger
        }
        (start + count).initialize(to: entry)
        count &+= 1
    }

    /// The entry at `index` (below ``count``).
    @inline(__always)
    subscript(index: Int) -> MessagePackTapeEntry {
        get { start[index] }
        nonmutating set { start[index] = newValue }
    }

    /// The entries, for a tape that frees them; this storage is left empty.
    mutating func handOver() -> UnsafeBufferPointer<MessagePackTapeEntry> {
        defer {
            capacity = 16
            start = .allocate(capacity: capacity)
            count = 0
        }
        return UnsafeBufferPointer(start: start, count: count)
    }

    func release() {
        start.deallocate()
    }
}

/// A parsed body and its tape: the entries of every value in document order, each container followed by its items
/// (a map's keys and values alternating). Immutable once built, shared by every ``MessagePackItem`` of the body.
final class MessagePackTape: @unchecked Sendable {
    // Unchecked only because of the entries' pointer: the tape owns that memory, never writes it after `init` (the
    // reader hands it over) and frees it in `deinit`; `body` is a `let` of a `Sendable` type.
    let body: Data
    let entries: UnsafeBufferPointer<MessagePackTapeEntry>

    /// Takes over `entries` (from ``MessagePackTapeStorage/handOver()``).
    init(body: Data, entries: UnsafeBufferPointer<MessagePackTapeEntry>) {
        self.body = body
        self.entries = entries
    }

    /// Calls `read` with a reading of the tape and the body.
    @inline(__always)
    func withReading<Result>(_ read: (MessagePackTapeReading) -> Result) -> Result {
        body.withUnsafeBytes { raw in read(MessagePackTapeReading(body: raw, entries: entries)) }
    }

    deinit {
        entries.deallocate()
    }
}

/// Reads values from a tape's entries and its body, both in place.
struct MessagePackTapeReading {
    let body: UnsafeRawBufferPointer
    let entries: UnsafeBufferPointer<MessagePackTapeEntry>

    /// The content of the str, bin or ext of entry `index` (an ext's data).
    func content(_ index: Int) -> UnsafeRawBufferPointer {
        let entry = entries[index]
        let start = Int(entry.offset) + Int(entry.headLength)
        return UnsafeRawBufferPointer(rebasing: body[start..<start + Int(entry.count)])
    }

    /// The text of the str of entry `index` (bad sequences replaced with U+FFFD, which only
    /// ``MessagePackParsingOptions/replacesInvalidUTF8`` lets through).
    func text(_ index: Int) -> String {
        String(decoding: content(index), as: UTF8.self)
    }

    /// The big-endian unsigned integer of `width` bytes after the head byte of entry `index`.
    func unsigned(_ index: Int, width: Int) -> UInt64 {
        guard let base = body.baseAddress else { return 0 }
        return MessagePackReader.bigEndian(base + Int(entries[index].offset) + 1, width: width)
    }

    /// The integer of an `int` or `uint` entry: ``MessagePackValue/int(_:)`` unless it is above `Int64.max`.
    func integer(_ index: Int) -> MessagePackValue {
        let head = body[Int(entries[index].offset)]
        let value: Int64
        switch head {
        case 0x00...0x7f: value = Int64(head)
        case 0xcc, 0xcd, 0xce, 0xcf:
            let unsigned = unsigned(index, width: 1 << Int(head - 0xcc))
            guard let signed = Int64(exactly: unsigned) else { return .uint(unsigned) }
            value = signed
        case 0xd0: value = Int64(Int8(truncatingIfNeeded: unsigned(index, width: 1)))
        case 0xd1: value = Int64(Int16(truncatingIfNeeded: unsigned(index, width: 2)))
        case 0xd2: value = Int64(Int32(truncatingIfNeeded: unsigned(index, width: 4)))
        case 0xd3: value = Int64(bitPattern: unsigned(index, width: 8))
        default: value = Int64(Int8(bitPattern: head))
        }
        return .int(value)
    }

    /// The type of the ext or timestamp of entry `index`.
    func extType(_ index: Int) -> Int8 {
        let entry = entries[index]
        return Int8(bitPattern: body[Int(entry.offset) + Int(entry.headLength) - 1])
    }

    /// The seconds and nanoseconds of the timestamp of entry `index` (checked when parsed).
    func timestamp(_ index: Int) -> (seconds: Int64, nanoseconds: UInt32) {
        (try? MessagePackReader.timestamp(content(index), at: Int(entries[index].offset))) ?? (0, 0)
    }

    /// The value of an entry that is not a non-empty array or map.
    func scalar(_ index: Int) -> MessagePackValue {
        switch entries[index].kind {
        case .nilValue: return .nil
        case .falseValue: return .bool(false)
        case .trueValue: return .bool(true)
        case .int, .uint: return integer(index)
        case .float32: return .float32(Float(bitPattern: UInt32(truncatingIfNeeded: unsigned(index, width: 4))))
        case .float64: return .float64(Double(bitPattern: unsigned(index, width: 8)))
        case .string: return .string(text(index))
        case .binary: return .binary(Array(content(index)))
        case .array: return .array([])
        case .map: return .map([])
        case .ext: return .ext(type: extType(index), data: Array(content(index)))
        case .timestamp:
            let (seconds, nanoseconds) = timestamp(index)
            return .timestamp(seconds: seconds, nanoseconds: nanoseconds)
        }
    }

    /// The value at `root` as a ``MessagePackValue`` tree, exactly as ``MessagePackParser/parse(_:)`` makes it;
    /// without recursion: the finished items of the open containers wait on one stack.
    func value(at root: Int) -> MessagePackValue {
        // The open containers' entries, and where their items begin in `items`.
        var open: [(entry: Int, base: Int)] = []
        var items: [MessagePackValue] = []
        var index = root
        while true {
            let entry = entries[index]
            if (entry.kind == .array || entry.kind == .map) && entry.count > 0 {
                open.append((index, items.count))
                index += 1
                continue
            }
            var value = scalar(index)
            index = Int(entry.end)
            while true {
                guard let container = open.last else { return value }
                items.append(value)
                // The next index is past the container's last item exactly when the container is complete.
                guard index == Int(entries[container.entry].end) else { break }
                if entries[container.entry].kind == .map {
                    var pairs: [MessagePackValue.Entry] = []
                    pairs.reserveCapacity((items.count - container.base) / 2)
                    var position = container.base
                    while position + 1 < items.count {
                        pairs.append(MessagePackValue.Entry(items[position], items[position + 1]))
                        position += 2
                    }
                    value = .map(pairs)
                } else {
                    value = .array(Array(items[container.base...]))
                }
                items.removeSubrange(container.base...)
                open.removeLast()
            }
        }
    }
}
