/// One value of a MessagePack body checked by ``MessagePackParser/read(_:)``, read from the body when asked for.
///
/// ``MessagePackParser/read(_:)`` makes the same checks as ``MessagePackParser/parse(_:)`` (truncation, UTF-8,
/// timestamps, every limit) but builds no values: it records where each value is, on a tape shared by every item of
/// the body, so an item is a reference into it that costs nothing to copy or to send across tasks. Strings, numbers
/// and containers are read on access; ``value`` turns an item into the ``MessagePackValue`` that
/// ``MessagePackParser/parse(_:)`` would have made. Use it when a response is large and only part of it is read, or
/// when speed matters.
///
/// ```swift
/// let item = try MessagePackParser().read(Data([0x81, 0xA1, 0x61, 0x92, 0x01, 0x02]))   // {"a": [1, 2]}
/// item["a"]?.count            // 2
/// item["a"]?[1]?.int64Value   // 2
/// item.value                  // .map([Entry(.string("a"), .array([.int(1), .int(2)]))])
/// ```
///
/// Its accessors answer as ``MessagePackValue``'s cases do: integers are ``Kind/int`` from -2^63 to 2^63-1 whatever
/// family encoded them and ``Kind/uint`` only above `Int64.max`, floats keep their width, and maps keep their
/// entries in document order, duplicate keys included.
public struct MessagePackItem: Sendable {
    /// What an item is: the cases of ``MessagePackValue``.
    public enum Kind: Sendable, Hashable {
        /// `nil`: ``MessagePackValue/nil``.
        case `nil`
        /// `true` or `false`: ``MessagePackValue/bool(_:)``.
        case bool
        /// An integer from -2^63 to 2^63-1: ``MessagePackValue/int(_:)``.
        case int
        /// An integer above `Int64.max`: ``MessagePackValue/uint(_:)``.
        case uint
        /// A float 32: ``MessagePackValue/float32(_:)``.
        case float32
        /// A float 64: ``MessagePackValue/float64(_:)``.
        case float64
        /// A str: ``MessagePackValue/string(_:)``.
        case string
        /// A bin: ``MessagePackValue/binary(_:)``.
        case binary
        /// An array: ``MessagePackValue/array(_:)``.
        case array
        /// A map: ``MessagePackValue/map(_:)``.
        case map
        /// An extension value other than a timestamp: ``MessagePackValue/ext(type:data:)``.
        case ext
        /// A timestamp (extension type -1): ``MessagePackValue/timestamp(seconds:nanoseconds:)``.
        case timestamp
    }

    let tape: MessagePackTape
    let index: Int

    init(tape: MessagePackTape, index: Int) {
        self.tape = tape
        self.index = index
    }

    @inline(__always) var entry: MessagePackTapeEntry { tape.entries[index] }

    /// What this item is.
    public var kind: Kind {
        switch entry.kind {
        case .nilValue: .nil
        case .falseValue, .trueValue: .bool
        case .int: .int
        case .uint: .uint
        case .float32: .float32
        case .float64: .float64
        case .string: .string
        case .binary: .binary
        case .array: .array
        case .map: .map
        case .ext: .ext
        case .timestamp: .timestamp
        }
    }

    /// The item as a ``MessagePackValue`` tree, equal to what ``MessagePackParser/parse(_:)`` makes of the same
    /// bytes. Built without recursion, however deep the item.
    public var value: MessagePackValue {
        tape.withReading { $0.value(at: index) }
    }

    /// The number of elements of an array or entries of a map; 0 for other kinds.
    public var count: Int {
        entry.kind == .array || entry.kind == .map ? Int(entry.count) : 0
    }

    /// The text, when this is a str.
    public var stringValue: String? {
        entry.kind == .string ? tape.withReading { $0.text(index) } : nil
    }

    /// The bytes, when this is a bin.
    public var binaryValue: [UInt8]? {
        entry.kind == .binary ? tape.withReading { Array($0.content(index)) } : nil
    }

    /// The integer, when this is an ``Kind/int`` (from -2^63 to 2^63-1).
    public var int64Value: Int64? {
        guard entry.kind == .int, case .int(let integer) = tape.withReading({ $0.integer(index) }) else { return nil }
        return integer
    }

    /// The integer, when this is a non-negative ``Kind/int`` or a ``Kind/uint``.
    public var uint64Value: UInt64? {
        guard entry.kind == .int || entry.kind == .uint else { return nil }
        switch tape.withReading({ $0.integer(index) }) {
        case .int(let integer): return UInt64(exactly: integer)
        case .uint(let integer): return integer
        default: return nil
        }
    }

