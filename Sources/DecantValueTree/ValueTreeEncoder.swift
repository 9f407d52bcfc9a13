public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Encodes `Encodable` values into a format's value tree: the one engine under the `<Format>Encoder`s of the formats
/// whose bodies are a tree of values (CBOR, MessagePack), and of a third party's. The format states only what its tree
/// makes of each leaf, array and map (a ``TreeEncodingFormat``); the containers, the key, date and data strategies,
/// the depth limit and the errors are the same for every format, and stated here.
///
/// - Keyed containers become maps (``TreeEncodingFormat/map(_:)``) with keys converted by the key strategy
///   (the keys of a `[String: Value]` dictionary are written as they are), in the order they were encoded; a key
///   encoded twice keeps its first position and its last value. Unkeyed containers become arrays; a nested value whose
///   `encode(to:)` encodes nothing is an empty map.
/// - `Data` is ``TreeEncodingFormat/data(_:)`` when the data strategy is `nil`, else as the strategy says:
///   `.base64` a string, `.deferredToData` `Data`'s own encoding (an array of integers), `.custom` the closure's.
/// - `Date` is ``TreeEncodingFormat/date(_:)`` when the date strategy is `nil`; `.secondsSince1970` and
///   `.millisecondsSince1970` a `Double`; `.iso8601` and `.iso8601WithFractionalSeconds`
///   ``TreeEncodingFormat/iso8601(_:)`` over the RFC 3339 text; `.deferredToDate` `Date`'s own encoding (seconds since
///   2001, a `Double`); `.custom` the closure's.
///
/// A value's `encode(to:)` runs inside its container's, so nesting is bounded: past `maxDepth` levels (a
/// self-referencing object graph, say) encoding fails with `limitExceeded` instead of overflowing the stack. Misuse that
/// `JSONEncoder` stops the process for (two values through one single-value container, a keyed container asked of a
/// value that chose an unkeyed one) throws `encodingFailed`.
///
/// ```swift
/// public func encodeValue<T: Encodable>(_ value: T) throws(SerializationError) -> CBORValue {
///     try ValueTreeEncoder<CBORTree>(maxDepth: maxDepth, keyEncodingStrategy: keyEncodingStrategy).encode(value)
/// }
/// ```
public struct ValueTreeEncoder<Format: TreeEncodingFormat>: Sendable {
    fileprivate let keyStrategy: EncodingOptions.KeyEncodingStrategy
    fileprivate let dateStrategy: EncodingOptions.DateEncodingStrategy?
    fileprivate let dataStrategy: EncodingOptions.DataEncodingStrategy?
    fileprivate let userInfo: [CodingUserInfoKey: any Sendable]
    fileprivate let maxDepth: Int

    /// Creates an encoder.
    ///
    /// - Parameters:
    ///   - maxDepth: The deepest nesting of values: how many `encode(to:)` calls of values that are not leaves may run
    ///     inside one another.
    ///   - keyEncodingStrategy: How coding keys become map keys.
    ///   - dateEncodingStrategy: How `Date` values are written; `nil` is the format's own representation,
    ///     ``TreeEncodingFormat/date(_:)``.
    ///   - dataEncodingStrategy: How `Data` values are written; `nil` is the format's own representation,
    ///     ``TreeEncodingFormat/data(_:)``.
    ///   - userInfo: Contextual information passed to every `encode(to:)` as `Encoder.userInfo`.
    public init(
        maxDepth: Int,
        keyEncodingStrategy: EncodingOptions.KeyEncodingStrategy = .useDefaultKeys,
        dateEncodingStrategy: EncodingOptions.DateEncodingStrategy? = nil,
        dataEncodingStrategy: EncodingOptions.DataEncodingStrategy? = nil,
        userInfo: [CodingUserInfoKey: any Sendable] = [:]
    ) {
        self.maxDepth = maxDepth
        keyStrategy = keyEncodingStrategy
        dateStrategy = dateEncodingStrategy
        dataStrategy = dataEncodingStrategy
        self.userInfo = userInfo
    }

