import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// What every encoder and container of one encoding shares: the key strategy, `userInfo`, the depth limit, and the
/// first failure that could not be thrown where it happened.
final class EncodingContext {
    /// The key strategy, `nil` for `.useDefaultKeys`.
    let keyEncodingStrategy: EncodingOptions.KeyEncodingStrategy?
    let userInfo: [CodingUserInfoKey: Any]
    let maxDepth: Int
    /// The first failure met where the `Encoder` API cannot throw (asking for a container), thrown at the end.
    var failure: SerializationError?
    /// The coding path of the innermost value whose `encode(to:)` threw.
    var failurePath: [any CodingKey]?

    init(
        keyEncodingStrategy: EncodingOptions.KeyEncodingStrategy, userInfo: [CodingUserInfoKey: any Sendable],
        maxDepth: Int
    ) {
        if case .useDefaultKeys = keyEncodingStrategy {
            self.keyEncodingStrategy = nil
        } else {
            self.keyEncodingStrategy = keyEncodingStrategy
        }
        var info: [CodingUserInfoKey: Any] = [:]
        for (key, value) in userInfo { info[key] = value }
        self.userInfo = info
        self.maxDepth = maxDepth
    }

    /// Records `failure` unless one was recorded before.
    func record(_ failure: SerializationError) {
        if self.failure == nil { self.failure = failure }
    }

    /// The error for nesting deeper than ``maxDepth`` at `codingPath`.
    func tooDeep(at codingPath: [any CodingKey]) -> SerializationError {
        SerializationError(
            code: .limitExceeded,
            message: "Encoding nests values deeper than the limit of \(maxDepth) levels at \(Self.place(codingPath)) "
                + "(a self-referencing value?). Raise the encoder's 'maxDepth' if such a value is expected.",
            serializerID: "propertyList", codingPath: codingPath.map(\.stringValue))
    }

    /// What `error`, thrown out of the encoding, becomes.
    func serializationError(for error: any Error) -> SerializationError {
        if let error = error as? SerializationError { return error }
        if let encodingError = error as? EncodingError, case .invalidValue(_, let context) = encodingError {
            return SerializationError(
                code: .encodingFailed,
                message: "Encoding failed at \(Self.place(context.codingPath)): \(context.debugDescription)",
                serializerID: "propertyList", codingPath: context.codingPath.map(\.stringValue),
                underlying: encodingError)
        }
        let path = failurePath ?? []
        return SerializationError(
            code: .encodingFailed,
            message: "Encoding failed at \(Self.place(path)): an encode(to:) threw \(type(of: error)): \(error). "
                + "Check the value there, or the code that encodes it.",
            serializerID: "propertyList", codingPath: path.map(\.stringValue), underlying: error)
    }

    /// Where a container (or encoder) nested in one at `depth` and `codingPath` under `key` goes: one level deeper
    /// when that is within ``maxDepth``; else the failure is recorded and the same path and depth are returned
    /// (`fits` false, the container is not attached), so that code nesting containers in an endless loop stays
    /// linear.
    func nesting(
        at depth: Int, codingPath: [any CodingKey], key: any CodingKey
    ) -> (codingPath: [any CodingKey], depth: Int, fits: Bool) {
        if depth < maxDepth { return (codingPath + [key], depth + 1, true) }
        if failure == nil { record(tooDeep(at: codingPath + [key])) }
        return (codingPath, depth, false)
    }

    /// The error for a misuse of the `Encoder` API at `codingPath`.
    func misuse(_ what: String, at codingPath: [any CodingKey]) -> SerializationError {
        SerializationError(
            code: .encodingFailed,
            message: "Encoding failed at \(Self.place(codingPath)): \(what). Fix the encode(to:) of the value there.",
            serializerID: "propertyList", codingPath: codingPath.map(\.stringValue))
    }

    /// `items.2.price`, or `the top level`.
    static func place(_ path: [any CodingKey]) -> String {
        path.isEmpty ? "the top level" : path.map(\.stringValue).joined(separator: ".")
    }
}

/// A value being built: finished, a container still being filled, or what another encoder encodes
/// (`superEncoder`).
enum EncodingSlot {
    case value(PropertyListValue)
    case dictionary(DictionaryBox)
    case array(ArrayBox)
    case encoder(TreeEncoder)

