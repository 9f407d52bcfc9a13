public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decodes `Decodable` values from property lists, with `PropertyListDecoder`'s semantics: dictionaries are keyed
/// containers, arrays unkeyed ones, `<date>` decodes `Date`, `<data>` decodes `Data`, integers and reals convert to
/// any numeric type that holds them exactly, and the string `$null` is nil.
///
/// Errors are `SerializationError`s with the code `decodingFailed`, the coding path (`codingPath`, also in the
/// message) and the `DecodingError` as `underlying`; parse errors keep their own codes.
public struct PropertyListValueDecoder: Sendable {
    /// The format and limits used when decoding from `Data`.
    public var parsingOptions: PropertyListParsingOptions
    /// How dictionary keys are matched to coding keys (`DecodingOptions.KeyDecodingStrategy`); as they are by
    /// default, as `PropertyListDecoder` does. When two keys convert to the same name, the first wins.
    public var keyDecodingStrategy: DecodingOptions.KeyDecodingStrategy
    /// Contextual information passed to every `init(from:)` as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// A decoder parsing with `parsingOptions`.
    public init(
        parsingOptions: PropertyListParsingOptions = PropertyListParsingOptions(),
        keyDecodingStrategy: DecodingOptions.KeyDecodingStrategy = .useDefaultKeys,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) {
        self.parsingOptions = parsingOptions
        self.keyDecodingStrategy = keyDecodingStrategy
        self.userInfo = userInfo
    }

    /// Sets the key strategy of `options` (when set) and adds its `userInfo`. Dates and data are property-list
    /// types of their own, so the date, data and float strategies do not apply.
    public mutating func apply(_ options: DecodingOptions) {
        if let key = options.keyDecodingStrategy { keyDecodingStrategy = key }
        for (key, value) in options.userInfo { userInfo[key] = value }
    }

    /// Parses `data` and decodes a `T` from it.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(SerializationError) -> T {
        let value = try PropertyListParser(options: parsingOptions).parse(data)
        return try decode(type, from: value)
    }

    /// Decodes a `T` from an already parsed value.
    public func decode<T: Decodable>(_ type: T.Type, from value: PropertyListValue) throws(SerializationError) -> T {
        try decode(type, from: value, codingPath: [])
    }

    /// Decodes a `T` from `value`, found at `codingPath` in a larger document (a JSON Pointer's tokens).
    func decode<T: Decodable>(
        _ type: T.Type, from value: PropertyListValue, codingPath: [any CodingKey]
    ) throws(SerializationError) -> T {
        do {
            let context = DecodingContext(keyDecodingStrategy: keyDecodingStrategy, userInfo: userInfo)
            return try ValueDecoder(value: value, codingPath: codingPath, context: context).unbox(type)
        } catch {
            throw SerializationError(
                decoding: T.self, from: "the property list", failure: error, serializerID: "propertyList")
        }
    }
}

/// Decodes `Decodable` values from property list response bodies (what `SerializerRegistry.decode` uses for
/// `propertyList`).
public struct PropertyListResponseDecoder: ResponseDecoder, FormatComponent {
    /// The `propertyList` format.
    public static var format: MediaFormat { .propertyList }

    /// The value decoder, with its parsing options.
    public var decoder: PropertyListValueDecoder
    /// The media ranges accepted.
    public var mediaRanges: [MediaRange]

    /// A response decoder using `decoder`, accepting `mediaRanges`.
    public init(
        decoder: PropertyListValueDecoder = PropertyListValueDecoder(),
        mediaRanges: [MediaRange] = MediaFormat.propertyList.mediaRanges
    ) {
        self.decoder = decoder
        self.mediaRanges = mediaRanges
    }

    /// A copy whose decoder has `options` applied (``PropertyListValueDecoder/apply(_:)``): the key strategy and
    /// `userInfo`.
    public func applying(_ options: DecodingOptions) -> any ResponseDecoder {
        var copy = self
        copy.decoder.apply(options)
        return copy
    }

    /// `true`: XML and OpenStep property lists allow whitespace around their value, so a body of only whitespace is an
    /// empty body.
    public func countsWhitespaceAsEmpty(for response: Response) -> Bool { true }

