public import DecantCore
import DecantValueTree

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decodes a flat `Decodable` type from form fields: one property per field name.
///
/// - `String`: the field's first value. Integers (`Int`, `UInt8`, ...), `Double` and `Float`: the first value in
///   Swift's own number syntax (`Int("42")`, `Double("0.5")`; `nan` and infinities are rejected). `Bool`: `true`,
///   `1`, `on` (an HTML checkbox), `yes` or `false`, `0`, `off`, `no`, in any case.
/// - Optionals: `nil` when the name does not occur (a field that occurs with an empty value is `""` for a
///   `String?` and a type mismatch for an `Int?`).
/// - Arrays (`[String]`, `[Int]`, ...): every value of a repeated name, in order; empty when the name does not occur
///   only if the property is optional, as with any missing key.
/// - `RawRepresentable` enums and other types that decode from a single value work as their raw type does;
///   `[String: String]` decodes every distinct name to its first value.
/// - Nested structures are not supported (forms are flat): decoding one throws.
///
/// ```swift
/// struct Token: Decodable { var access_token: String; var expires_in: Int; var scope: [String]? }
/// let token = try FormDecoder().decode(Token.self, from: Data("access_token=abc&expires_in=3600".utf8))
/// ```
public struct FormDecoder: Sendable {
    /// The limits used when decoding from bytes.
    public var parsingOptions: FormParsingOptions

    /// Creates a decoder.
    public init(parsingOptions: FormParsingOptions = FormParsingOptions()) {
        self.parsingOptions = parsingOptions
    }

    /// Decodes a `T` from parsed form data.
    ///
    /// - Throws: `SerializationError` with code `decodingFailed`, the field's name in
    ///   ``SerializationError/codingPath`` and the `DecodingError` as ``SerializationError/underlying``.
    public func decode<T: Decodable>(_ type: T.Type, from form: FormData) throws(SerializationError) -> T {
        do {
            return try T(from: FieldsDecoder(form: form))
        } catch {
            throw SerializationError(decoding: T.self, from: "the form", failure: error)
        }
    }

    /// Parses `data` with ``parsingOptions`` and decodes a `T` from its fields.
    ///
    /// - Throws: `SerializationError`: the parser's `limitExceeded`, or `decodingFailed` as
    ///   ``decode(_:from:)-(_,FormData)`` throws it.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(SerializationError) -> T {
        try decode(type, from: FormParser(options: parsingOptions).parse(data))
    }
}

/// The `ResponseDecoder` of the `form` format: parses the body and decodes with a ``FormDecoder``, so that
/// `SerializerRegistry.decode(_:from:)` decodes form responses.
public struct FormResponseDecoder: ResponseDecoder, FormatComponent {
    /// The `form` format.
    public static var format: MediaFormat { .form }

    /// The decoder, with its parsing limits.
    public var decoder: FormDecoder
    /// The media ranges accepted.
    public var mediaRanges: [MediaRange]

    /// Creates the response decoder.
    public init(
        decoder: FormDecoder = FormDecoder(),
        mediaRanges: [MediaRange] = MediaFormat.form.mediaRanges
    ) {
        self.decoder = decoder
        self.mediaRanges = mediaRanges
    }

    /// Parses the body and decodes a `T` from its fields.
    ///
    /// - Throws: `SerializationError` as ``FormDecoder/decode(_:from:)-(_,Data)`` does, with the response attached.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T {
        do {
            return try decoder.decode(type, from: response.body)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}

extension FormSerializerFactory {
    /// The format's `Decodable` decoder, built from `options`.
    public func makeDecoder(options: Options) -> (any ResponseDecoder)? {
        FormResponseDecoder(
            decoder: FormDecoder(parsingOptions: options.parsing), mediaRanges: options.mediaRanges)
    }
}

// MARK: - The Decoder implementation

/// The top-level decoder: a keyed container over the fields, nothing else.
private struct FieldsDecoder: Decoder {
    let form: FormData
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(FieldsContainer<Key>(form: form))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self,
            .init(codingPath: [], debugDescription: "A form is a set of named fields, not a list; decode a struct."))
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            String.self,
            .init(codingPath: [], debugDescription: "A form is a set of named fields, not one value; decode a struct."))
    }
}

