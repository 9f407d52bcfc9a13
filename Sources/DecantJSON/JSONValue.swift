public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// A JSON value (RFC 8259 §3): null, a boolean, a number, a string, an array or an object.
///
/// A parsed document is one immutable tape shared by all its values, so a `JSONValue` is a reference into it and
/// costs nothing to copy or to send across tasks. Objects keep their members in document order; numbers keep their
/// exact text (``JSONNumber``); strings are unescaped once, when parsed.
///
/// ```swift
/// let value = try JSONParser().parse(body)
/// for user in value["users"]?.elements ?? .empty {
///     print(user["name"]?.stringValue ?? "?", user["id"]?.intValue ?? 0)
/// }
/// let built: JSONValue = ["name": "Ada", "tags": ["x", 1, 2.5, true, nil]]
/// print(built)   // {"name":"Ada","tags":["x",1,2.5,true,null]}
/// ```
///
/// Equality follows RFC 8259's data model: arrays are ordered, objects are unordered collections of members (§4),
/// numbers are equal when their values are (`1.0 == 1`), and strings and keys are equal when their Unicode scalars
/// are (§8.3: no normalization, so "é" precomposed and decomposed differ).
public struct JSONValue: Sendable {
    /// The kind of a JSON value (RFC 8259 §3).
    public enum Kind: Sendable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case bool
        /// A number (RFC 8259 §6).
        case number
        /// A string (RFC 8259 §7).
        case string
        /// An array (RFC 8259 §5).
        case array
        /// An object (RFC 8259 §4).
        case object
    }

    let storage: JSONStorage
    let index: Int

    init(storage: JSONStorage, index: Int) {
        self.storage = storage
        self.index = index
    }

    @inline(__always) var entry: UInt64 { storage.tape[index] }
    @inline(__always) var tapeKind: UInt64 { Tape.kind(entry) }

    /// The kind of this value.
    public var kind: Kind {
        switch tapeKind {
        case Tape.nullKind: .null
        case Tape.falseKind, Tape.trueKind: .bool
        case Tape.integerKind, Tape.numberKind: .number
        case Tape.stringKind: .string
        case Tape.arrayKind: .array
        default: .object
        }
    }

    /// Whether this is `null`.
    public var isNull: Bool { tapeKind == Tape.nullKind }

    /// The boolean, when this is `true` or `false`.
    public var boolValue: Bool? {
        switch tapeKind {
        case Tape.trueKind: true
        case Tape.falseKind: false
        default: nil
        }
    }

    /// The string, when this is a string (escapes resolved, RFC 8259 §7).
    public var stringValue: String? {
        tapeKind == Tape.stringKind ? storage.string(at: index) : nil
    }

    /// The number with its exact text, when this is a number.
    public var numberValue: JSONNumber? {
        switch tapeKind {
        case Tape.integerKind: JSONNumber(Tape.integerValue(entry))
        case Tape.numberKind: JSONNumber(validText: storage.string(at: index))
        default: nil
        }
    }

    /// The number as an `Int`, when this is a number whose value is an integer in `Int`'s range (`3`, `3.0`, `3e0`);
    /// `nil` otherwise, including for integers too large for `Int` (see ``JSONNumber``).
    public var intValue: Int? {
        switch tapeKind {
        case Tape.integerKind: Int(exactly: Tape.integerValue(entry))
        case Tape.numberKind: storage.withSpan(at: index) { JSONNumber.int64(from: $0) }.flatMap { Int(exactly: $0) }
        default: nil
        }
    }

    /// The number as the nearest `Double` (correctly rounded), when this is a number; `nil` for other kinds and for
    /// numbers beyond `Double`'s range such as `1e400` (their text is kept in ``numberValue``).
    public var doubleValue: Double? {
        switch tapeKind {
        case Tape.integerKind: Double(Tape.integerValue(entry))
        case Tape.numberKind: storage.withSpan(at: index) { JSONNumber.double(from: $0) }
        default: nil
        }
    }

    /// The number as a `Decimal` (see ``JSONNumber/decimalValue``), when this is a number.
    public var decimalValue: Decimal? {
        switch tapeKind {
        case Tape.integerKind: Decimal(Tape.integerValue(entry))
        case Tape.numberKind: Decimal(string: storage.string(at: index))
        default: nil
        }
    }

    /// The number of elements of an array or members of an object; 0 for other kinds.
    public var count: Int {
        tapeKind >= Tape.arrayKind ? storage.count(of: index) : 0
    }

    /// The value of the member named `key`, when this is an object that has one.
    ///
    /// Keys match when their Unicode scalars are equal (RFC 8259 §8.3). Duplicate keys were resolved when parsing
    /// (see ``JSONParsingOptions/duplicateKeys``), so there is at most one match. Linear in the number of members.
    public subscript(key: String) -> JSONValue? {
        guard tapeKind == Tape.objectKind else { return nil }
        let found: Int? =
            key.utf8.withContiguousStorageIfAvailable { storage.member(named: $0, inObjectAt: index) }
            ?? Array(key.utf8).withUnsafeBufferPointer { storage.member(named: $0, inObjectAt: index) }
        return found.map { JSONValue(storage: storage, index: $0) }
    }

    /// The element at `index`, when this is an array and `index` is within it.
    ///
    /// Constant time when the array holds only scalars, linear in `index` otherwise; iterate ``elements`` to visit
    /// every element.
    public subscript(index: Int) -> JSONValue? {
        guard tapeKind == Tape.arrayKind, index >= 0 else { return nil }
        return storage.element(index, inArrayAt: self.index).map { JSONValue(storage: storage, index: $0) }
    }

    /// The elements, when this is an array.
    public var arrayValue: [JSONValue]? {
        guard tapeKind == Tape.arrayKind else { return nil }
        return Array(elements)
    }

    /// The members in document order, when this is an object.
    public var objectEntries: [(key: String, value: JSONValue)]? {
        guard tapeKind == Tape.objectKind else { return nil }
        return Array(members)
    }

    /// The keys in document order, when this is an object.
    public var keys: [String]? {
        guard tapeKind == Tape.objectKind else { return nil }
        return members.map(\.key)
    }

    /// The elements of an array, without copying; empty for other kinds.
    public var elements: Elements {
        guard tapeKind == Tape.arrayKind else { return Elements(storage: storage, start: index, end: index) }
        return Elements(storage: storage, start: index + 1, end: index + Tape.size(entry))
    }

    /// The members of an object in document order, without copying; empty for other kinds.
    public var members: Members {
        guard tapeKind == Tape.objectKind else { return Members(storage: storage, start: index, end: index) }
        return Members(storage: storage, start: index + 1, end: index + Tape.size(entry))
    }
}