    /// The finished value; a nested encoder that encoded nothing is an empty dictionary. Recursion is bounded by
    /// the depth limit every container and encoder was checked against.
    func resolved() -> PropertyListValue {
        switch self {
        case .value(let value):
            return value
        case .array(let box):
            return .array(box.items.map { $0.resolved() })
        case .dictionary(let box):
            return .dictionary(PropertyListDictionary(checkingKeys: box.keys, values: box.values.map { $0.resolved() }))
        case .encoder(let encoder):
            return encoder.storage?.resolved() ?? .dictionary(PropertyListDictionary())
        }
    }
}

/// A dictionary being filled.
final class DictionaryBox {
    var keys: [String] = []
    var values: [EncodingSlot] = []

    func append(_ key: String, _ value: EncodingSlot) {
        keys.append(key)
        values.append(value)
    }
}

/// An array being filled.
final class ArrayBox {
    var items: [EncodingSlot] = []
}

/// The `Encoder` each `Encodable` value encodes itself to; also its single-value container.
final class TreeEncoder: Encoder, SingleValueEncodingContainer {
    let context: EncodingContext
    let codingPath: [any CodingKey]
    /// The number of values and containers around this one, itself included (0 for the encoder of the root's
    /// caller).
    let depth: Int
    /// Whether the keys of this value's keyed container are converted (not for `[String: Value]`).
    let convertsKeys: Bool
    /// What this value encoded, once it chose.
    var storage: EncodingSlot?

    init(context: EncodingContext, codingPath: [any CodingKey], depth: Int, convertsKeys: Bool = true) {
        self.context = context
        self.codingPath = codingPath
        self.depth = depth
        self.convertsKeys = convertsKeys
    }

    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    /// `value` as a slot, one level below this encoder, at `codingPath`; `nil` when its `encode(to:)` encoded
    /// nothing.
    func box<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> EncodingSlot? {
        if let scalar = Self.scalar(value) { return .value(scalar) }
        guard depth < context.maxDepth else { throw context.tooDeep(at: codingPath) }
        let converts = context.keyEncodingStrategy == nil || !(value is any StringKeyedDictionary)
        let child = TreeEncoder(context: context, codingPath: codingPath, depth: depth + 1, convertsKeys: converts)
        do {
            try value.encode(to: child)
        } catch {
            if context.failurePath == nil { context.failurePath = codingPath }
            throw error
        }
        return child.storage
    }

    /// `value` as a slot for a container: an empty dictionary when it encoded nothing, as in `PropertyListEncoder`.
    func boxNested<T: Encodable>(_ value: T, codingPath: [any CodingKey]) throws -> EncodingSlot {
        try box(value, codingPath: codingPath) ?? .value(.dictionary(PropertyListDictionary()))
    }