    /// Encodes `value` as a tree of the format.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed`, the coding path and the error as `underlying` (an
    ///   error thrown by an `encode(to:)` or a strategy's closure, misuse of the containers), or `limitExceeded` past
    ///   the encoder's `maxDepth` (its message names ``TreeEncodingFormat/maxDepthOption``).
    public func encode<T: Encodable>(_ value: T) throws(SerializationError) -> Format.Tree {
        let context = EncodingContext<Format>(encoder: self)
        do {
            return try context.box(value, codingPath: [], depth: 0).value
        } catch let error as DepthExceeded {
            throw SerializationError(
                code: .limitExceeded,
                message: "The value is nested more than \(maxDepth) levels deep (at \(error.path)). Raise "
                    + "\(Format.maxDepthOption) if the nesting is intended; a self-referencing object graph never "
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
                message: "The \(T.self) value could not be encoded as \(Format.name)"
                    + (path.isEmpty ? "" : " at \(path.joined(separator: "."))") + ": \(error)",
                codingPath: path, underlying: error)
        }
    }
}

/// Thrown past the depth limit, through the `encode(to:)`s, to become a `limitExceeded` error.
private struct DepthExceeded: Error {
    var path: [String]
}

/// What one encoding shares: the strategies, and the tree under construction.
private final class EncodingContext<Format: TreeEncodingFormat> {
    let keyStrategy: EncodingOptions.KeyEncodingStrategy
    let dateStrategy: EncodingOptions.DateEncodingStrategy?
    let dataStrategy: EncodingOptions.DataEncodingStrategy?
    let userInfo: [CodingUserInfoKey: Any]
    let maxDepth: Int

    init(encoder: ValueTreeEncoder<Format>) {
        keyStrategy = encoder.keyStrategy
        dateStrategy = encoder.dateStrategy
        dataStrategy = encoder.dataStrategy
        userInfo = encoder.userInfo.mapValues { $0 as Any }
        maxDepth = encoder.maxDepth
    }

    /// `value` as a child: a scalar at once, anything else by running its `encode(to:)` on a new node.
    func box<T: Encodable>(_ value: T, codingPath: [any CodingKey], depth: Int) throws -> Child<Format> {
        if let scalar = Self.scalar(value) { return .value(scalar) }
        guard depth < maxDepth else { throw DepthExceeded(path: codingPath.map(\.stringValue)) }
        let node = Node<Format>()
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
    static func scalar<T: Encodable>(_ value: T) -> Format.Tree? {
        switch value {
        case let text as String: Format.leaf(text)
        case let flag as Bool: Format.leaf(flag)
        case let number as Double: Format.leaf(number)
        case let number as Float: Format.leaf(number)
        case let number as Int: Format.leaf(Int64(number))
        case let number as Int64: Format.leaf(number)
        case let number as UInt64: Format.leaf(number)
        case let number as Int32: Format.leaf(Int64(number))
        case let number as UInt32: Format.leaf(UInt64(number))
        case let number as UInt: Format.leaf(UInt64(number))
        case let number as Int8: Format.leaf(Int64(number))
        case let number as Int16: Format.leaf(Int64(number))
        case let number as UInt8: Format.leaf(UInt64(number))
        case let number as UInt16: Format.leaf(UInt64(number))
        default: nil
        }
    }

    private func encode(_ date: Date, with encoder: TreeEncoder<Format>) throws {
        let set = { (value: Format.Tree) in try encoder.node.set(.value(value), codingPath: encoder.codingPath) }
        switch dateStrategy {
        case nil: try set(Format.date(date))
        case .deferredToDate: try date.encode(to: encoder)
        case .secondsSince1970: try set(Format.leaf(date.timeIntervalSince1970))
        case .millisecondsSince1970: try set(Format.leaf(date.timeIntervalSince1970 * 1000))
        case .iso8601: try set(Format.iso8601(Date.ISO8601FormatStyle().format(date)))
        case .iso8601WithFractionalSeconds:
            try set(Format.iso8601(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date)))
        case .custom(let closure): try closure(date, encoder)
        }
    }