// MARK: - Collections

extension JSONValue {
    /// A position in an array or object: the value's place in the document's tape.
    public struct Position: Sendable, Hashable, Comparable {
        let offset: Int
        /// Orders positions in document order.
        public static func < (lhs: Position, rhs: Position) -> Bool { lhs.offset < rhs.offset }
    }

    /// The elements of an array, in order (RFC 8259 §5), read from the document without copying.
    public struct Elements: Collection, Sendable {
        let storage: JSONStorage
        let start: Int
        let end: Int

        /// No elements.
        public static var empty: Elements { Elements(storage: .null, start: 0, end: 0) }
        /// The first element's position.
        public var startIndex: Position { Position(offset: start) }
        /// The position after the last element.
        public var endIndex: Position { Position(offset: end) }
        /// The position after `position`.
        public func index(after position: Position) -> Position {
            Position(offset: storage.end(of: position.offset))
        }
        /// The element at `position`.
        public subscript(position: Position) -> JSONValue { JSONValue(storage: storage, index: position.offset) }
        /// The number of elements.
        public var count: Int { start == end ? 0 : storage.count(of: start - 1) }
    }

    /// The members of an object in document order (RFC 8259 §4), read from the document without copying.
    public struct Members: Collection, Sendable {
        let storage: JSONStorage
        let start: Int
        let end: Int

        /// No members.
        public static var empty: Members { Members(storage: .null, start: 0, end: 0) }
        /// The first member's position.
        public var startIndex: Position { Position(offset: start) }
        /// The position after the last member.
        public var endIndex: Position { Position(offset: end) }
        /// The position after `position`.
        public func index(after position: Position) -> Position {
            Position(offset: storage.end(of: position.offset + 1))
        }
        /// The member at `position`: its key and value.
        public subscript(position: Position) -> (key: String, value: JSONValue) {
            (storage.string(at: position.offset), JSONValue(storage: storage, index: position.offset + 1))
        }
        /// The number of members.
        public var count: Int { start == end ? 0 : storage.count(of: start - 1) }
    }
}

