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
        try ValueTreeEncoder<MessagePackTree>(
            maxDepth: maxDepth, keyEncodingStrategy: keyEncodingStrategy, dateEncodingStrategy: dateEncodingStrategy,
            dataEncodingStrategy: dataEncodingStrategy, userInfo: userInfo
        ).encode(value)
    }
}

/// What ``MessagePackEncoder`` writes for each leaf, array and map: the MessagePack half of ``ValueTreeEncoder``.
private enum MessagePackTree: TreeEncodingFormat {
    static let name = "MessagePack"
    static let maxDepthOption = "MessagePackEncoder.maxDepth"
    static var null: MessagePackValue { .nil }
    static func leaf(_ value: Bool) -> MessagePackValue { .bool(value) }
    static func leaf(_ value: String) -> MessagePackValue { .string(value) }
    static func leaf(_ value: Double) -> MessagePackValue { .float64(value) }
    static func leaf(_ value: Float) -> MessagePackValue { .float32(value) }
    /// Every `Int64` and `UInt64` is a MessagePack integer, so the `?? .nil` is never taken.
    static func leaf(_ value: Int64) -> MessagePackValue { MessagePackValue(integer: value) ?? .nil }
    static func leaf(_ value: UInt64) -> MessagePackValue { MessagePackValue(integer: value) ?? .nil }
    static func array(_ elements: [MessagePackValue]) -> MessagePackValue { .array(elements) }

    static func map(_ entries: [(key: String, value: MessagePackValue)]) -> MessagePackValue {
        .map(entries.map { MessagePackValue.Entry(key: .string($0.key), value: $0.value) })
    }

    /// The timestamp of `date`: its seconds since 1970, rounded to the nanosecond.
    static func date(_ date: Date) -> MessagePackValue {
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

    /// A string: MessagePack has no tag for dates written as text.
    static func iso8601(_ text: String) -> MessagePackValue { .string(text) }
    static func data(_ data: Data) -> MessagePackValue { .binary([UInt8](data)) }
}
