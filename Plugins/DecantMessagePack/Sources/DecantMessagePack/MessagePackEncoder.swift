public import DecantCore
import DecantValueTree

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Encodes `Encodable` values as MessagePack: into a ``MessagePackValue``, or into bytes through
/// ``MessagePackWriter`` (each item in its smallest form).
///
/// The mirror of ``MessagePackDecoder``: what it encodes, `MessagePackDecoder` decodes back to an equal value.
///
/// - Keyed containers become maps with string keys (converted by ``keyEncodingStrategy``; the keys of a
///   `[String: Value]` dictionary are written as they are), in the order they were encoded; a key encoded twice keeps
///   its first position and its last value. Unkeyed containers become arrays; a nested value whose `encode(to:)`
///   encodes nothing is an empty map.
/// - Integers are exact, in the smallest family that holds them (`UInt64` above `Int64.max` as uint 64). A `Float`
///   is a float 32 and a `Double` a float 64, NaN and the infinities included (so ``EncodingOptions``'
///   `nonConformingFloatEncodingStrategy` does not apply). `nil` is nil.
/// - `Data` is bin (``dataEncodingStrategy`` `nil`, the default), or as the strategy says: `.base64` a string,
///   `.deferredToData` `Data`'s own encoding (an array of integers), `.custom` the closure's.
/// - `Date` is, by default (``dateEncodingStrategy`` `nil`), a timestamp (extension type -1) of its seconds since 1970,
///   rounded to the nanosecond; `.secondsSince1970` and `.millisecondsSince1970` write a float 64, `.iso8601` and
///   `.iso8601WithFractionalSeconds` an RFC 3339 string, `.deferredToDate` `Date`'s own encoding (seconds since 2001,
///   a float 64), `.custom` the closure's. ``MessagePackDecoder`` reads timestamps and numbers of seconds since 1970
///   back as `Date`s.
///
/// ```swift
/// struct User: Codable { var id: UInt64; var name: String }
/// let body = try MessagePackEncoder().encode(User(id: 7, name: "Ada"))   // 82 a2 69 64 07 a4 6e 61 6d 65 a3 41 64 61
/// ```
///
/// A value's `encode(to:)` runs inside its container's, so nesting is bounded: past ``maxDepth`` levels (a
/// self-referencing object graph, say) encoding fails with `limitExceeded` instead of overflowing the stack. Misuse that
/// `JSONEncoder` stops the process for (two values through one single-value container, a keyed container asked of a
/// value that chose an unkeyed one) throws `encodingFailed`.
public struct MessagePackEncoder: Sendable {
    /// How coding keys become map keys (`EncodingOptions.KeyEncodingStrategy`); default keys unless set.
    public var keyEncodingStrategy: EncodingOptions.KeyEncodingStrategy
    /// How `Date` values are written; `nil`, the default, is a timestamp.
    public var dateEncodingStrategy: EncodingOptions.DateEncodingStrategy?
    /// How `Data` values are written; `nil`, the default, is bin.
    public var dataEncodingStrategy: EncodingOptions.DataEncodingStrategy?
    /// Contextual information passed to every `encode(to:)` as `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// The deepest nesting of values. Default 512, ``MessagePackParsingOptions/defaultMaxDepth``, so that what
    /// the encoder writes the parser reads back.
    public var maxDepth: Int

    /// Creates an encoder; every parameter has the default described on its property.
    public init(
        keyEncodingStrategy: EncodingOptions.KeyEncodingStrategy = .useDefaultKeys,
        dateEncodingStrategy: EncodingOptions.DateEncodingStrategy? = nil,
        dataEncodingStrategy: EncodingOptions.DataEncodingStrategy? = nil,
        userInfo: [CodingUserInfoKey: any Sendable] = [:],
        maxDepth: Int = MessagePackParsingOptions.defaultMaxDepth
    ) {
        self.keyEncodingStrategy = keyEncodingStrategy
        self.dateEncodingStrategy = dateEncodingStrategy
        self.dataEncodingStrategy = dataEncodingStrategy
        self.userInfo = userInfo
        self.maxDepth = maxDepth
    }

    /// An encoder with the key, date and data strategies and `userInfo` of `options`. The other fields do not apply
    /// to MessagePack.
    public init(options: EncodingOptions) {
        self.init()
        if let key = options.keyEncodingStrategy { keyEncodingStrategy = key }
        dateEncodingStrategy = options.dateEncodingStrategy
        dataEncodingStrategy = options.dataEncodingStrategy
        userInfo = options.userInfo
    }

    /// Encodes `value` as the bytes of one MessagePack object.
    ///
    /// - Throws: `SerializationError` as ``encodeValue(_:)`` and ``MessagePackWriter/write(_:)`` do.
    public func encode<T: Encodable>(_ value: T) throws(SerializationError) -> Data {
        try MessagePackWriter().write(encodeValue(value))
    }