extension JSONStorage {
    /// The tape index of the value of the member named `key` in the object at `object`.
    func member(named key: UnsafeBufferPointer<UInt8>, inObjectAt object: Int) -> Int? {
        var position = object + 1
        let end = object + Tape.size(tape[object])
        while position < end {
            let entry = tape[position]
            if Tape.length(entry) == key.count {
                let span = UnsafeBufferPointer(rebasing: bytes[Tape.offset(entry)..<Tape.offset(entry) + key.count])
                if JSONBytes.equal(span, key) { return position + 1 }
            }
            position += 1 + Tape.width(tape[position + 1])
        }
        return nil
    }

    /// The tape index of element `offset` of the array at `array`.
    func element(_ offset: Int, inArrayAt array: Int) -> Int? {
        let header = tape[array]
        let size = Tape.size(header)
        if size == Tape.count(header) + 1 {
            // Only scalars: one entry each.
            return offset < size - 1 ? array + 1 + offset : nil
        }
        var position = array + 1
        let end = array + size
        var remaining = offset
        while position < end {
            if remaining == 0 { return position }
            remaining -= 1
            position = self.end(of: position)
        }
        return nil
    }
}

// MARK: - Building values

extension JSONValue {
    /// The most UTF-8 bytes one string or number of a `JSONValue` holds: 268,435,455 (2^28 - 1). The parser reports
    /// a longer one as an error; code that builds values from input-sized text checks against it first, or uses
    /// ``init(checking:)``.
    public static let maxStringBytes = Tape.maxSpanLength

    /// A string value, or `limitExceeded` when `string` has more than ``maxStringBytes`` UTF-8 bytes: for text whose
    /// size comes from input (a decoded body, a canonical form), where ``init(_:)-(String)`` would stop the process.
    public init(checking string: String) throws(SerializationError) {
        let count = string.utf8.count
        guard count <= Self.maxStringBytes else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The text is \(count) bytes of UTF-8, more than a JSONValue string holds "
                    + "(\(Self.maxStringBytes) bytes, JSONValue.maxStringBytes); lower the body size limit or work "
                    + "with the value itself rather than its JSON form.")
        }
        self.init(string)
    }

    /// A string value. `string` must have at most ``maxStringBytes`` UTF-8 bytes; use ``init(checking:)`` for text
    /// whose size comes from input.
    public init(_ string: String) {
        var builder = JSONBuilder()
        builder.appendString(string)
        self.init(storage: builder.finish(), index: 0)
    }

    /// A boolean value.
    public init(_ bool: Bool) {
        self.init(storage: bool ? .true : .false, index: 0)
    }

    /// An integer value.
    public init<T: BinaryInteger>(_ integer: T) {
        if let value = Int64(exactly: integer), Tape.inlineIntegerRange.contains(value) {
            self.init(storage: JSONStorage(tape: [Tape.integer(value)], bytes: []), index: 0)
        } else {
            self.init(JSONNumber(integer))
        }
    }

    /// A number value from a `Double`, written as its shortest round-tripping text; `null` for infinities and NaN,
    /// which JSON cannot represent (RFC 8259 §6), as JavaScript's `JSON.stringify` does.
    public init(_ double: Double) {
        if let number = JSONNumber(double) {
            self.init(number)
        } else {
            self.init(storage: .null, index: 0)
        }
    }

    /// A number value with the exact text of `number`.
    public init(_ number: JSONNumber) {
        var builder = JSONBuilder()
        builder.appendNumber(number)
        self.init(storage: builder.finish(), index: 0)
    }

    /// An array of `elements`.
    public static func array(_ elements: [JSONValue]) -> JSONValue {
        var builder = JSONBuilder()
        let header = builder.beginContainer()
        for element in elements { builder.append(element) }
        builder.endContainer(header, kind: Tape.arrayKind, count: elements.count)
        return JSONValue(storage: builder.finish(), index: 0)
    }

    /// An object with `members` in order. When a key repeats, the last value wins at the position of the first
    /// occurrence, as when parsing with ``JSONParsingOptions/DuplicateKeyPolicy/lastWins``.
    public static func object(_ members: [(String, JSONValue)]) -> JSONValue {
        var unique = members
        if members.count > 1 {
            var positions: [[UInt8]: Int] = [:]
            unique = []
            for (key, value) in members {
                let bytes = Array(key.utf8)
                if let position = positions[bytes] {
                    unique[position].1 = value
                } else {
                    positions[bytes] = unique.count
                    unique.append((key, value))
                }
            }
        }
        var builder = JSONBuilder()
        let header = builder.beginContainer()
        for (key, value) in unique {
            builder.appendString(key)
            builder.append(value)
        }
        builder.endContainer(header, kind: Tape.objectKind, count: unique.count)
        return JSONValue(storage: builder.finish(), index: 0)
    }
}

