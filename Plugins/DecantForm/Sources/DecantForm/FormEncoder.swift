public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Encodes a flat `Encodable` type into form fields: one property per field name, the inverse of ``FormDecoder``.
///
/// - `String`: as it is. Integers: in decimal. `Double` and `Float`: Swift's shortest round-tripping spelling
///   (`0.5`, `3.0`, `1e-07`); infinities and NaN follow `EncodingOptions.nonConformingFloatEncodingStrategy` (by
///   default they throw `encodingFailed`, as ``FormDecoder`` would reject them). `Bool`: per
///   ``FormEncodingOptions/boolEncoding`` (`true`/`false` by default). `URL`: its absolute string; `Decimal`: its
///   description.
/// - Optionals: a `nil` writes no field (wherever it occurs: a `nil` array element writes nothing either).
/// - Arrays and sets: one field per element, named per ``FormEncodingOptions/arrayEncoding`` (by default the
///   property's name repeated, which ``FormDecoder`` reads back); an empty array writes no field.
/// - `Date`: per `EncodingOptions.dateEncodingStrategy`; by default `.deferredToDate` (seconds since
///   2001-01-01T00:00:00Z, as `JSONEncoder` and Alamofire do), which ``FormDecoder`` reads back. `.secondsSince1970`
///   and `.millisecondsSince1970` write a number, `.iso8601` and `.iso8601WithFractionalSeconds` an RFC 3339
///   date-time in UTC (`2024-05-01T12:00:00Z`, `2024-05-01T12:00:00.250Z`).
/// - `Data`: per `EncodingOptions.dataEncodingStrategy`; by default Base64 (as `JSONEncoder` and Alamofire do;
///   ``FormDecoder`` reads data only as `.deferredToData` writes it, one field per byte).
/// - Keys: per `EncodingOptions.keyEncodingStrategy` (`KeyEncodingStrategy.convert(_:codingPath:)`); the keys of a
///   dictionary are written as they are.
/// - `RawRepresentable` enums and other types that encode as a single value work as their raw type does.
/// - The top-level value must be a struct, class or dictionary (`[String: String]`, `[String: [Int]]`, ...): a form
///   is a set of named fields, so encoding a single value or a list throws `encodingFailed`.
/// - Nested structures are not written (forms are flat, and ``FormDecoder`` does not read them): a property that
///   encodes as a keyed container (a struct, a dictionary, an enum with associated values) or a list inside a list
///   throws `encodingFailed` with the property's coding path. Flatten the type, or send
///   such values as JSON. A class's `superEncoder()` writes the superclass's fields beside the subclass's.
///
/// Fields are written in encoding order (a struct's property order), except that a dictionary's are sorted by the
/// UTF-8 bytes of their names (a dictionary has no order of its own), and all of them are when
/// `EncodingOptions.outputFormatting` contains `.sortedKeys` (stably: a repeated name keeps its values' order).
///
/// ```swift
/// struct Login: Encodable { var userName: String; var scopes: [String]; var remember: Bool; var otp: String? }
/// let encoder = FormEncoder(encodingOptions: EncodingOptions(keyEncodingStrategy: .convertToSnakeCase))
/// let body = try encoder.encode(Login(userName: "ada l", scopes: ["read", "write"], remember: true, otp: nil))
/// // user_name=ada+l&scopes=read&scopes=write&remember=true
/// ```
public struct FormEncoder: Sendable {
    /// How deep single values may wrap one another (a property wrapper around a `RawRepresentable` around a
    /// `String` is three deep): 64. A deeper value throws `limitExceeded` rather than
    /// exhausting the stack.
    public static let maxNestingDepth = 64

    /// The form's own strategies: arrays and Booleans.
    public var options: FormEncodingOptions
    /// The core strategies that apply to forms: keys, dates, data, non-finite numbers, `.sortedKeys` and `userInfo`
    /// (a `nil` strategy keeps the default stated above; other fields are ignored).
    public var encodingOptions: EncodingOptions

    /// Creates an encoder.
    public init(
        options: FormEncodingOptions = FormEncodingOptions(), encodingOptions: EncodingOptions = EncodingOptions()
    ) {
        self.options = options
        self.encodingOptions = encodingOptions
    }