    /// Encodes `value` as a ``MessagePackValue``.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed`, the coding path and the error as `underlying` (an
    ///   error thrown by an `encode(to:)` or a strategy's closure, misuse of the containers), or `limitExceeded` past
    ///   ``maxDepth``.
    public func encodeValue<T: Encodable>(_ value: T) throws(SerializationError) -> MessagePackValue {
        let context = EncodingContext(encoder: self)
        do {
            return try context.box(value, codingPath: [], depth: 0).value
        } catch let error as EncodingContext.DepthExceeded {
            throw SerializationError(
                code: .limitExceeded,
                message: "The value is nested more than \(maxDepth) levels deep (at \(error.path)). Raise "
                    + "MessagePackEncoder.maxDepth if the nesting is intended; a self-referencing object graph never "
                    + "ends.",
                codingPath: error.path)
        } catch {
            let path: [String]
            if case EncodingError.invalidValue(_, let context) = error {
                path = context.codingPath.map(\.stringValue)
            } else {
                path = []
            }
            throw SerializationError(
                code: .encodingFailed,
                message: "The \(T.self) value could not be encoded as MessagePack"
                    + (path.isEmpty ? "" : " at \(path.joined(separator: "."))") + ": \(error)",
                codingPath: path, underlying: error)
        }
    }
}

/// What one encoding shares: the strategies, and the tree under construction.
private final class EncodingContext {
    struct DepthExceeded: Error {
        var path: [String]
    }

    let keyStrategy: EncodingOptions.KeyEncodingStrategy
    let dateStrategy: EncodingOptions.DateEncodingStrategy?
    let dataStrategy: EncodingOptions.DataEncodingStrategy?
    let userInfo: [CodingUserInfoKey: Any]
    let maxDepth: Int

    init(encoder: MessagePackEncoder) {
        keyStrategy = encoder.keyEncodingStrategy
        dateStrategy = encoder.dateEncodingStrategy
        dataStrategy = encoder.dataEncodingStrategy
        userInfo = encoder.userInfo.mapValues { $0 as Any }
        maxDepth = encoder.maxDepth
    }

    /// `value` as a child: a scalar at once, anything else by running its `encode(to:)` on a new node.
    func box<T: Encodable>(_ value: T, codingPath: [any CodingKey], depth: Int) throws -> Child {
        if let scalar = Self.scalar(value) { return .value(scalar) }
        guard depth < maxDepth else { throw DepthExceeded(path: codingPath.map(\.stringValue)) }
        let node = Node()
        let encoder = TreeEncoder(context: self, node: node, codingPath: codingPath, depth: depth + 1)
        if let date = value as? Date {
            try encode(date, with: encoder)
        } else if let data = value as? Data {
            try encode(data, with: encoder)
        } else {
            if value is any StringKeyedDictionary { node.keepsKeys = true }
            try value.encode(to: encoder)
        }
        return .node(node)
    }

    /// The value of a primitive type, without a node.
    static func scalar<T: Encodable>(_ value: T) -> MessagePackValue? {
        switch value {
        case let text as String: .string(text)
        case let flag as Bool: .bool(flag)
        case let number as Double: .float64(number)
        case let number as Float: .float32(number)
        case let number as Int: .integer(number)
        case let number as Int64: .integer(number)
        case let number as UInt64: .integer(number)
        case let number as Int32: .integer(number)
        case let number as UInt32: .integer(number)
        case let number as UInt: .integer(number)
        case let number as Int8: .integer(number)
        case let number as Int16: .integer(number)
        case let number as UInt8: .integer(number)
        case let number as UInt16: .integer(number)
        default: nil
        }
    }