/// Builds a tape from parts: literals, ``JSONValue/array(_:)`` and ``JSONValue/object(_:)``.
struct JSONBuilder {
    var tape: [UInt64] = []
    var bytes: [UInt8] = []

    /// Appends a string or number span. A tape entry records a span's length in 28 bits and its offset in 32 bits, so
    /// one string or number holds at most `Tape.maxSpanLength` (268,435,455) UTF-8 bytes and one value at most
    /// `Tape.maxOffset` (4,294,967,295) bytes of them in total. Checked before anything is copied; the public
    /// initializers that get here cannot throw, so callers that pass input-sized text (a decoded body, a canonical
    /// form) must check the size first and report an error (`JSONParser` does: `spanTooLong`).
    mutating func appendSpan(kind: UInt64, _ utf8: some Collection<UInt8>) {
        let offset = bytes.count
        let length = utf8.count
        precondition(
            length <= Tape.maxSpanLength && length <= Tape.maxOffset - offset,
            "a JSONValue string or number holds at most 268,435,455 UTF-8 bytes (2^28 - 1), and one value at most "
                + "4,294,967,295 bytes of them in total (2^32 - 1); this one is \(length) bytes after \(offset)")
        bytes.append(contentsOf: utf8)
        tape.append(Tape.span(kind: kind, offset: offset, length: length))
    }

    mutating func appendString(_ string: String) {
        appendSpan(kind: Tape.stringKind, string.utf8)
    }

    mutating func appendNumber(_ number: JSONNumber) {
        appendSpan(kind: Tape.numberKind, number.text.utf8)
    }

    /// Copies the subtree of `value`, moving its strings and numbers into this builder's bytes.
    mutating func append(_ value: JSONValue) {
        let source = value.storage
        let end = source.end(of: value.index)
        for position in value.index..<end {
            let entry = source.tape[position]
            let kind = Tape.kind(entry)
            if kind == Tape.stringKind || kind == Tape.numberKind {
                let offset = Tape.offset(entry)
                appendSpan(kind: kind, source.bytes[offset..<offset + Tape.length(entry)])
            } else {
                tape.append(entry)
            }
        }
    }

    mutating func beginContainer() -> Int {
        tape.append(0)
        return tape.count - 1
    }

    mutating func endContainer(_ header: Int, kind: UInt64, count: Int) {
        tape[header] = Tape.container(kind: kind, size: tape.count - header, count: count)
    }

    func finish() -> JSONStorage { JSONStorage(tape: tape, bytes: bytes) }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) {
        self.init(storage: .null, index: 0)
    }

    /// `true` or `false`.
    public init(booleanLiteral value: Bool) {
        self.init(value)
    }

    /// An integer.
    public init(integerLiteral value: Int) {
        self.init(value)
    }

    /// A number, written as the shortest text that reads back as `value`.
    public init(floatLiteral value: Double) {
        self.init(value)
    }

    /// A string.
    public init(stringLiteral value: String) {
        self.init(value)
    }

    /// An array.
    public init(arrayLiteral elements: JSONValue...) {
        self = .array(elements)
    }

    /// An object, with members in the literal's order.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(elements)
    }
}

// MARK: - Equality, hashing, description

