public import DecantCore
import DecantValueTree
public import Foundation

/// Decodes `Decodable` values from MessagePack bytes or from a ``MessagePackValue``.
///
/// Keyed containers read maps whose keys are strings (other keys are skipped); unkeyed containers read arrays (and
/// bin values, one integer per byte). Numbers convert only exactly (`Int8` from 300 or `Int` from 1.5 throws);
/// `Date` decodes from a timestamp (or a number of seconds since 1970), `Data` from bin.
///
/// ```swift
/// struct User: Decodable { var id: Int; var name: String }
/// let user = try MessagePackDecoder().decode(User.self, from: body)
/// ```
public struct MessagePackDecoder: Sendable {
    /// The parsing options used by ``decode(_:from:)-(_,Data)``.
    public var parsingOptions: MessagePackParsingOptions

    /// Creates a decoder.
    public init(parsingOptions: MessagePackParsingOptions = MessagePackParsingOptions()) {
        self.parsingOptions = parsingOptions
    }

    /// Parses `data` and decodes a `T` from it.
    ///
    /// - Throws: `SerializationError`: the parser's codes, or `decodingFailed` with the coding path.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(SerializationError) -> T {
        try decode(type, from: try MessagePackParser(options: parsingOptions).parse(data))
    }

    /// Decodes a `T` from `value`.
    ///
    /// - Throws: `SerializationError` with code `decodingFailed`, the coding path and the `DecodingError` as
    ///   `underlying`.
    public func decode<T: Decodable>(_ type: T.Type, from value: MessagePackValue) throws(SerializationError) -> T {
        try decode(type, from: value, codingPath: [])
    }

    /// Decodes a `T` from `value`, found at `codingPath` in a larger document (a JSON Pointer's tokens).
    func decode<T: Decodable>(
        _ type: T.Type, from value: MessagePackValue, codingPath: [any CodingKey]
    ) throws(SerializationError) -> T {
        do {
            return try ValueDecoder(value: value, codingPath: codingPath).decodeValue(type)
        } catch {
            throw SerializationError(decoding: T.self, from: "the MessagePack value", failure: error)
        }
    }
}

/// The `Decoder` over one value.
private struct ValueDecoder: Decoder {
    let value: MessagePackValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        .typeMismatch(
            type, DecodingError.Context(codingPath: codingPath, debugDescription: "expected \(expected), found \(kind)")
        )
    }

    var kind: String {
        switch value {
        case .nil: "nil"
        case .bool: "a boolean"
        case .int, .uint: "an integer"
        case .float32, .float64: "a float"
        case .string: "a string"
        case .binary: "binary data"
        case .array: "an array"
        case .map: "a map"
        case .ext: "an extension value"
        case .timestamp: "a timestamp"
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .map(let entries) = value else { throw mismatch([String: Any].self, "a map") }
        var members: [String: MessagePackValue] = [:]
        for entry in entries {
            if case .string(let key) = entry.key, members[key] == nil { members[key] = entry.value }
        }
        return KeyedDecodingContainer(Keyed<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        switch value {
        case .array(let elements): return Unkeyed(elements: elements, codingPath: codingPath)
        case .binary(let bytes): return Unkeyed(elements: bytes.map { .int(Int64($0)) }, codingPath: codingPath)
        default: throw mismatch([Any].self, "an array")
        }
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func child(_ value: MessagePackValue, _ key: any CodingKey) -> ValueDecoder {
        ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == Date.self {
            switch value {
            case .timestamp(let seconds, let nanoseconds):
                return try cast(Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9))
            case .int, .uint, .float32, .float64:
                return try cast(Date(timeIntervalSince1970: try decode(Double.self)))
            default: throw mismatch(Date.self, "a timestamp")
            }
        }
        if T.self == Data.self {
            guard case .binary(let bytes) = value else { throw mismatch(Data.self, "binary data") }
            return try cast(Data(bytes))
        }
        return try T(from: self)
    }

    func cast<T>(_ value: Any) throws -> T {
        guard let result = value as? T else { throw mismatch(T.self, "\(T.self)") }
        return result
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        let result: T?
        switch value {
        case .int(let integer): result = T(exactly: integer)
        case .uint(let integer): result = T(exactly: integer)
        case .float32(let float): result = T(exactly: float)
        case .float64(let double): result = T(exactly: double)
        default: throw mismatch(type, "an integer")
        }
        guard let result else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "the number does not fit \(T.self)"))
        }
        return result
    }

    func floating<T: BinaryFloatingPoint>(_ type: T.Type) throws -> T {
        let result: T?
        switch value {
        case .int(let integer): result = T(exactly: integer)
        case .uint(let integer): result = T(exactly: integer)
        case .float32(let float): result = float.isNaN ? T.nan : T(exactly: float)
        case .float64(let double): result = double.isNaN ? T.nan : T(exactly: double)
        default: throw mismatch(type, "a number")
        }
        guard let result else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "the number is not exactly representable as \(T.self)"))
        }
        return result
    }
}

extension ValueDecoder: IntegerDecodingContainer {
    func decodeNil() -> Bool { value == .nil }
    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type, "a boolean") }
        return bool
    }
    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type, "a string") }
        return string
    }
    func decode(_ type: Double.Type) throws -> Double { try floating(type) }
    func decode(_ type: Float.Type) throws -> Float { try floating(type) }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}

/// A keyed container over a map's string-keyed entries (the first of duplicate keys wins).
private struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: MessagePackValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.compactMap { Key(stringValue: $0) } }
    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    func child(_ key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key, DecodingError.Context(codingPath: codingPath, debugDescription: "no key \"\(key.stringValue)\""))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try child(key).decodeNil() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try child(key).decodeValue(type) }
    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> { try child(key).container(keyedBy: type) }
    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try child(key).unkeyedContainer()
    }
    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members["super"] ?? .nil, codingPath: codingPath + [DecodingKey("super")])
    }
    func superDecoder(forKey key: Key) throws -> any Decoder { try child(key) }
}

/// An unkeyed container over an array's elements.
private struct Unkeyed: UnkeyedDecodingContainer {
    let elements: [MessagePackValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(elements: [MessagePackValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    mutating func next() throws -> ValueDecoder {
        let key = DecodingKey(index: currentIndex)
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self,
                DecodingError.Context(codingPath: codingPath + [key], debugDescription: "the array has ended"))
        }
        currentIndex += 1
        return ValueDecoder(value: elements[currentIndex - 1], codingPath: codingPath + [key])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, elements[currentIndex] == .nil else { return false }
        currentIndex += 1
        return true
    }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try next().decodeValue(type) }
    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> { try next().container(keyedBy: type) }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}