    private func encode(_ date: Date, with encoder: TreeEncoder) throws {
        let node = encoder.node
        switch dateStrategy {
        case nil:
            try node.set(.value(Self.timestamp(date)), codingPath: encoder.codingPath)
        case .deferredToDate: try date.encode(to: encoder)
        case .secondsSince1970:
            try node.set(.value(.float64(date.timeIntervalSince1970)), codingPath: encoder.codingPath)
        case .millisecondsSince1970:
            try node.set(.value(.float64(date.timeIntervalSince1970 * 1000)), codingPath: encoder.codingPath)
        case .iso8601:
            let text = Date.ISO8601FormatStyle().format(date)
            try node.set(.value(.string(text)), codingPath: encoder.codingPath)
        case .iso8601WithFractionalSeconds:
            let text = Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)
            try node.set(.value(.string(text)), codingPath: encoder.codingPath)
        case .custom(let closure): try closure(date, encoder)
        }
    }

    /// The timestamp of `date`: its seconds since 1970, rounded to the nanosecond.
    static func timestamp(_ date: Date) -> MessagePackValue {
        let interval = date.timeIntervalSince1970
        var seconds = interval.rounded(.down)
        var nanoseconds = ((interval - seconds) * 1e9).rounded()
        if nanoseconds >= 1e9 {
            seconds += 1
            nanoseconds -= 1e9
        }
        guard let whole = Int64(exactly: seconds), let nanos = UInt32(exactly: nanoseconds) else {
            return .float64(interval)
        }
        return .timestamp(seconds: whole, nanoseconds: nanos)
    }

    private func encode(_ data: Data, with encoder: TreeEncoder) throws {
        switch dataStrategy {
        case nil: try encoder.node.set(.value(.binary([UInt8](data))), codingPath: encoder.codingPath)
        case .deferredToData: try data.encode(to: encoder)
        case .base64: try encoder.node.set(.value(.string(data.base64EncodedString())), codingPath: encoder.codingPath)
        case .custom(let closure): try closure(data, encoder)
        }
    }
}

/// `[String: Value]`, whose keys are written as they are, whatever the key strategy.
private protocol StringKeyedDictionary {}
extension Dictionary: StringKeyedDictionary where Key == String {}

/// A value of the tree under construction: a finished value, or a node that containers still write to.
private enum Child {
    case value(MessagePackValue)
    case node(Node)

    /// The finished value (recursive, at most ``MessagePackEncoder/maxDepth`` levels).
    var value: MessagePackValue {
        switch self {
        case .value(let value): value
        case .node(let node): node.value
        }
    }
}

/// What one `encode(to:)` wrote: nothing yet, one value, an array or a map.
private final class Node {
    enum Kind {
        case empty
        case single(Child)
        case array
        case map
    }

    var kind = Kind.empty
    var children: [Child] = []
    var keys: [String] = []
    var positions: [String: Int] = [:]
    /// Whether the keys of a keyed container are written without the key strategy (a `[String: Value]`).
    var keepsKeys = false

    var value: MessagePackValue {
        switch kind {
        case .empty: .map([])
        case .single(let child): child.value
        case .array: .array(children.map(\.value))
        case .map:
            .map(zip(keys, children).map { MessagePackValue.Entry(key: .string($0), value: $1.value) })
        }
    }

    func set(_ child: Child, codingPath: [any CodingKey]) throws {
        guard case .empty = kind else {
            throw EncodingError.invalidValue(
                child.value,
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "A single-value container was given a value after the value had been encoded."))
        }
        kind = .single(child)
    }

    /// Makes the node an array or a map, or reports misuse when it is already something else.
    func become(map: Bool, codingPath: [any CodingKey]) -> EncodingError? {
        switch kind {
        case .empty:
            kind = map ? .map : .array
            return nil
        case .map where map, .array where !map: return nil
        default:
            return EncodingError.invalidValue(
                (),
                EncodingError.Context(
                    codingPath: codingPath,
                    debugDescription: "A \(map ? "keyed" : "unkeyed") container was asked of a value that had already "
                        + "encoded something else."))
        }
    }

    func append(_ child: Child) { children.append(child) }

    func put(_ child: Child, forKey key: String) {
        if let position = positions[key] {
            children[position] = child
        } else {
            positions[key] = children.count
            keys.append(key)
            children.append(child)
        }
    }
}