extension JSONValue: Hashable, CustomStringConvertible {
    /// Whether two values are equal in RFC 8259's data model: same kind; numbers of equal value; strings with the
    /// same Unicode scalars; arrays with equal elements in order; objects with the same keys mapped to equal values,
    /// in any order (§4). Compares without recursion, so any depth is safe.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        if lhs.storage === rhs.storage && lhs.index == rhs.index { return true }
        let left = lhs.storage
        let right = rhs.storage
        var pending = [(lhs.index, rhs.index)]
        while let (a, b) = pending.popLast() {
            let ea = left.tape[a]
            let eb = right.tape[b]
            let ka = Tape.kind(ea)
            let kb = Tape.kind(eb)
            switch ka {
            case Tape.integerKind, Tape.numberKind:
                guard kb == Tape.integerKind || kb == Tape.numberKind else { return false }
                if ka == Tape.integerKind && kb == Tape.integerKind {
                    guard ea == eb else { return false }
                } else if left.decimalParts(at: a) != right.decimalParts(at: b) {
                    return false
                }
            case Tape.stringKind:
                guard kb == Tape.stringKind else { return false }
                let equal = left.withSpan(at: a) { sa in right.withSpan(at: b) { sb in JSONBytes.equal(sa, sb) } }
                if !equal { return false }
            case Tape.arrayKind:
                guard kb == Tape.arrayKind, left.count(of: a) == right.count(of: b) else { return false }
                var pa = a + 1
                var pb = b + 1
                let end = a + Tape.size(ea)
                while pa < end {
                    pending.append((pa, pb))
                    pa = left.end(of: pa)
                    pb = right.end(of: pb)
                }
            case Tape.objectKind:
                let count = left.count(of: a)
                guard kb == Tape.objectKind, count == right.count(of: b) else { return false }
                // Small objects are searched key by key; large ones through a dictionary of the right side's keys.
                var index: [[UInt8]: Int] = [:]
                if count > 32 {
                    var pb = b + 1
                    while pb < b + Tape.size(eb) {
                        index[right.withSpan(at: pb) { Array($0) }] = pb + 1
                        pb = right.end(of: pb + 1)
                    }
                }
                var pa = a + 1
                let end = a + Tape.size(ea)
                while pa < end {
                    let match =
                        count > 32
                        ? index[left.withSpan(at: pa) { Array($0) }]
                        : left.withSpan(at: pa) { right.member(named: $0, inObjectAt: b) }
                    guard let match else { return false }
                    pending.append((pa + 1, match))
                    pa = left.end(of: pa + 1)
                }
            default:
                guard ea == eb else { return false }
            }
        }
        return true
    }

    /// Hashes the value consistently with ``==(_:_:)``: scalars fully, containers by their size and the kinds and
    /// scalar contents of their elements or members (one level deep, so hashing never recurses).
    public func hash(into hasher: inout Hasher) {
        storage.hashShallow(at: index, into: &hasher)
        switch tapeKind {
        case Tape.arrayKind:
            for element in elements { storage.hashShallow(at: element.index, into: &hasher) }
        case Tape.objectKind:
            var sum: UInt64 = 0
            var position = index + 1
            let end = index + Tape.size(entry)
            while position < end {
                var member = Hasher()
                storage.hashShallow(at: position, into: &member)
                storage.hashShallow(at: position + 1, into: &member)
                sum &+= UInt64(bitPattern: Int64(member.finalize()))
                position = storage.end(of: position + 1)
            }
            hasher.combine(sum)
        default:
            break
        }
    }

    /// The value as compact JSON text (see ``jsonData(options:)``).
    public var description: String {
        String(decoding: jsonData(), as: UTF8.self)
    }
}

extension JSONStorage {
    /// The exact value of the number at `index`.
    func decimalParts(at index: Int) -> DecimalParts {
        let entry = tape[index]
        if Tape.kind(entry) == Tape.integerKind {
            var text = String(Tape.integerValue(entry))
            return text.withUTF8 { DecimalParts($0) }
        }
        return withSpan(at: index) { DecimalParts($0) }
    }

    /// Hashes the kind and, for scalars, the content of the value at `index`; for containers, the count.
    func hashShallow(at index: Int, into hasher: inout Hasher) {
        let entry = tape[index]
        switch Tape.kind(entry) {
        case Tape.integerKind, Tape.numberKind:
            hasher.combine(3 as UInt8)
            decimalParts(at: index).hash(into: &hasher)
        case Tape.stringKind:
            hasher.combine(5 as UInt8)
            withSpan(at: index) { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
        case Tape.arrayKind, Tape.objectKind:
            hasher.combine(UInt8(truncatingIfNeeded: Tape.kind(entry)))
            hasher.combine(count(of: index))
        default:
            hasher.combine(UInt8(truncatingIfNeeded: Tape.kind(entry)))
        }
    }
}