    /// Encodes `value` into form fields.
    ///
    /// - Parameter value: A struct, class or dictionary whose properties are single values or lists of them.
    /// - Returns: The fields, in the order described above.
    /// - Throws: `SerializationError` with code `encodingFailed` (a nested structure, a
    ///   top-level value that is not a set of fields, a non-finite number, or an error the value's own
    ///   `encode(to:)` threw, kept as `SerializationError.underlying`), with the coding path in
    ///   `SerializationError.codingPath`; `limitExceeded` past ``maxNestingDepth``.
    public func encodeFields<T: Encodable>(_ value: T) throws(SerializationError) -> FormData {
        // Other single values and lists fail in their containers; these two encode as keyed containers.
        if T.self == URL.self || T.self == Decimal.self {
            throw FieldSink.topLevelError(describing: "a single \(T.self) value")
        }
        let sink = FieldSink(
            options: options, encodingOptions: encodingOptions, rootType: T.self,
            keepsKeys: value is any DictionaryMarker)
        do {
            try value.encode(to: TopEncoder(sink: sink, depth: 0))
        } catch {
            throw sink.failure ?? Self.wrap(error, encoding: T.self)
        }
        if let failure = sink.failure { throw failure }
        var pairs = sink.pairs
        if sink.keepsKeys || encodingOptions.outputFormatting?.contains(.sortedKeys) == true {
            // Stable: equal names keep their order.
            pairs = pairs.enumerated().sorted { first, second in
                let (left, right) = (first.element.name.utf8, second.element.name.utf8)
                if left.elementsEqual(right) { return first.offset < second.offset }
                return left.lexicographicallyPrecedes(right)
            }.map(\.element)
        }
        return FormData(pairs: pairs)
    }

    /// Encodes `value` into form fields and writes them with ``FormWriter``: an `application/x-www-form-urlencoded`
    /// body.
    ///
    /// - Throws: `SerializationError` as ``encodeFields(_:)`` does.
    public func encode<T: Encodable>(_ value: T) throws(SerializationError) -> Data {
        FormWriter().write(try encodeFields(value))
    }

    /// Whether `value` is of a type that never encodes as a set of fields: a string, number, Boolean, date, data,
    /// URL, decimal, UUID, array or set.
    static func isNeverAForm(_ value: Any) -> Bool {
        value is any StringProtocol || value is any BinaryInteger || value is any BinaryFloatingPoint || value is Bool
            || value is Date || value is Data || value is URL || value is Decimal || value is UUID
            || value is any ListMarker
    }

    /// The error for a failure thrown by the value's own code.
    private static func wrap(_ error: any Error, encoding type: Any.Type) -> SerializationError {
        if let error = error as? SerializationError { return error }
        if case EncodingError.invalidValue(_, let context) = error {
            return SerializationError(
                code: .encodingFailed,
                message: "Encoding \(type) as a form failed \(SerializationError.location(of: context.codingPath)): "
                    + "\(context.debugDescription)",
                codingPath: FieldSink.strings(context.codingPath), underlying: error)
        }
        return SerializationError(
            code: .encodingFailed, message: "Encoding \(type) as a form failed: \(error).", underlying: error)
    }
}

/// Types that encode as a list: a top-level one is no form.
protocol ListMarker {}
extension Array: ListMarker {}
extension ContiguousArray: ListMarker {}
extension ArraySlice: ListMarker {}
extension Set: ListMarker {}

/// Dictionaries: their keys are data, written as they are and sorted.
protocol DictionaryMarker {}
extension Dictionary: DictionaryMarker {}

// MARK: - The Encoder implementation

/// The state of one encoding: the options and the fields written so far.
private final class FieldSink {
    let arrayEncoding: FormEncodingOptions.ArrayEncoding
    let boolEncoding: FormEncodingOptions.BoolEncoding
    let keyStrategy: EncodingOptions.KeyEncodingStrategy
    let dateStrategy: EncodingOptions.DateEncodingStrategy
    let dataStrategy: EncodingOptions.DataEncodingStrategy
    let floatStrategy: EncodingOptions.NonConformingFloatEncodingStrategy
    let userInfo: [CodingUserInfoKey: Any]
    /// The type of the top-level value, for messages.
    let rootType: Any.Type
    /// Whether the top-level value is a dictionary, whose keys are not converted.
    let keepsKeys: Bool
    var pairs: [FormData.Pair] = []
    /// The first failure found where the `Encoder` API cannot throw (`container(keyedBy:)`): reported even when the
    /// value's code ignores the error its container later throws.
    var failure: SerializationError?

