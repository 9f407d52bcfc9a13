#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// One data item of a CBOR body checked by ``CBORParser/read(_:)``, read from the body when asked for.
///
/// ``CBORParser/read(_:)`` makes the same checks as ``CBORParser/parse(_:)`` (well-formedness, UTF-8, duplicate
/// keys, every limit) but builds no values: it records where each item is, on a tape shared by every item of the
/// body, so an item is a reference into it that costs nothing to copy or to send across tasks. Strings, numbers and
/// containers are read on access; ``value`` turns an item into the ``CBORValue`` that ``CBORParser/parse(_:)``
/// would have made. Use it when a response is large and only part of it is read, or when speed matters.
///
/// ```swift
/// let item = try CBORParser().read(Data([0xA1, 0x61, 0x61, 0x82, 0x01, 0x02]))   // {"a": [1, 2]}
/// item["a"]?.count           // 2
/// item["a"]?[1]?.int64Value   // 2
/// item.value                 // .map([MapEntry(key: .text("a"), value: .array([1, 2]))])
/// ```
///
/// Its accessors answer as ``CBORValue``'s do: bignums (tags 2 and 3 over a byte string) are integers, the chunks of
/// indefinite-length strings are joined, and under ``CBORParsingOptions/DuplicateKeyPolicy/lastWins`` a repeated
/// key's last value is at its first position.
public struct CBORItem: Sendable {
    /// What an item is: the cases of ``CBORValue``.
    public enum Kind: Sendable, Hashable {
        /// An unsigned integer (or a bignum in `UInt64`'s range): ``CBORValue/unsignedInteger(_:)``.
        case unsignedInteger
        /// A negative integer (or a bignum in its range): ``CBORValue/negativeInteger(_:)``.
        case negativeInteger
        /// A bignum beyond both integer cases: ``CBORValue/bignum(negative:magnitude:)``.
        case bignum
        /// A byte string.
        case bytes
        /// A text string.
        case text
        /// An array.
        case array
        /// A map.
        case map
        /// A tag other than a bignum.
        case tag
        /// A simple value other than `false`, `true`, `null` and `undefined`.
        case simple
        /// `false` or `true`.
        case bool
        /// `null`.
        case null
        /// `undefined`.
        case undefined
        /// A float.
        case float
    }

    let tape: CBORTape
    let index: Int

    init(tape: CBORTape, index: Int) {
        self.tape = tape
        self.index = index
    }

    @inline(__always) var entry: CBORTapeEntry { tape.entry(index) }

    /// What the tape says this item is.
    @inline(__always) var tapeKind: CBORTapeEntry.Kind { tape.kind(index) }

    /// Whether this is a tag 2 or 3 over a byte string of at most ``CBORParser/maxBignumBytes`` significant bytes,
    /// which ``CBORValue`` holds as an integer.
    var isBignum: Bool {
        guard tapeKind == .tag else { return false }
        let number = tape.withReading { $0.argument(index) }
        guard number == 2 || number == 3 else { return false }
        let content = index + 1
        let kind = tape.kind(content)
        return (kind == .bytes || kind == .byteChunks) && isSmallMagnitude(content)
    }

    private func isSmallMagnitude(_ content: Int) -> Bool {
        let bytes = tape.withReading { $0.bytes(content) }
        return bytes.drop { $0 == 0 }.count <= CBORParser.maxBignumBytes
    }

    /// What this item is.
    public var kind: Kind {
        switch tapeKind {
        case .unsignedInteger: return .unsignedInteger
        case .negativeInteger: return .negativeInteger
        case .bytes, .byteChunks: return .bytes
        case .text, .textChunks: return .text
        case .array: return .array
        case .map: return .map
        case .tag:
            guard isBignum else { return .tag }
            switch value {
            case .unsignedInteger: return .unsignedInteger
            case .negativeInteger: return .negativeInteger
            default: return .bignum
            }
        case .simple: return .simple
        case .falseValue, .trueValue: return .bool
        case .null: return .null
        case .undefined: return .undefined
        case .float: return .float
        }
    }

    /// The item as a ``CBORValue`` tree, equal to what ``CBORParser/parse(_:)`` makes of the same bytes.
    public var value: CBORValue {
        tape.withReading { $0.value(at: index) }
    }

    /// The number of elements of an array or entries of a map; 0 for other kinds.
    public var count: Int {
        tapeKind == .array || tapeKind == .map ? tape.withReading { $0.count(index) } : 0
    }

    /// The text, when this is a text string.
    public var stringValue: String? {
        tapeKind == .text || tapeKind == .textChunks ? tape.withReading { $0.text(index) } : nil
    }

    /// The bytes, when this is a byte string.
    public var dataValue: Data? {
        tapeKind == .bytes || tapeKind == .byteChunks ? tape.withReading { $0.bytes(index) } : nil
    }

    /// The value as an `Int64`, when it is an integer (or bignum) in `Int64`'s range.
    public var int64Value: Int64? {
        switch tapeKind {
        case .unsignedInteger: return Int64(exactly: tape.withReading { $0.argument(index) })
        case .negativeInteger:
            let n = tape.withReading { $0.argument(index) }
            return n <= UInt64(Int64.max) ? -1 - Int64(n) : nil
        case .tag: return isBignum ? value.int64Value : nil
        default: return nil
        }
    }

