public import DecantCore
import DecantValueTree

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decodes `Decodable` values from CBOR: from a ``CBORValue``, or from bytes it parses first.
///
/// Keyed containers read maps by their text-string keys (other keys are ignored), unkeyed containers read arrays
/// (and byte strings, one integer per byte), and tags are looked through to their content (`1(1363896240)` decodes
/// as a number), except that a `Date` decodes from tag 0 (an RFC 3339 date-time string) and tag 1 (seconds since
/// 1970), as ``CBOREncoder`` writes it; an untagged number decodes as `Date`'s own `Decodable` reads it. Number
/// conversions are exact or throw: `1.5` is not an `Int`, `300` is not a `UInt8`, and a float becomes a `Float` only
/// when it has the same value as one (NaN included). `Data` decodes from a byte string.
/// `null` and `undefined` are both `nil`.
///
/// ```swift
/// struct User: Decodable { var id: Int; var name: String }
/// let user = try CBORDecoder().decode(User.self, from: body)
/// ```
public struct CBORDecoder: Sendable {
    /// The options of the parser used by ``decode(_:from:)-(_,Data)``.
    public var parsingOptions: CBORParsingOptions

    /// Creates a decoder.
    public init(parsingOptions: CBORParsingOptions = CBORParsingOptions()) {
        self.parsingOptions = parsingOptions
    }

    /// Decodes a `T` from `value`.
    ///
    /// - Throws: `SerializationError` with code `decodingFailed`, the coding path and the `DecodingError` as
    ///   `underlying`.
    public func decode<T: Decodable>(_ type: T.Type, from value: CBORValue) throws(SerializationError) -> T {
        try decode(type, from: value, codingPath: [])
    }

    /// Decodes a `T` from `value`, found at `codingPath` in a larger document (a JSON Pointer's tokens).
    func decode<T: Decodable>(
        _ type: T.Type, from value: CBORValue, codingPath: [any CodingKey]
    ) throws(SerializationError) -> T {
        do {
            return try CBORValueDecoder(value: value, codingPath: codingPath).decodeValue(type)
        } catch {
            throw SerializationError(decoding: T.self, from: "the CBOR value", failure: error)
        }
    }

    /// Parses `data` as one CBOR data item and decodes a `T` from it.
    ///
    /// - Throws: `SerializationError` as ``CBORParser/parse(_:)`` and ``decode(_:from:)-(_,CBORValue)`` do.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(SerializationError) -> T {
        try decode(type, from: CBORParser(options: parsingOptions).parse(data))
    }
}

/// The `Decoder` over one value.
private struct CBORValueDecoder: Decoder {
    let value: CBORValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    /// The value with its tags removed.
    var content: CBORValue {
        var current = value
        while case .tag(_, let inner) = current { current = inner }
        return current
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Data.self, case .bytes(let data) = content, let result = data as? T { return result }
        if T.self == Date.self, case .tag(let number, let tagged) = value, number <= 1,
            let result = try taggedDate(number, tagged) as? T
        {
            return result
        }
        return try T(from: self)
    }