    init(options: FormEncodingOptions, encodingOptions: EncodingOptions, rootType: Any.Type, keepsKeys: Bool) {
        self.rootType = rootType
        arrayEncoding = options.arrayEncoding
        boolEncoding = options.boolEncoding
        keyStrategy = encodingOptions.keyEncodingStrategy ?? .useDefaultKeys
        dateStrategy = encodingOptions.dateEncodingStrategy ?? .deferredToDate
        dataStrategy = encodingOptions.dataEncodingStrategy ?? .base64
        floatStrategy = encodingOptions.nonConformingFloatEncodingStrategy ?? .throw
        userInfo = encodingOptions.userInfo
        self.keepsKeys = keepsKeys
    }

    func append(_ name: String, _ value: String) {
        pairs.append(FormData.Pair(name: name, value: value))
    }

    /// Records `error` as the encoding's failure unless one is recorded, and returns it.
    func record(_ error: SerializationError) -> SerializationError {
        if failure == nil { failure = error }
        return error
    }

    func name(for key: any CodingKey) -> String {
        keepsKeys ? key.stringValue : keyStrategy.convert(key, codingPath: [])
    }

    func text(_ value: Bool) -> String {
        switch boolEncoding {
        case .literal: value ? "true" : "false"
        case .numeric: value ? "1" : "0"
        }
    }

    func text<Number: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: Number, at path: @autoclosure () -> [any CodingKey]
    ) throws(SerializationError) -> String {
        if value.isFinite { return value.description }
        let path = path()
        guard case .convertToString(let positive, let negative, let nan) = floatStrategy else {
            throw SerializationError(
                code: .encodingFailed,
                message: "The number \(value) \(SerializationError.location(of: path)) is not finite, and a form field "
                    + "holds finite numbers only. Set nonConformingFloatEncodingStrategy to .convertToString to write "
                    + "it as text.",
                codingPath: Self.strings(path))
        }
        return value.isNaN ? nan : value < 0 ? negative : positive
    }

    static func strings(_ path: [any CodingKey]) -> [String] {
        path.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }

    static func topLevelError(describing what: String) -> SerializationError {
        SerializationError(
            code: .encodingFailed,
            message: "A form is a set of named fields, so it cannot be written from \(what). Encode a struct, a class "
                + "or a dictionary.")
    }

    static func nestingError(_ what: String, at path: [any CodingKey]) -> SerializationError {
        SerializationError(
            code: .encodingFailed,
            message: "A form field cannot hold \(what) (\(SerializationError.location(of: path))): form fields are "
                + "flat, one value or one list of values per name. Flatten the type, or send it in a format that "
                + "nests, such as JSON.",
            codingPath: strings(path))
    }

    static func depthError(at path: [any CodingKey]) -> SerializationError {
        SerializationError(
            code: .limitExceeded,
            message: "The value \(SerializationError.location(of: path)) wraps single values more than "
                + "\(FormEncoder.maxNestingDepth) deep (FormEncoder.maxNestingDepth).",
            codingPath: strings(path))
    }
}

/// An index in a list, for coding paths.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The scalar `encode` overloads of single-value and list containers, stated once.
private protocol ScalarEncoding {
    var sink: FieldSink { get }
    /// The coding path of the value about to be written.
    var valuePath: [any CodingKey] { get }
    mutating func write(_ text: String) throws
}

extension ScalarEncoding {
    mutating func encode(_ value: Bool) throws { try write(sink.text(value)) }
    mutating func encode(_ value: String) throws { try write(value) }
    mutating func encode(_ value: Double) throws { try write(sink.text(value, at: valuePath)) }
    mutating func encode(_ value: Float) throws { try write(sink.text(value, at: valuePath)) }
    mutating func encode(_ value: Int) throws { try write(String(value)) }
    mutating func encode(_ value: Int8) throws { try write(String(value)) }
    mutating func encode(_ value: Int16) throws { try write(String(value)) }
    mutating func encode(_ value: Int32) throws { try write(String(value)) }
    mutating func encode(_ value: Int64) throws { try write(String(value)) }
    mutating func encode(_ value: UInt) throws { try write(String(value)) }
    mutating func encode(_ value: UInt8) throws { try write(String(value)) }
    mutating func encode(_ value: UInt16) throws { try write(String(value)) }
    mutating func encode(_ value: UInt32) throws { try write(String(value)) }
    mutating func encode(_ value: UInt64) throws { try write(String(value)) }
}