    /// The value as a `UInt64`, when it is a non-negative integer in `UInt64`'s range.
    public var uint64Value: UInt64? {
        switch tapeKind {
        case .unsignedInteger: return tape.withReading { $0.argument(index) }
        case .tag: return isBignum ? value.uint64Value : nil
        default: return nil
        }
    }

    /// The float, widened exactly to `Double`, when this is a float.
    public var doubleValue: Double? {
        tapeKind == .float ? tape.withReading { $0.float(index) } : nil
    }

    /// `false` or `true`, when this is one of them.
    public var boolValue: Bool? {
        switch tapeKind {
        case .falseValue: false
        case .trueValue: true
        default: nil
        }
    }

    /// Whether this is `null`.
    public var isNull: Bool { tapeKind == .null }

    /// The tag number, when this is a tag (not a bignum).
    public var tagNumber: UInt64? {
        tapeKind == .tag && !isBignum ? tape.withReading { $0.argument(index) } : nil
    }

    /// The tagged item, when this is a tag (not a bignum).
    public var tagContent: CBORItem? {
        tapeKind == .tag && !isBignum ? CBORItem(tape: tape, index: index + 1) : nil
    }

    /// The element at `position`, when this is an array and `position` is within it. Linear in `position`; iterate
    /// ``elements`` to visit every element.
    public subscript(position: Int) -> CBORItem? {
        guard tapeKind == .array, position >= 0, position < count else { return nil }
        var element = index + 1
        for _ in 0..<position { element = Int(tape.entry(element).end) }
        return CBORItem(tape: tape, index: element)
    }

    /// The value of the entry whose key is the text string `key`, when this is a map that has one. Linear in the
    /// number of entries.
    public subscript(key: String) -> CBORItem? {
        guard tapeKind == .map else { return nil }
        var key = key
        return key.withUTF8 { wanted in
            for (candidate, value) in entries {
                switch candidate.tapeKind {
                case .text:
                    let matches = tape.withReading { reading in
                        let content = reading.content(candidate.index)
                        return content.count == wanted.count && content.elementsEqual(UnsafeRawBufferPointer(wanted))
                    }
                    if matches { return value }
                case .textChunks:
                    if candidate.stringValue?.utf8.elementsEqual(wanted) == true { return value }
                default: continue
                }
            }
            return nil
        }
    }

    /// The elements, in order, when this is an array; empty otherwise.
    public var elements: Elements {
        tapeKind == .array ? Elements(tape: tape, start: index + 1, end: Int(entry.end)) : Elements.empty(tape)
    }

    /// The entries, in document order, when this is a map; empty otherwise.
    public var entries: Entries {
        tapeKind == .map ? Entries(tape: tape, map: index) : Entries(tape: tape, map: nil)
    }

    /// The elements of an array, in order.
    public struct Elements: Collection, Sendable {
        let tape: CBORTape
        let start: Int
        let end: Int

        static func empty(_ tape: CBORTape) -> Elements { Elements(tape: tape, start: 0, end: 0) }

        /// The first element's position.
        public var startIndex: Int { start }
        /// The position after the last element.
        public var endIndex: Int { end }
        /// The position of the element after the one at `position`.
        public func index(after position: Int) -> Int { Int(tape.entry(position).end) }
        /// The element at `position`.
        public subscript(position: Int) -> CBORItem { CBORItem(tape: tape, index: position) }
    }

    /// The entries of a map, in document order.
    public struct Entries: Collection, Sendable {
        let tape: CBORTape
        let start: Int
        let end: Int

        init(tape: CBORTape, map: Int?) {
            self.tape = tape
            guard let map else {
                (start, end) = (0, 0)
                return
            }
            end = Int(tape.entry(map).end)
            start = Self.kept(tape, from: map + 1, before: end)
        }

        /// The first key at or after `key` that is not a repeated key whose value went to its first occurrence.
        static func kept(_ tape: CBORTape, from key: Int, before end: Int) -> Int {
            var key = key
            while key < end && !tape.dropped.isEmpty && tape.dropped.contains(key) {
                key = Int(tape.entry(Int(tape.entry(key).end)).end)
            }
            return key
        }

        /// The first entry's position (its key's).
        public var startIndex: Int { start }
        /// The position after the last entry.
        public var endIndex: Int { end }
        /// The position of the entry after the one at `position`.
        public func index(after position: Int) -> Int {
            Self.kept(tape, from: Int(tape.entry(Int(tape.entry(position).end)).end), before: end)
        }
        /// The key and value of the entry at `position`.
        public subscript(position: Int) -> (key: CBORItem, value: CBORItem) {
            let value = Int(tape.entry(position).end)
            return (
                CBORItem(tape: tape, index: position),
                CBORItem(tape: tape, index: tape.replacements.isEmpty ? value : tape.replacements[position] ?? value)
            )
        }
    }
}

extension CBORItem: CustomStringConvertible {
    /// The item in diagnostic notation (RFC 8949 §8), as ``CBORValue`` prints it.
    public var description: String { value.description }
}