    /// Parses the body (its `charset` parameter naming the encoding of text formats without a declaration) and
    /// decodes a `T`.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T {
        do {
            let value = try PropertyListParser(options: decoder.parsingOptions)
                .parse(response.body, mediaType: response.contentType)
            return try decoder.decode(type, from: value)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}

/// `[String: Value]` dictionaries, whose keys the key strategy leaves alone.
protocol StringKeyedDictionary {}
extension Dictionary: StringKeyedDictionary where Key == String {}

struct IndexKey: CodingKey {
    let stringValue: String
    let intValue: Int?

    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }

    init(intValue: Int) {
        stringValue = String(intValue)
        self.intValue = intValue
    }
}

/// What every container of one decoding shares: the key conversion and `userInfo`.
final class DecodingContext {
    /// `nil` for default keys, so that matching them converts nothing.
    let keyDecodingStrategy: DecodingOptions.KeyDecodingStrategy?
    let userInfo: [CodingUserInfoKey: Any]

    init(keyDecodingStrategy: DecodingOptions.KeyDecodingStrategy, userInfo: [CodingUserInfoKey: any Sendable]) {
        if case .useDefaultKeys = keyDecodingStrategy {
            self.keyDecodingStrategy = nil
        } else {
            self.keyDecodingStrategy = keyDecodingStrategy
        }
        var info: [CodingUserInfoKey: Any] = [:]
        for (key, value) in userInfo { info[key] = value }
        self.userInfo = info
    }
}