    /// The float, widened exactly to `Double`, when this is a float 32 or a float 64.
    public var doubleValue: Double? {
        guard entry.kind == .float32 || entry.kind == .float64 else { return nil }
        switch tape.withReading({ $0.scalar(index) }) {
        case .float32(let float): return Double(float)
        case .float64(let double): return double
        default: return nil
        }
    }

    /// `false` or `true`, when this is one of them.
    public var boolValue: Bool? {
        switch entry.kind {
        case .falseValue: false
        case .trueValue: true
        default: nil
        }
    }

    /// Whether this is `nil`.
    public var isNil: Bool { entry.kind == .nilValue }

    /// The extension type (-128...127), when this is an ext other than a timestamp.
    public var extType: Int8? {
        entry.kind == .ext ? tape.withReading { $0.extType(index) } : nil
    }

    /// The extension data, when this is an ext other than a timestamp.
    public var extData: [UInt8]? {
        entry.kind == .ext ? tape.withReading { Array($0.content(index)) } : nil
    }

    /// The seconds since 1970-01-01T00:00:00Z and nanoseconds (0...999,999,999), when this is a timestamp.
    public var timestamp: (seconds: Int64, nanoseconds: UInt32)? {
        entry.kind == .timestamp ? tape.withReading { $0.timestamp(index) } : nil
    }

    /// The element at `position`, when this is an array and `position` is within it. Linear in `position`; iterate
    /// ``elements`` to visit every element.
    public subscript(position: Int) -> MessagePackItem? {
        guard entry.kind == .array, position >= 0, position < Int(entry.count) else { return nil }
        var element = index + 1
        for _ in 0..<position { element = Int(tape.entries[element].end) }
        return MessagePackItem(tape: tape, index: element)
    }

    /// The value of the first entry whose key is the str `key` (compared as `String`s are), when this is a map that
    /// has one, as ``MessagePackValue/subscript(key:)`` answers. Linear in the number of entries.
    public subscript(key: String) -> MessagePackItem? {
        guard entry.kind == .map else { return nil }
        var utf8 = key
        return utf8.withUTF8 { wanted in
            let wanted = UnsafeRawBufferPointer(wanted)
            let wantedIsASCII = wanted.allSatisfy { $0 < 0x80 }
            return tape.withReading { reading in
                var candidate = index + 1
                let end = Int(entry.end)
                while candidate < end {
                    let value = Int(reading.entries[candidate].end)
                    if reading.entries[candidate].kind == .string {
                        let content = reading.content(candidate)
                        if content.count == wanted.count && content.elementsEqual(wanted) {
                            return MessagePackItem(tape: tape, index: value)
                        }
                        // Different bytes are different strings, unless canonical equivalence (or the replacement
                        // of bad UTF-8) makes them equal, which ASCII never does.
                        let plain = wantedIsASCII && content.allSatisfy { $0 < 0x80 }
                        if !plain && reading.text(candidate) == key {
                            return MessagePackItem(tape: tape, index: value)
                        }
                    }
                    candidate = Int(reading.entries[value].end)
                }
                return nil
            }
        }
    }

    /// The elements, in order, when this is an array; empty otherwise.
    public var elements: Elements {
        entry.kind == .array
            ? Elements(tape: tape, startIndex: index + 1, endIndex: Int(entry.end))
            : Elements(tape: tape, startIndex: 0, endIndex: 0)
    }

    /// The entries, in document order, when this is a map; empty otherwise.
    public var entries: Entries {
        entry.kind == .map
            ? Entries(tape: tape, startIndex: index + 1, endIndex: Int(entry.end))
            : Entries(tape: tape, startIndex: 0, endIndex: 0)
    }

    /// The elements of an array, in order. Its indices are positions on the tape.
    public struct Elements: Collection, Sendable {
        let tape: MessagePackTape
        /// The first element's position.
        public let startIndex: Int
        /// The position after the last element.
        public let endIndex: Int

        /// The position of the element after the one at `position`.
        public func index(after position: Int) -> Int { Int(tape.entries[position].end) }
        /// The element at `position`.
        public subscript(position: Int) -> MessagePackItem { MessagePackItem(tape: tape, index: position) }
    }

    /// The entries of a map, in document order, duplicate keys included. Its indices are the keys' positions on the
    /// tape.
    public struct Entries: Collection, Sendable {
        let tape: MessagePackTape
        /// The first entry's position (its key's).
        public let startIndex: Int
        /// The position after the last entry.
        public let endIndex: Int

        /// The position of the entry after the one at `position`.
        public func index(after position: Int) -> Int { Int(tape.entries[Int(tape.entries[position].end)].end) }
        /// The key and value of the entry at `position`.
        public subscript(position: Int) -> (key: MessagePackItem, value: MessagePackItem) {
            (
                MessagePackItem(tape: tape, index: position),
                MessagePackItem(tape: tape, index: Int(tape.entries[position].end))
            )
        }
    }
}
