public import DecantCore
import DecantValueTree

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Encodes `Encodable` values as CBOR: into a ``CBORValue``, or into bytes through ``CBORWriter``.
///
/// The mirror of ``CBORDecoder``: what it encodes, `CBORDecoder` decodes back to an equal value.
///
/// - Keyed containers become maps with text-string keys (converted by ``keyEncodingStrategy``; the keys of a
///   `[String: Value]` dictionary are written as they are), in the order they were encoded; a key encoded twice keeps
///   its first position and its last value. Unkeyed containers become arrays; a nested value whose `encode(to:)`
///   encodes nothing is an empty map.
/// - Integers are exact, `UInt64` and `Int64` included (major types 0 and 1). `Double` and `Float` are floats, written
///   in the shortest precision that holds them exactly (preferred serialization: a `Float` is half or single
///   precision, never double); NaN and the infinities are CBOR floats too, so ``EncodingOptions``'
///   `nonConformingFloatEncodingStrategy` does not apply. `nil` is `null`.
/// - `Data` is a byte string (``dataEncodingStrategy`` `nil`, the default), or as the strategy says: `.base64` a text
///   string, `.deferredToData` `Data`'s own encoding (an array of integers), `.custom` the closure's.
/// - `Date` is, by default (``dateEncodingStrategy`` `nil`), tag 1 over the seconds since 1970 (RFC 8949 §3.4.2): an
///   integer when the date is a whole second, else a float. `.iso8601` and `.iso8601WithFractionalSeconds` write tag
///   0 over an RFC 3339 text string (§3.4.1); `.secondsSince1970` and `.millisecondsSince1970` an untagged float;
///   `.deferredToDate` `Date`'s own encoding (seconds since 2001, a float); `.custom` the closure's. ``CBORDecoder``
///   reads tags 0 and 1 back as `Date`s.
///
/// ```swift
/// struct User: Codable { var id: UInt64; var name: String }
/// let body = try CBOREncoder().encode(User(id: 7, name: "Ada"))   // a2 62 69 64 07 64 6e 61 6d 65 63 41 64 61
/// ```
///
/// A value's `encode(to:)` runs inside its container's, so nesting is bounded: past ``maxDepth`` levels (a
/// self-referencing object graph, say) encoding fails with `limitExceeded` instead of overflowing the stack. Misuse that
/// `JSONEncoder` stops the process for (two values through one single-value container, a keyed container asked of a
/// value that chose an unkeyed one) throws `encodingFailed`.
public struct CBOREncoder: Sendable {
    /// How coding keys become map keys (`EncodingOptions.KeyEncodingStrategy`); default keys unless set.
    public var keyEncodingStrategy: EncodingOptions.KeyEncodingStrategy
    /// How `Date` values are written; `nil`, the default, is tag 1 over the seconds since 1970.
    public var dateEncodingStrategy: EncodingOptions.DateEncodingStrategy?
    /// How `Data` values are written; `nil`, the default, is a byte string.
    public var dataEncodingStrategy: EncodingOptions.DataEncodingStrategy?
    /// Contextual information passed to every `encode(to:)` as `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// The deepest nesting of values. Default 512, ``CBORParsingOptions/defaultMaxDepth``, so that what the encoder
    /// writes the parser reads back.
    public var maxDepth: Int
    /// How the bytes are written: preferred serialization, or core deterministic encoding.
    public var writingOptions: CBORWritingOptions

    /// Creates an encoder; every parameter has the default described on its property.
    public init(
        keyEncodingStrategy: EncodingOptions.KeyEncodingStrategy = .useDefaultKeys,
        dateEncodingStrategy: EncodingOptions.DateEncodingStrategy? = nil,
        dataEncodingStrategy: EncodingOptions.DataEncodingStrategy? = nil,
        userInfo: [CodingUserInfoKey: any Sendable] = [:],
        maxDepth: Int = CBORParsingOptions.defaultMaxDepth,
        writingOptions: CBORWritingOptions = CBORWritingOptions()
    ) {
        self.keyEncodingStrategy = keyEncodingStrategy
        self.dateEncodingStrategy = dateEncodingStrategy
        self.dataEncodingStrategy = dataEncodingStrategy
        self.userInfo = userInfo
        self.maxDepth = maxDepth
        self.writingOptions = writingOptions
    }