    /// The date of tag 0 (an RFC 3339 text string) or tag 1 (seconds since 1970), RFC 8949 §3.4.1-2.
    func taggedDate(_ number: UInt64, _ content: CBORValue) throws -> Date {
        if number == 1 {
            switch content {
            case .float(let seconds): return Date(timeIntervalSince1970: seconds)
            case .unsignedInteger(let seconds): return Date(timeIntervalSince1970: Double(seconds))
            case .negativeInteger(let n): return Date(timeIntervalSince1970: -1 - Double(n))
            default: throw mismatch(Date.self, "a number of seconds under tag 1")
            }
        }
        guard case .text(let text) = content else { throw mismatch(Date.self, "a date-time text string under tag 0") }
        if let date = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text) { return date }
        if let date = try? Date.ISO8601FormatStyle().parse(text) { return date }
        throw DecodingError.dataCorrupted(
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "The tag 0 text \"\(text)\" is not an RFC 3339 date-time."))
    }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "Expected \(expected), found \(content.kindName)."))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let entries) = content else { throw mismatch([String: Any].self, "a map") }
        return KeyedDecodingContainer(KeyedContainer<Key>(entries: entries, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch content {
        case .array(let elements): return UnkeyedContainer(elements: elements, codingPath: codingPath)
        case .bytes(let data):
            return UnkeyedContainer(elements: data.map { .unsignedInteger(UInt64($0)) }, codingPath: codingPath)
        default: throw mismatch([Any].self, "an array")
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { SingleValueContainer(decoder: self) }
}

private struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let codingPath: [any CodingKey]
    let values: [String: CBORValue]
    let allKeys: [Key]

    init(entries: [CBORValue.MapEntry], codingPath: [any CodingKey]) {
        var values: [String: CBORValue] = [:]
        var keys: [Key] = []
        for entry in entries {
            guard case .text(let name) = entry.key, values[name] == nil else { continue }
            values[name] = entry.value
            if let key = Key(stringValue: name) { keys.append(key) }
        }
        self.values = values
        self.allKeys = keys
        self.codingPath = codingPath
    }

    func contains(_ key: Key) -> Bool { values[key.stringValue] != nil }

    func child(_ key: Key) throws -> CBORValueDecoder {
        guard let value = values[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "The map has no key \"\(key.stringValue)\"."))
        }
        return CBORValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        switch try child(key).content {
        case .null, .undefined: true
        default: false
        }
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try child(key).decodeValue(type) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try child(key).decodeValue(type) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try child(key).decodeValue(type) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try child(key).decodeValue(type) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try child(key).decodeValue(type) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try child(key).decodeValue(type) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try child(key).decodeValue(type) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try child(key).decodeValue(type) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try child(key).decodeValue(type) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try child(key).decodeValue(type) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try child(key).decodeValue(type) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try child(key).decodeValue(type) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try child(key).decodeValue(type) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try child(key).decodeValue(type) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try child(key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        CBORValueDecoder(value: .map(values.map { .init(key: .text($0.key), value: $0.value) }), codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

private struct UnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [CBORValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [CBORValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func next() throws -> CBORValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self,
                DecodingError.Context(
                    codingPath: codingPath + [DecodingKey(index: currentIndex)],
                    debugDescription: "The array has only \(elements.count) elements."))
        }
        defer { currentIndex += 1 }
        return CBORValueDecoder(
            value: elements[currentIndex], codingPath: codingPath + [DecodingKey(index: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return false }
        switch elements[currentIndex] {
        case .null, .undefined:
            currentIndex += 1
            return true
        default: return false
        }
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try next().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }

    mutating func superDecoder() throws -> any Decoder { try next() }
}

private struct SingleValueContainer: IntegerDecodingContainer {
    let decoder: CBORValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool {
        switch decoder.content {
        case .null, .undefined: true
        default: false
        }
    }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let flag) = decoder.content else { throw decoder.mismatch(type, "a boolean") }
        return flag
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .text(let text) = decoder.content else { throw decoder.mismatch(type, "a text string") }
        return text
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch decoder.content {
        case .float(let double): return double
        case .unsignedInteger(let value):
            if let double = Double(exactly: value) { return double }
        case .negativeInteger(let n):
            if let double = Double(exactly: n) { return -1 - double }
        default: break
        }
        throw decoder.mismatch(type, "a number a Double holds exactly")
    }

    func decode(_ type: Float.Type) throws -> Float {
        let double = try decode(Double.self)
        if double.isNaN { return .nan }
        guard let float = Float(exactly: double) else { throw decoder.mismatch(type, "a number a Float holds exactly") }
        return float
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let result: T?
        switch decoder.content {
        case .unsignedInteger(let value): result = T(exactly: value)
        case .negativeInteger(let n): result = n <= UInt64(Int64.max) ? T(exactly: -1 - Int64(n)) : nil
        case .float(let double): result = T(exactly: double)
        default: result = nil
        }
        guard let result else { throw decoder.mismatch(type, "an integer in the range of \(T.self)") }
        return result
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decoder.decodeValue(type) }
}