/// The fields by name.
private struct FieldsContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let form: FormData
    var codingPath: [any CodingKey] { [] }
    var allKeys: [Key] { form.names.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { form[key.stringValue] != nil }
    func decodeNil(forKey key: Key) throws -> Bool { !contains(key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let values = form.values(for: key.stringValue)
        guard !values.isEmpty else {
            throw DecodingError.keyNotFound(
                key, .init(codingPath: [], debugDescription: "No field is named '\(key.stringValue)'."))
        }
        return try T(from: ValuesDecoder(values: values, codingPath: [key]))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(Scalar<Bool>.self, forKey: key).value }
    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try decode(Scalar<String>.self, forKey: key).value
    }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try decode(Scalar<Double>.self, forKey: key).value
    }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        try decode(Scalar<Float>.self, forKey: key).value
    }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(Scalar<Int>.self, forKey: key).value }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(Scalar<Int8>.self, forKey: key).value }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        try decode(Scalar<Int16>.self, forKey: key).value
    }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        try decode(Scalar<Int32>.self, forKey: key).value
    }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try decode(Scalar<Int64>.self, forKey: key).value
    }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(Scalar<UInt>.self, forKey: key).value }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        try decode(Scalar<UInt8>.self, forKey: key).value
    }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        try decode(Scalar<UInt16>.self, forKey: key).value
    }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        try decode(Scalar<UInt32>.self, forKey: key).value
    }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        try decode(Scalar<UInt64>.self, forKey: key).value
    }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw ValuesDecoder.nestingError(at: [key])
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        ValuesContainer(values: form.values(for: key.stringValue), codingPath: [key])
    }

    func superDecoder() throws -> any Decoder { throw ValuesDecoder.nestingError(at: []) }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw ValuesDecoder.nestingError(at: [key]) }
}

/// A wrapper that decodes one scalar from a single-value container, so that the concrete overloads share one path.
private struct Scalar<Value: Decodable>: Decodable {
    let value: Value
    init(from decoder: any Decoder) throws {
        value = try decoder.singleValueContainer().decode(Value.self)
    }
}

/// The values of one name: a single value (the first) or a list (all of them).
private struct ValuesDecoder: Decoder {
    let values: [String]
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    static func nestingError(at path: [any CodingKey]) -> DecodingError {
        DecodingError.typeMismatch(
            [String: Any].self,
            .init(
                codingPath: path,
                debugDescription: "Form fields are flat: a nested structure cannot be decoded from a field."))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw Self.nestingError(at: codingPath)
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        ValuesContainer(values: values, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueContainer(value: values.first ?? "", codingPath: codingPath)
    }
}

/// Every value of a repeated name, in order.
private struct ValuesContainer: UnkeyedDecodingContainer {
    let values: [String]
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    init(values: [String], codingPath: [any CodingKey]) {
        self.values = values
        self.codingPath = codingPath
    }

    mutating func decodeNil() throws -> Bool { false }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let path = codingPath + [DecodingKey(index: currentIndex)]
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: path, debugDescription: "The field has only \(values.count) values."))
        }
        let value = try T(from: ValuesDecoder(values: [values[currentIndex]], codingPath: path))
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        throw ValuesDecoder.nestingError(at: codingPath)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw ValuesDecoder.nestingError(at: codingPath)
    }

    mutating func superDecoder() throws -> any Decoder { throw ValuesDecoder.nestingError(at: codingPath) }
}

/// One value, converted to the scalar asked for.
private struct ValueContainer: IntegerDecodingContainer {
    let value: String
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { false }

    func decode(_ type: String.Type) throws -> String { value }

    func decode(_ type: Bool.Type) throws -> Bool {
        switch value.lowercased() {
        case "true", "1", "on", "yes": return true
        case "false", "0", "off", "no": return false
        default: throw mismatch(type, "a boolean (true, false, 1, 0, on, off, yes or no)")
        }
    }

    func decode(_ type: Double.Type) throws -> Double {
        guard let number = Double(value), number.isFinite else { throw mismatch(type, "a finite number") }
        return number
    }

    func decode(_ type: Float.Type) throws -> Float {
        guard let number = Float(value), number.isFinite else { throw mismatch(type, "a finite number") }
        return number
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: ValuesDecoder(values: [value], codingPath: codingPath))
    }

    func decodeInteger<T: FixedWidthInteger>(_ type: T.Type) throws -> T {
        guard let number = T(value, radix: 10) else { throw mismatch(type, "an integer that fits \(T.self)") }
        return number
    }

    private func mismatch(_ type: Any.Type, _ expected: String) -> DecodingError {
        let shown = value.count > 40 ? String(value.prefix(40)) + "..." : value
        return DecodingError.typeMismatch(
            type, .init(codingPath: codingPath, debugDescription: "Expected \(expected), found \"\(shown)\"."))
    }
}