/// The top level: a keyed container over the fields; a single value only when it wraps a keyed one.
private struct TopEncoder: Encoder {
    let sink: FieldSink
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { sink.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        // Deeper than the limit only through `superEncoder()` chains: every write then throws.
        let failure = depth > FormEncoder.maxNestingDepth ? sink.record(FieldSink.depthError(at: [])) : nil
        return KeyedEncodingContainer(FieldsContainer<Key>(sink: sink, codingPath: [], failure: failure, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let error = sink.record(FieldSink.topLevelError(describing: "a list (\(sink.rootType))"))
        return FieldListContainer(sink: sink, name: "", codingPath: [], failure: error, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        TopValueContainer(sink: sink, depth: depth)
    }
}

/// A single value at the top level: a wrapper around a keyed value is encoded as that value; anything else fails.
private struct TopValueContainer: SingleValueEncodingContainer, ScalarEncoding {
    let sink: FieldSink
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var valuePath: [any CodingKey] { [] }

    mutating func write(_ text: String) throws {
        throw sink.record(FieldSink.topLevelError(describing: "a single value (\(sink.rootType))"))
    }

    mutating func encodeNil() throws {}

    mutating func encode<T: Encodable>(_ value: T) throws {
        if FormEncoder.isNeverAForm(value) {
            throw sink.record(FieldSink.topLevelError(describing: "a single \(T.self) value"))
        }
        guard depth < FormEncoder.maxNestingDepth else { throw sink.record(FieldSink.depthError(at: [])) }
        try value.encode(to: TopEncoder(sink: sink, depth: depth + 1))
    }
}

/// The fields by name. With a `failure`, the container of a nested structure: every write throws it.
private struct FieldsContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: FieldSink
    let codingPath: [any CodingKey]
    let failure: SerializationError?
    let depth: Int

    /// The field name of `key`, or the failure.
    private func name(_ key: Key) throws -> String {
        if let failure { throw failure }
        return sink.name(for: key)
    }

    private func write(_ text: String, forKey key: Key) throws {
        sink.append(try name(key), text)
    }

    mutating func encodeNil(forKey key: Key) throws {
        if let failure { throw failure }
    }

    mutating func encode(_ value: Bool, forKey key: Key) throws { try write(sink.text(value), forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try write(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try write(sink.text(value, at: [key]), forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try write(sink.text(value, at: [key]), forKey: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try write(String(value), forKey: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try field(key).encodeValue(value)
    }

    private func field(_ key: Key) throws -> FieldEncoder {
        FieldEncoder(sink: sink, name: try name(key), parentPath: [], key: key, inList: false, depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let error = failure ?? sink.record(FieldSink.nestingError("a nested structure", at: [key]))
        return KeyedEncodingContainer(
            FieldsContainer<NestedKey>(sink: sink, codingPath: [key], failure: error, depth: depth))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        FieldListContainer(
            sink: sink, name: failure == nil ? sink.name(for: key) : "", codingPath: [key], failure: failure,
            depth: depth + 1)
    }

    /// The superclass's fields, beside this class's.
    mutating func superEncoder() -> any Encoder { TopEncoder(sink: sink, depth: depth + 1) }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        FieldEncoder(sink: sink, name: sink.name(for: key), parentPath: [], key: key, inList: false, depth: depth + 1)
    }
}

/// The encoder of one property (or one list element): a single value or, for a property, a list of them.
private struct FieldEncoder: Encoder {
    let sink: FieldSink
    /// The field name every value is written under (before the list's naming, for a list).
    let name: String
    /// The coding path of the container this field is in, and its key there: the path is built only when asked for.
    let parentPath: [any CodingKey]
    let key: any CodingKey
    /// Whether this is an element of a list, which cannot be a list itself.
    let inList: Bool
    let depth: Int
    var userInfo: [CodingUserInfoKey: Any] { sink.userInfo }
    var codingPath: [any CodingKey] { parentPath + [key] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let error = sink.record(FieldSink.nestingError("a nested structure", at: codingPath))
        return KeyedEncodingContainer(
            FieldsContainer<Key>(sink: sink, codingPath: codingPath, failure: error, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let error = inList ? sink.record(FieldSink.nestingError("a list inside a list", at: codingPath)) : nil
        return FieldListContainer(sink: sink, name: name, codingPath: codingPath, failure: error, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FieldValueContainer(encoder: self)
    }

    /// This encoder one level deeper, for a value that encodes itself through it.
    private func deeper() throws -> FieldEncoder {
        guard depth < FormEncoder.maxNestingDepth else { throw sink.record(FieldSink.depthError(at: codingPath)) }
        return FieldEncoder(
            sink: sink, name: name, parentPath: parentPath, key: key, inList: inList, depth: depth + 1)
    }

    /// Encodes `value`: the types with a strategy or a spelling of their own here, any other through its
    /// `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        // Metatype comparisons, cheaper than dynamic casts; the casts then cannot fail.
        if T.self == String.self {
            sink.append(name, value as! String)
        } else if T.self == Date.self {
            try encode(value as! Date)
        } else if T.self == Data.self {
            try encode(value as! Data)
        } else if T.self == URL.self {
            sink.append(name, (value as! URL).absoluteString)
        } else if T.self == Decimal.self {
            sink.append(name, (value as! Decimal).description)
        } else {
            try value.encode(to: deeper())
        }
    }

    private func encode(_ date: Date) throws {
        switch sink.dateStrategy {
        case .deferredToDate:
            try date.encode(to: deeper())
        case .secondsSince1970:
            sink.append(name, date.timeIntervalSince1970.description)
        case .millisecondsSince1970:
            sink.append(name, (date.timeIntervalSince1970 * 1000).description)
        case .iso8601:
            sink.append(name, Date.ISO8601FormatStyle().format(date))
        case .iso8601WithFractionalSeconds:
            sink.append(name, Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date))
        case .custom(let closure):
            try closure(date, deeper())
        }
    }

    private func encode(_ data: Data) throws {
        switch sink.dataStrategy {
        case .deferredToData: try data.encode(to: deeper())
        case .base64: sink.append(name, data.base64EncodedString())
        case .custom(let closure): try closure(data, deeper())
        }
    }
}

/// One value of a field.
private struct FieldValueContainer: SingleValueEncodingContainer, ScalarEncoding {
    let encoder: FieldEncoder
    var sink: FieldSink { encoder.sink }
    var codingPath: [any CodingKey] { encoder.codingPath }
    var valuePath: [any CodingKey] { encoder.codingPath }

    mutating func write(_ text: String) throws { sink.append(encoder.name, text) }
    mutating func encodeNil() throws {}
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}

/// The values of a list, one field each, named per the array encoding. With a `failure`, every write throws it.
private struct FieldListContainer: UnkeyedEncodingContainer, ScalarEncoding {
    let sink: FieldSink
    /// The list's name, before the array encoding's suffix.
    let name: String
    let codingPath: [any CodingKey]
    let failure: SerializationError?
    let depth: Int
    private(set) var count = 0

    init(sink: FieldSink, name: String, codingPath: [any CodingKey], failure: SerializationError?, depth: Int) {
        self.sink = sink
        self.name = name
        self.codingPath = codingPath
        self.failure = failure
        self.depth = depth
    }

    var valuePath: [any CodingKey] { codingPath + [IndexKey(count)] }

    /// The encoder of the next element.
    private var nextElement: FieldEncoder {
        FieldEncoder(
            sink: sink, name: elementName, parentPath: codingPath, key: IndexKey(count), inList: true, depth: depth + 1)
    }

    /// The name of the next element's field.
    private var elementName: String {
        switch sink.arrayEncoding {
        case .repeatedName: return name
        case .brackets: return name + "[]"
        case .indexed: return name + "[" + String(count) + "]"
        }
    }

    mutating func write(_ text: String) throws {
        if let failure { throw failure }
        sink.append(elementName, text)
        count += 1
    }

    mutating func encodeNil() throws {
        if let failure { throw failure }
        count += 1
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try element().encodeValue(value)
        count += 1
    }

    private func element() throws -> FieldEncoder {
        if let failure { throw failure }
        return nextElement
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = valuePath
        count += 1
        let error = failure ?? sink.record(FieldSink.nestingError("a nested structure", at: path))
        return KeyedEncodingContainer(
            FieldsContainer<NestedKey>(sink: sink, codingPath: path, failure: error, depth: depth))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = valuePath
        count += 1
        let error = failure ?? sink.record(FieldSink.nestingError("a list inside a list", at: path))
        return FieldListContainer(sink: sink, name: name, codingPath: path, failure: error, depth: depth)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = nextElement
        count += 1
        return encoder
    }
}