    private func encode(_ data: Data, with encoder: TreeEncoder<Format>) throws {
        switch dataStrategy {
        case nil: try encoder.node.set(.value(Format.data(data)), codingPath: encoder.codingPath)
        case .deferredToData: try data.encode(to: encoder)
        case .base64:
            try encoder.node.set(.value(Format.leaf(data.base64EncodedString())), codingPath: encoder.codingPath)
        case .custom(let closure): try closure(data, encoder)
        }
    }
}

/// `[String: Value]`, whose keys are written as they are, whatever the key strategy.
private protocol StringKeyedDictionary {}
extension Dictionary: StringKeyedDictionary where Key == String {}

/// A value of the tree under construction: a finished value, or a node that containers still write to.
private enum Child<Format: TreeEncodingFormat> {
    case value(Format.Tree)
    case node(Node<Format>)

    /// The finished value (recursive, at most `maxDepth` levels).
    var value: Format.Tree {
        switch self {
        case .value(let value): value
        case .node(let node): node.value
        }
    }
}

/// What one `encode(to:)` wrote: nothing yet, one value, an array or a map.
private final class Node<Format: TreeEncodingFormat> {
    enum Kind {
        case empty
        case single(Child<Format>)
        case array
        case map
    }

    var kind = Kind.empty
    var children: [Child<Format>] = []
    var keys: [String] = []
    var positions: [String: Int] = [:]
    /// Whether the keys of a keyed container are written without the key strategy (a `[String: Value]`).
    var keepsKeys = false

    var value: Format.Tree {
        switch kind {
        case .empty: Format.map([])
        case .single(let child): child.value
        case .array: Format.array(children.map(\.value))
        case .map: Format.map(zip(keys, children).map { (key: $0, value: $1.value) })
        }
    }