final class ValueDecoder: Decoder, SingleValueDecodingContainer {
    let value: PropertyListValue
    let codingPath: [any CodingKey]
    let context: DecodingContext
    /// Whether a keyed container converts keys: not for a `[String: Value]` dictionary, whose keys are data (as
    /// `JSONDecoder` does).
    let convertsKeys: Bool
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    init(value: PropertyListValue, codingPath: [any CodingKey], context: DecodingContext, convertsKeys: Bool = true) {
        self.value = value
        self.codingPath = codingPath
        self.context = context
        self.convertsKeys = convertsKeys
    }

    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if type == Date.self {
            guard case .date(let date) = value else { throw mismatch(type) }
            return date as! T
        }
        if type == Data.self {
            guard case .data(let data) = value else { throw mismatch(type) }
            return data as! T
        }
        if context.keyDecodingStrategy != nil, type is any StringKeyedDictionary.Type {
            return try T(
                from: ValueDecoder(value: value, codingPath: codingPath, context: context, convertsKeys: false))
        }
        return try T(from: self)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        DecodingError.typeMismatch(
            type,
            DecodingError.Context(
                codingPath: codingPath, debugDescription: "Expected \(type) but found \(value.kindDescription)."))
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .dictionary(let dictionary) = value else { throw mismatch(PropertyListDictionary.self) }
        return KeyedDecodingContainer(
            KeyedContainer<Key>(
                dictionary: dictionary, codingPath: codingPath, context: context, convertsKeys: convertsKeys))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let array) = value else { throw mismatch([PropertyListValue].self) }
        return UnkeyedContainer(array: array, codingPath: codingPath, context: context)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func decodeNil() -> Bool { value == .string("$null") }

    func decode(_ type: Bool.Type) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(type) }
        return bool
    }

    func decode(_ type: String.Type) throws -> String {
        guard case .string(let string) = value else { throw mismatch(type) }
        return string
    }

    func decode(_ type: Double.Type) throws -> Double {
        switch value {
        case .real(let real): return real
        case .integer(let integer): return integer.doubleValue
        default: throw mismatch(type)
        }
    }

    func decode(_ type: Float.Type) throws -> Float {
        let double = try decode(Double.self)
        let float = Float(double)
        guard !double.isFinite || float.isFinite else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: codingPath, debugDescription: "\(double) does not fit in Float."))
        }
        return float
    }

    func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        var result: I? = nil
        switch value {
        case .integer(let integer):
            if let small = integer.int64Value {
                result = I(exactly: small)
            } else if let unsigned = integer.uint64Value {
                result = I(exactly: unsigned)
            }
        case .real(let real):
            result = I(exactly: real)
        default:
            throw mismatch(type)
        }
        guard let result else {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "The number \(value) does not fit in \(type)."))
        }
        return result
    }

    func decode(_ type: Int.Type) throws -> Int { try integer(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try integer(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try integer(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try integer(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try integer(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try integer(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try integer(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try integer(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try integer(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try integer(type) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try unbox(type) }
}

struct KeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let dictionary: PropertyListDictionary
    let codingPath: [any CodingKey]
    let context: DecodingContext
    /// The position of each key as coding keys see it (converted by the key strategy; the first of two keys that
    /// convert to the same name wins).
    let positions: [String: Int]
    /// The keys as coding keys see them, in the dictionary's order.
    let keys: [String]

    init(
        dictionary: PropertyListDictionary, codingPath: [any CodingKey], context: DecodingContext, convertsKeys: Bool
    ) {
        self.dictionary = dictionary
        self.codingPath = codingPath
        self.context = context
        let strategy = convertsKeys ? context.keyDecodingStrategy : nil
        var positions: [String: Int] = [:]
        var keys: [String] = []
        keys.reserveCapacity(dictionary.keys.count)
        for (index, key) in dictionary.keys.enumerated() {
            let converted = strategy?.convert(key, codingPath: codingPath) ?? key
            keys.append(converted)
            if strategy == nil {
                positions[converted] = index
            } else if positions[converted] == nil {
                positions[converted] = index
            }
        }
        self.positions = positions
        self.keys = keys
    }

    var allKeys: [Key] { keys.compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { positions[key.stringValue] != nil }

    func decoder(forKey key: Key) throws -> ValueDecoder {
        guard let position = positions[key.stringValue] else {
            throw DecodingError.keyNotFound(
                key,
                DecodingError.Context(
                    codingPath: codingPath, debugDescription: "The dictionary has no key '\(key.stringValue)'."))
        }
        return ValueDecoder(value: dictionary.values[position], codingPath: codingPath + [key], context: context)
    }

    func decodeValue<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder(forKey: key).unbox(type)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(forKey: key).decodeNil() }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeValue(type, forKey: key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeValue(type, forKey: key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeValue(type, forKey: key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeValue(type, forKey: key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeValue(type, forKey: key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeValue(type, forKey: key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeValue(type, forKey: key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeValue(type, forKey: key) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try decodeValue(type, forKey: key) }

    func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type, forKey key: Key
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(forKey: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(forKey: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { try decoder(forKey: Key(stringValue: "super")!) }

    func superDecoder(forKey key: Key) throws -> any Decoder { try decoder(forKey: key) }
}

struct UnkeyedContainer: UnkeyedDecodingContainer {
    let array: [PropertyListValue]
    let codingPath: [any CodingKey]
    let context: DecodingContext
    var currentIndex = 0

    init(array: [PropertyListValue], codingPath: [any CodingKey], context: DecodingContext) {
        self.array = array
        self.codingPath = codingPath
        self.context = context
    }

    var count: Int? { array.count }
    var isAtEnd: Bool { currentIndex >= array.count }

    mutating func nextDecoder() throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self,
                DecodingError.Context(
                    codingPath: codingPath + [IndexKey(intValue: currentIndex)],
                    debugDescription: "The array has only \(array.count) elements."))
        }
        let decoder = ValueDecoder(
            value: array[currentIndex], codingPath: codingPath + [IndexKey(intValue: currentIndex)], context: context)
        currentIndex += 1
        return decoder
    }

    mutating func decodeNextValue<T: Decodable>(_ type: T.Type) throws -> T {
        try nextDecoder().unbox(type)
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, array[currentIndex] == .string("$null") else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeNextValue(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeNextValue(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeNextValue(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeNextValue(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeNextValue(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeNextValue(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeNextValue(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeNextValue(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeNextValue(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeNextValue(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeNextValue(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeNextValue(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeNextValue(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeNextValue(type) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeNextValue(type) }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy type: NestedKey.Type
    ) throws -> KeyedDecodingContainer<NestedKey> {
        try nextDecoder().container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try nextDecoder().unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { try nextDecoder() }
}