    /// The property list value of a `String`, number, `Bool`, `Date` or `Data`; `nil` for other types.
    static func scalar<T: Encodable>(_ value: T) -> PropertyListValue? {
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Int.self { return .integer(PropertyListInteger(Int64(unsafeBitCast(value, to: Int.self)))) }
        if T.self == Double.self { return .real(unsafeBitCast(value, to: Double.self)) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Date.self { return .date(unsafeBitCast(value, to: Date.self)) }
        if T.self == Data.self { return .data(unsafeBitCast(value, to: Data.self)) }
        if T.self == Float.self { return .real(Double(unsafeBitCast(value, to: Float.self))) }
        if T.self == Int64.self { return .integer(PropertyListInteger(unsafeBitCast(value, to: Int64.self))) }
        if T.self == Int32.self { return integer(unsafeBitCast(value, to: Int32.self)) }
        if T.self == Int16.self { return integer(unsafeBitCast(value, to: Int16.self)) }
        if T.self == Int8.self { return integer(unsafeBitCast(value, to: Int8.self)) }
        if T.self == UInt.self { return integer(unsafeBitCast(value, to: UInt.self)) }
        if T.self == UInt64.self { return .integer(PropertyListInteger(unsafeBitCast(value, to: UInt64.self))) }
        if T.self == UInt32.self { return integer(unsafeBitCast(value, to: UInt32.self)) }
        if T.self == UInt16.self { return integer(unsafeBitCast(value, to: UInt16.self)) }
        if T.self == UInt8.self { return integer(unsafeBitCast(value, to: UInt8.self)) }
        return nil
    }

    static func integer<I: BinaryInteger>(_ value: I) -> PropertyListValue {
        if let small = Int64(exactly: value) { return .integer(PropertyListInteger(small)) }
        return .integer(PropertyListInteger(UInt64(truncatingIfNeeded: value)))
    }

    // MARK: Encoder

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let box: DictionaryBox
        switch storage {
        case .dictionary(let existing)?:
            box = existing
        case nil:
            box = DictionaryBox()
            storage = .dictionary(box)
        default:
            context.record(
                context.misuse(
                    "a keyed container was asked of a value that already encoded another "
                        + "kind", at: codingPath))
            box = DictionaryBox()
        }
        return KeyedEncodingContainer(
            EncodingKeyedContainer<Key>(encoder: self, box: box, codingPath: codingPath, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let box: ArrayBox
        switch storage {
        case .array(let existing)?:
            box = existing
        case nil:
            box = ArrayBox()
            storage = .array(box)
        default:
            context.record(
                context.misuse(
                    "an unkeyed container was asked of a value that already encoded another "
                        + "kind", at: codingPath))
            box = ArrayBox()
        }
        return EncodingUnkeyedContainer(encoder: self, box: box, codingPath: codingPath, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { self }

    // MARK: SingleValueEncodingContainer

    private func set(_ slot: EncodingSlot) throws {
        guard storage == nil else {
            throw context.misuse("a single-value container was given a second value", at: codingPath)
        }
        storage = slot
    }

    func encodeNil() throws { try set(.value(.string("$null"))) }
    func encode(_ value: Bool) throws { try set(.value(.bool(value))) }
    func encode(_ value: String) throws { try set(.value(.string(value))) }
    func encode(_ value: Double) throws { try set(.value(.real(value))) }
    func encode(_ value: Float) throws { try set(.value(.real(Double(value)))) }
    func encode(_ value: Int) throws { try set(.value(.integer(PropertyListInteger(Int64(value))))) }
    func encode(_ value: Int8) throws { try set(.value(Self.integer(value))) }
    func encode(_ value: Int16) throws { try set(.value(Self.integer(value))) }
    func encode(_ value: Int32) throws { try set(.value(Self.integer(value))) }
    func encode(_ value: Int64) throws { try set(.value(.integer(PropertyListInteger(value)))) }
    func encode(_ value: UInt) throws { try set(.value(Self.integer(value))) }
    func encode(_ value: UInt8) throws { try set(.value(Self.integer(value))) }
    func encode(_ value: UInt16) throws { try set(.value(Self.integer(value))) }
    func encode(_ value: UInt32) throws { try set(.value(Self.integer(value))) }
    func encode(_ value: UInt64) throws { try set(.value(.integer(PropertyListInteger(value)))) }

    func encode<T: Encodable>(_ value: T) throws {
        guard storage == nil else {
            throw context.misuse("a single-value container was given a second value", at: codingPath)
        }
        storage = try boxNested(value, codingPath: codingPath)
    }
}

/// A keyed container: a dictionary.
struct EncodingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    let box: DictionaryBox
    let codingPath: [any CodingKey]
    /// The depth of the dictionary.
    let depth: Int

    private func name(_ key: Key) -> String {
        guard encoder.convertsKeys, let strategy = encoder.context.keyEncodingStrategy else { return key.stringValue }
        return strategy.convert(key, codingPath: codingPath)
    }

    private func put(_ value: PropertyListValue, _ key: Key) { box.append(name(key), .value(value)) }

    mutating func encodeNil(forKey key: Key) throws { put(.string("$null"), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { put(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { put(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { put(.real(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { put(.real(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { put(.integer(PropertyListInteger(Int64(value))), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { put(TreeEncoder.integer(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { put(TreeEncoder.integer(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { put(TreeEncoder.integer(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { put(.integer(PropertyListInteger(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { put(TreeEncoder.integer(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { put(TreeEncoder.integer(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { put(TreeEncoder.integer(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { put(TreeEncoder.integer(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { put(.integer(PropertyListInteger(value)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        let child = nestedEncoder(codingPath + [key])
        box.append(name(key), try child.boxNested(value, codingPath: codingPath + [key]))
    }

    /// An encoder at this dictionary's depth, whose values are one level below it.
    private func nestedEncoder(_ path: [any CodingKey]) -> TreeEncoder {
        encoder.depth == depth ? encoder : TreeEncoder(context: encoder.context, codingPath: path, depth: depth)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = DictionaryBox()
        let place = encoder.context.nesting(at: depth, codingPath: codingPath, key: key)
        if place.fits { box.append(name(key), .dictionary(nested)) }
        return KeyedEncodingContainer(
            EncodingKeyedContainer<NestedKey>(
                encoder: encoder, box: nested, codingPath: place.codingPath, depth: place.depth))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        let place = encoder.context.nesting(at: depth, codingPath: codingPath, key: key)
        if place.fits { box.append(name(key), .array(nested)) }
        return EncodingUnkeyedContainer(encoder: encoder, box: nested, codingPath: place.codingPath, depth: place.depth)
    }

    mutating func superEncoder() -> any Encoder {
        superEncoder(named: IndexKey(stringValue: "super"), written: "super")
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        superEncoder(named: key, written: name(key))
    }

    private func superEncoder(named key: any CodingKey, written: String) -> any Encoder {
        let place = encoder.context.nesting(at: depth, codingPath: codingPath, key: key)
        let child = TreeEncoder(context: encoder.context, codingPath: place.codingPath, depth: place.depth)
        if place.fits { box.append(written, .encoder(child)) }
        return child
    }
}

/// An unkeyed container: an array.
struct EncodingUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let box: ArrayBox
    let codingPath: [any CodingKey]
    /// The depth of the array.
    let depth: Int

    var count: Int { box.items.count }

    private var nextKey: any CodingKey { IndexKey(intValue: box.items.count) }

    private func put(_ value: PropertyListValue) { box.items.append(.value(value)) }

    mutating func encodeNil() throws { put(.string("$null")) }
    mutating func encode(_ value: Bool) throws { put(.bool(value)) }
    mutating func encode(_ value: String) throws { put(.string(value)) }
    mutating func encode(_ value: Double) throws { put(.real(value)) }
    mutating func encode(_ value: Float) throws { put(.real(Double(value))) }
    mutating func encode(_ value: Int) throws { put(.integer(PropertyListInteger(Int64(value)))) }
    mutating func encode(_ value: Int8) throws { put(TreeEncoder.integer(value)) }
    mutating func encode(_ value: Int16) throws { put(TreeEncoder.integer(value)) }
    mutating func encode(_ value: Int32) throws { put(TreeEncoder.integer(value)) }
    mutating func encode(_ value: Int64) throws { put(.integer(PropertyListInteger(value))) }
    mutating func encode(_ value: UInt) throws { put(TreeEncoder.integer(value)) }
    mutating func encode(_ value: UInt8) throws { put(TreeEncoder.integer(value)) }
    mutating func encode(_ value: UInt16) throws { put(TreeEncoder.integer(value)) }
    mutating func encode(_ value: UInt32) throws { put(TreeEncoder.integer(value)) }
    mutating func encode(_ value: UInt64) throws { put(.integer(PropertyListInteger(value))) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let path = codingPath + [nextKey]
        let child =
            encoder.depth == depth ? encoder : TreeEncoder(context: encoder.context, codingPath: path, depth: depth)
        box.items.append(try child.boxNested(value, codingPath: path))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = DictionaryBox()
        let place = encoder.context.nesting(at: depth, codingPath: codingPath, key: nextKey)
        if place.fits { box.items.append(.dictionary(nested)) }
        return KeyedEncodingContainer(
            EncodingKeyedContainer<NestedKey>(
                encoder: encoder, box: nested, codingPath: place.codingPath, depth: place.depth))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = ArrayBox()
        let place = encoder.context.nesting(at: depth, codingPath: codingPath, key: nextKey)
        if place.fits { box.items.append(.array(nested)) }
        return EncodingUnkeyedContainer(encoder: encoder, box: nested, codingPath: place.codingPath, depth: place.depth)
    }

    mutating func superEncoder() -> any Encoder {
        let place = encoder.context.nesting(at: depth, codingPath: codingPath, key: nextKey)
        let child = TreeEncoder(context: encoder.context, codingPath: place.codingPath, depth: place.depth)
        if place.fits { box.items.append(.encoder(child)) }
        return child
    }
}