    /// An encoder with the key, date and data strategies and `userInfo` of `options`; `.sortedKeys` in its
    /// `outputFormatting` asks for deterministic encoding (maps sorted by their keys' bytes). The other fields do not
    /// apply to CBOR.
    public init(options: EncodingOptions) {
        self.init()
        if let key = options.keyEncodingStrategy { keyEncodingStrategy = key }
        dateEncodingStrategy = options.dateEncodingStrategy
        dataEncodingStrategy = options.dataEncodingStrategy
        userInfo = options.userInfo
        if options.outputFormatting?.contains(.sortedKeys) == true { writingOptions.deterministic = true }
    }

    /// Encodes `value` as the bytes of one CBOR data item.
    ///
    /// - Throws: `SerializationError` as ``encodeValue(_:)`` and ``CBORWriter/write(_:)`` do.
    public func encode<T: Encodable>(_ value: T) throws(SerializationError) -> Data {
        try CBORWriter(options: writingOptions).write(encodeValue(value))
    }

    /// Encodes `value` as a ``CBORValue``.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed`, the coding path and the error as `underlying` (an
    ///   error thrown by an `encode(to:)` or a strategy's closure, misuse of the containers), or `limitExceeded` past
    ///   ``maxDepth``.
    public func encodeValue<T: Encodable>(_ value: T) throws(SerializationError) -> CBORValue {
        try ValueTreeEncoder<CBORTree>(
            maxDepth: maxDepth, keyEncodingStrategy: keyEncodingStrategy, dateEncodingStrategy: dateEncodingStrategy,
            dataEncodingStrategy: dataEncodingStrategy, userInfo: userInfo
        ).encode(value)
    }
}

/// What ``CBOREncoder`` writes for each leaf, array and map: the CBOR half of ``ValueTreeEncoder``.
private enum CBORTree: TreeEncodingFormat {
    static let name = "CBOR"
    static let maxDepthOption = "CBOREncoder.maxDepth"
    static var null: CBORValue { .null }
    static func leaf(_ value: Bool) -> CBORValue { .bool(value) }
    static func leaf(_ value: String) -> CBORValue { .text(value) }
    static func leaf(_ value: Double) -> CBORValue { .float(value) }
    static func leaf(_ value: Float) -> CBORValue { .float(Double(value)) }
    static func leaf(_ value: Int64) -> CBORValue { .integer(value) }
    static func leaf(_ value: UInt64) -> CBORValue { .integer(value) }
    static func array(_ elements: [CBORValue]) -> CBORValue { .array(elements) }

    static func map(_ entries: [(key: String, value: CBORValue)]) -> CBORValue {
        .map(entries.map { CBORValue.MapEntry(key: .text($0.key), value: $0.value) })
    }

    /// Tag 1 over the seconds since 1970: an integer when the date is a whole second, else a float.
    static func date(_ date: Date) -> CBORValue {
        let seconds = date.timeIntervalSince1970
        if seconds.rounded() == seconds, let whole = Int64(exactly: seconds) { return .tag(1, .integer(whole)) }
        return .tag(1, .float(seconds))
    }

    /// Tag 0 over the text.
    static func iso8601(_ text: String) -> CBORValue { .tag(0, .text(text)) }
    static func data(_ data: Data) -> CBORValue { .bytes(data) }
}

extension CBORValue {
    /// The integer `value`: ``unsignedInteger(_:)`` when it is not negative, else ``negativeInteger(_:)`` with the
    /// argument `-1 - value`.
    public static func integer<T: BinaryInteger>(_ value: T) -> CBORValue {
        if value >= 0 { return .unsignedInteger(UInt64(value)) }
        return .negativeInteger(UInt64(-1 - Int64(value)))
    }
}
