public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Encodes `Encodable` values as property lists, with `PropertyListEncoder`'s behaviour: the mirror of
/// ``PropertyListValueDecoder``.
///
/// The value is built as a ``PropertyListValue`` (``encodeValue(_:)``) and written by ``PropertyListWriter``
/// (``encode(_:)``):
///
/// ```swift
/// var encoder = PropertyListValueEncoder()
/// encoder.outputFormat = .xml
/// let body = try encoder.encode(settings)   // <?xml ...?><plist version="1.0"><dict>...
/// ```
///
/// As `PropertyListEncoder` does:
/// - Keyed containers are dictionaries, unkeyed ones arrays; `Date` and `Data` are property list dates and data;
///   integers of every width are integers, `Float` and `Double` reals (a `Float` widened to `Double`, infinities and
///   NaN included), `Bool` Booleans. Other types (`URL`, `Decimal`, `UUID`) encode themselves as they do there
///   (`URL` as `{"relative": ...}`).
/// - An explicit nil (`encodeNil`, a `nil` element of an array or a `[String: Int?]`) is the string `$null`, which
///   ``PropertyListValueDecoder`` and `PropertyListDecoder` read as nil; synthesized conformances use
///   `encodeIfPresent`, which leaves the key out.
/// - A nested value whose `encode(to:)` encodes nothing is an empty dictionary; a top-level one is an error.
/// - A key encoded twice in one dictionary keeps its first position and its last value.
///
/// Where it differs:
/// - A top-level scalar (`1`, `"text"`) is written as a property list holding just that value, which property lists
///   allow (`plistlib` writes and reads them); `PropertyListEncoder` throws for it.
/// - ``keyEncodingStrategy`` converts keys as `JSONEncoder` does (`PropertyListEncoder` has no key strategy); the keys
///   of `[String: Value]` dictionaries are never converted.
/// - Keys are written in encoding order unless ``outputFormatting`` holds `.sortedKeys`; `PropertyListEncoder`'s
///   XML sorts them always. (`.prettyPrinted` changes nothing: XML is always indented, binary never.)
/// - Misuse that `PropertyListEncoder` stops the process for (a second value through a single-value container, a
///   keyed container asked of a value that already chose an unkeyed one) throws instead.
/// - Values nested deeper than ``maxDepth`` throw `limitExceeded` rather than overflowing the stack.
/// - The date, data and non-conforming float strategies of `EncodingOptions` do not apply: property lists hold dates,
///   data, infinities and NaN as they are.
///
/// Every failure is a `SerializationError`: `encodingFailed` with the coding path and the error an `encode(to:)`
/// threw as `underlying`, `limitExceeded`, or what ``PropertyListWriter/write(_:)`` throws.
public struct PropertyListValueEncoder: Sendable {
    /// The format ``encode(_:)`` writes: binary by default, as `PropertyListEncoder`.
    public var outputFormat: PropertyListWritingOptions.Format
    /// How coding keys become dictionary keys; see `EncodingOptions.KeyEncodingStrategy`.
    public var keyEncodingStrategy: EncodingOptions.KeyEncodingStrategy
    /// `.sortedKeys` writes dictionary keys in the order of their UTF-8 bytes; the other options change nothing.
    public var outputFormatting: EncodingOptions.OutputFormatting
    /// Contextual information passed to every `encode(to:)` as `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// The deepest nesting of values: a value whose `encode(to:)` runs inside more than this many others (or a
    /// container nested that deep) fails with `SerializationError.Code.limitExceeded`. Default 512,
    /// ``PropertyListParsingOptions/defaultMaxDepth``, so that what is written is read back with the default options.
    public var maxDepth: Int

    /// Creates an encoder; by default binary output, keys as they are, in encoding order.
    public init(
        outputFormat: PropertyListWritingOptions.Format = .binary,
        keyEncodingStrategy: EncodingOptions.KeyEncodingStrategy = .useDefaultKeys,
        outputFormatting: EncodingOptions.OutputFormatting = [],
        userInfo: [CodingUserInfoKey: any Sendable] = [:],
        maxDepth: Int = PropertyListParsingOptions.defaultMaxDepth
    ) {
        self.outputFormat = outputFormat
        self.keyEncodingStrategy = keyEncodingStrategy
        self.outputFormatting = outputFormatting
        self.userInfo = userInfo
        self.maxDepth = maxDepth
    }

    /// An encoder with the key strategy, formatting and `userInfo` of `options` (binary output).
    public init(options: EncodingOptions) {
        self.init()
        apply(options)
    }

    /// Sets the key strategy and formatting `options` sets, and adds its `userInfo` (its keys winning). Its date,
    /// data and float strategies do not apply to property lists.
    public mutating func apply(_ options: EncodingOptions) {
        if let key = options.keyEncodingStrategy { keyEncodingStrategy = key }
        if let formatting = options.outputFormatting { outputFormatting = formatting }
        for (key, value) in options.userInfo { userInfo[key] = value }
    }

    /// The options ``encode(_:)`` writes with.
    public var writingOptions: PropertyListWritingOptions {
        PropertyListWritingOptions(
            format: outputFormat, sortedKeys: outputFormatting.contains(.sortedKeys), maxDepth: maxDepth)
    }

    /// Encodes `value` as a property list in ``outputFormat``.
    ///
    /// - Throws: `SerializationError`: `encodingFailed` (a top-level value that encodes nothing, an error thrown by
    ///   an `encode(to:)`, misuse of the containers, or a value the format cannot hold) with the coding path, or
    ///   `limitExceeded` past ``maxDepth``.
    public func encode<T: Encodable>(_ value: T) throws(SerializationError) -> Data {
        try PropertyListWriter(options: writingOptions).write(encodeValue(value))
    }

    /// Encodes `value` as a ``PropertyListValue``, without writing it.
    ///
    /// - Throws: as ``encode(_:)``, except the writer's errors.
    public func encodeValue<T: Encodable>(_ value: T) throws(SerializationError) -> PropertyListValue {
        let context = EncodingContext(
            keyEncodingStrategy: keyEncodingStrategy, userInfo: userInfo, maxDepth: maxDepth)
        let root = TreeEncoder(context: context, codingPath: [], depth: 0)
        let slot: EncodingSlot?
        do {
            slot = try root.box(value, codingPath: [])
        } catch {
            throw context.serializationError(for: error)
        }
        if let failure = context.failure { throw failure }
        guard let slot else {
            throw SerializationError(
                code: .encodingFailed,
                message: "The top-level \(T.self) did not encode any values, so there is no property list to write. "
                    + "Encode at least one value in its encode(to:).",
                serializerID: "propertyList")
        }
        return slot.resolved()
    }
}