/// The `Encoder` over one node.
private struct TreeEncoder: Encoder {
    let context: EncodingContext
    let node: Node
    let codingPath: [any CodingKey]
    let depth: Int
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let failure = node.become(map: true, codingPath: codingPath)
        return KeyedEncodingContainer(KeyedContainer<Key>(encoder: self, failure: failure))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: self, failure: node.become(map: false, codingPath: codingPath))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    func box<T: Encodable>(_ value: T, at key: any CodingKey) throws -> Child {
        try context.box(value, codingPath: codingPath + [key], depth: depth)
    }

    /// An encoder for a new node at `key`, for nested containers and super encoders.
    func nested(at key: any CodingKey) -> TreeEncoder {
        TreeEncoder(context: context, node: Node(), codingPath: codingPath + [key], depth: depth + 1)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder
    /// Misuse found when the container was made, thrown by the first call that can throw.
    let failure: EncodingError?
    var codingPath: [any CodingKey] { encoder.codingPath }

    func name(_ key: Key) -> String {
        encoder.node.keepsKeys ? key.stringValue : encoder.context.keyStrategy.convert(key, codingPath: codingPath)
    }

    func put(_ child: Child, _ key: Key) throws {
        if let failure { throw failure }
        encoder.node.put(child, forKey: name(key))
    }

    mutating func encodeNil(forKey key: Key) throws { try put(.value(.nil), key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(.value(.bool(value)), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(.value(.string(value)), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(.value(.float64(value)), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(.value(.float32(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(.value(.integer(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(.value(.integer(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(.value(.integer(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(.value(.integer(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(.value(.integer(value)), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(.value(.integer(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(.value(.integer(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(.value(.integer(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(.value(.integer(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(.value(.integer(value)), key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let failure { throw failure }
        try put(encoder.box(value, at: key), key)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder.nested(at: key)
        if failure == nil { encoder.node.put(.node(nested.node), forKey: name(key)) }
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let nested = encoder.nested(at: key)
        if failure == nil { encoder.node.put(.node(nested.node), forKey: name(key)) }
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = DecodingKey("super")
        let nested = encoder.nested(at: key)
        if failure == nil { encoder.node.put(.node(nested.node), forKey: key.stringValue) }
        return nested
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        let nested = encoder.nested(at: key)
        if failure == nil { encoder.node.put(.node(nested.node), forKey: name(key)) }
        return nested
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: TreeEncoder
    let failure: EncodingError?
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.children.count }

    func append(_ value: MessagePackValue) throws {
        if let failure { throw failure }
        encoder.node.append(.value(value))
    }

    var nextKey: DecodingKey { DecodingKey(index: count) }

    mutating func encodeNil() throws { try append(.nil) }
    mutating func encode(_ value: Bool) throws { try append(.bool(value)) }
    mutating func encode(_ value: String) throws { try append(.string(value)) }
    mutating func encode(_ value: Double) throws { try append(.float64(value)) }
    mutating func encode(_ value: Float) throws { try append(.float32(value)) }
    mutating func encode(_ value: Int) throws { try append(.integer(value)) }
    mutating func encode(_ value: Int8) throws { try append(.integer(value)) }
    mutating func encode(_ value: Int16) throws { try append(.integer(value)) }
    mutating func encode(_ value: Int32) throws { try append(.integer(value)) }
    mutating func encode(_ value: Int64) throws { try append(.integer(value)) }
    mutating func encode(_ value: UInt) throws { try append(.integer(value)) }
    mutating func encode(_ value: UInt8) throws { try append(.integer(value)) }
    mutating func encode(_ value: UInt16) throws { try append(.integer(value)) }
    mutating func encode(_ value: UInt32) throws { try append(.integer(value)) }
    mutating func encode(_ value: UInt64) throws { try append(.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        if let failure { throw failure }
        encoder.node.append(try encoder.box(value, at: nextKey))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let nested = encoder.nested(at: nextKey)
        if failure == nil { encoder.node.append(.node(nested.node)) }
        return nested.container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let nested = encoder.nested(at: nextKey)
        if failure == nil { encoder.node.append(.node(nested.node)) }
        return nested.unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let nested = encoder.nested(at: nextKey)
        if failure == nil { encoder.node.append(.node(nested.node)) }
        return nested
    }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoder: TreeEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    func set(_ value: MessagePackValue) throws { try encoder.node.set(.value(value), codingPath: codingPath) }

    mutating func encodeNil() throws { try set(.nil) }
    mutating func encode(_ value: Bool) throws { try set(.bool(value)) }
    mutating func encode(_ value: String) throws { try set(.string(value)) }
    mutating func encode(_ value: Double) throws { try set(.float64(value)) }
    mutating func encode(_ value: Float) throws { try set(.float32(value)) }
    mutating func encode(_ value: Int) throws { try set(.integer(value)) }
    mutating func encode(_ value: Int8) throws { try set(.integer(value)) }
    mutating func encode(_ value: Int16) throws { try set(.integer(value)) }
    mutating func encode(_ value: Int32) throws { try set(.integer(value)) }
    mutating func encode(_ value: Int64) throws { try set(.integer(value)) }
    mutating func encode(_ value: UInt) throws { try set(.integer(value)) }
    mutating func encode(_ value: UInt8) throws { try set(.integer(value)) }
    mutating func encode(_ value: UInt16) throws { try set(.integer(value)) }
    mutating func encode(_ value: UInt32) throws { try set(.integer(value)) }
    mutating func encode(_ value: UInt64) throws { try set(.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // The value replaces this node's content: it is the same level of nesting, so no new depth.
        try encoder.node.set(
            encoder.context.box(value, codingPath: codingPath, depth: encoder.depth), codingPath: codingPath)
    }
}

extension MessagePackValue {
    /// The integer `value`, as the parser normalises it (every Swift integer of at most 64 bits has one).
    fileprivate static func integer<T: BinaryInteger>(_ value: T) -> MessagePackValue {
        MessagePackValue(integer: value) ?? .nil
    }
}