    func set(_ child: Child<Format>, codingPath: [any CodingKey]) throws {
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

    func append(_ child: Child<Format>) { children.append(child) }

    func put(_ child: Child<Format>, forKey key: String) {
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
private struct TreeEncoder<Format: TreeEncodingFormat>: Encoder {
    let context: EncodingContext<Format>
    let node: Node<Format>
    let codingPath: [any CodingKey]
    let depth: Int
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let failure = node.become(map: true, codingPath: codingPath)
        return KeyedEncodingContainer(KeyedContainer<Format, Key>(encoder: self, failure: failure))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        UnkeyedContainer(encoder: self, failure: node.become(map: false, codingPath: codingPath))
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { SingleValueContainer(encoder: self) }

    func box<T: Encodable>(_ value: T, at key: any CodingKey) throws -> Child<Format> {
        try context.box(value, codingPath: codingPath + [key], depth: depth)
    }

    /// An encoder for a new node at `key`, for nested containers and super encoders.
    func nested(at key: any CodingKey) -> TreeEncoder {
        TreeEncoder(context: context, node: Node(), codingPath: codingPath + [key], depth: depth + 1)
    }
}

private struct KeyedContainer<Format: TreeEncodingFormat, Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: TreeEncoder<Format>
    /// Misuse found when the container was made, thrown by the first call that can throw.
    let failure: EncodingError?
    var codingPath: [any CodingKey] { encoder.codingPath }

    func name(_ key: Key) -> String {
        encoder.node.keepsKeys ? key.stringValue : encoder.context.keyStrategy.convert(key, codingPath: codingPath)
    }

    func put(_ value: Format.Tree, _ key: Key) throws { try put(.value(value), key) }

    func put(_ child: Child<Format>, _ key: Key) throws {
        if let failure { throw failure }
        encoder.node.put(child, forKey: name(key))
    }

    mutating func encodeNil(forKey key: Key) throws { try put(Format.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try put(Format.leaf(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try put(Format.leaf(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try put(Format.leaf(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try put(Format.leaf(value), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try put(Format.leaf(Int64(value)), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try put(Format.leaf(Int64(value)), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try put(Format.leaf(Int64(value)), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try put(Format.leaf(Int64(value)), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try put(Format.leaf(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try put(Format.leaf(UInt64(value)), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try put(Format.leaf(UInt64(value)), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try put(Format.leaf(UInt64(value)), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try put(Format.leaf(UInt64(value)), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try put(Format.leaf(value), key) }

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

private struct UnkeyedContainer<Format: TreeEncodingFormat>: UnkeyedEncodingContainer {
    let encoder: TreeEncoder<Format>
    let failure: EncodingError?
    var codingPath: [any CodingKey] { encoder.codingPath }
    var count: Int { encoder.node.children.count }

    func append(_ value: Format.Tree) throws {
        if let failure { throw failure }
        encoder.node.append(.value(value))
    }

    var nextKey: DecodingKey { DecodingKey(index: count) }

    mutating func encodeNil() throws { try append(Format.null) }
    mutating func encode(_ value: Bool) throws { try append(Format.leaf(value)) }
    mutating func encode(_ value: String) throws { try append(Format.leaf(value)) }
    mutating func encode(_ value: Double) throws { try append(Format.leaf(value)) }
    mutating func encode(_ value: Float) throws { try append(Format.leaf(value)) }
    mutating func encode(_ value: Int) throws { try append(Format.leaf(Int64(value))) }
    mutating func encode(_ value: Int8) throws { try append(Format.leaf(Int64(value))) }
    mutating func encode(_ value: Int16) throws { try append(Format.leaf(Int64(value))) }
    mutating func encode(_ value: Int32) throws { try append(Format.leaf(Int64(value))) }
    mutating func encode(_ value: Int64) throws { try append(Format.leaf(value)) }
    mutating func encode(_ value: UInt) throws { try append(Format.leaf(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { try append(Format.leaf(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { try append(Format.leaf(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { try append(Format.leaf(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { try append(Format.leaf(value)) }

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

private struct SingleValueContainer<Format: TreeEncodingFormat>: SingleValueEncodingContainer {
    let encoder: TreeEncoder<Format>
    var codingPath: [any CodingKey] { encoder.codingPath }

    func set(_ value: Format.Tree) throws { try encoder.node.set(.value(value), codingPath: codingPath) }

    mutating func encodeNil() throws { try set(Format.null) }
    mutating func encode(_ value: Bool) throws { try set(Format.leaf(value)) }
    mutating func encode(_ value: String) throws { try set(Format.leaf(value)) }
    mutating func encode(_ value: Double) throws { try set(Format.leaf(value)) }
    mutating func encode(_ value: Float) throws { try set(Format.leaf(value)) }
    mutating func encode(_ value: Int) throws { try set(Format.leaf(Int64(value))) }
    mutating func encode(_ value: Int8) throws { try set(Format.leaf(Int64(value))) }
    mutating func encode(_ value: Int16) throws { try set(Format.leaf(Int64(value))) }
    mutating func encode(_ value: Int32) throws { try set(Format.leaf(Int64(value))) }
    mutating func encode(_ value: Int64) throws { try set(Format.leaf(value)) }
    mutating func encode(_ value: UInt) throws { try set(Format.leaf(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { try set(Format.leaf(UInt64(value))) }
    mutating func encode(_ value: UInt16) throws { try set(Format.leaf(UInt64(value))) }
    mutating func encode(_ value: UInt32) throws { try set(Format.leaf(UInt64(value))) }
    mutating func encode(_ value: UInt64) throws { try set(Format.leaf(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        // The value replaces this node's content: it is the same level of nesting, so no new depth.
        try encoder.node.set(
            encoder.context.box(value, codingPath: codingPath, depth: encoder.depth), codingPath: codingPath)
    }
}
