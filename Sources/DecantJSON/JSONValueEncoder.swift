public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Encodes `Encodable` values as UTF-8 JSON text, with `JSONEncoder`'s strategies, writing the bytes as it goes.
///
/// The mirror of ``JSONValueDecoder``: values are written straight into one byte buffer as their `encode(to:)` runs,
/// without building a tree first. The text is what `JSONEncoder` writes, with the same strategies:
///
/// ```swift
/// var encoder = JSONValueEncoder()
/// encoder.keyEncodingStrategy = .convertToSnakeCase
/// encoder.dateEncodingStrategy = .iso8601
/// encoder.outputFormatting = [.sortedKeys]
/// let body = try encoder.encode(user)   // {"created_at":"2024-05-01T12:00:00Z","user_id":7}
/// ```
///
/// - Numbers: integers exactly; `Double` and `Float` as the shortest text that reads back as the same value
///   (`description`), without a trailing `.0` (`1`, `0.1`, `1e+300`, `-0`, `5e-324`); `Decimal` as its
///   `description`. Infinities and NaN follow ``nonConformingFloatEncodingStrategy``.
/// - Strings and keys: the one escaping rule of Decant's JSON (only `"`, `\` and control characters are escaped;
///   `/` and non-ASCII are written as they are).
/// - `Optional.none` is `null` (`encodeIfPresent`, which synthesized conformances use, leaves the key out); a top-level
///   scalar (`1`, `"text"`, `null`) is written as it is (RFC 8259 §2). A key encoded twice in one object keeps its
///   first position and its last value. A nested value whose `encode(to:)` encodes nothing is `{}`.
/// - `Date`, `Data`: ``dateEncodingStrategy`` and ``dataEncodingStrategy``; `URL` is its `absoluteString`.
/// - `[String: Value]` keys are written as they are, whatever ``keyEncodingStrategy`` says (as in `JSONEncoder`).
/// - ``outputFormatting``: `.sortedKeys` orders members by the UTF-8 bytes of their keys, `.prettyPrinted` lays the
///   text out exactly as ``JSONValue/jsonData(options:)`` does (two spaces per level, `": "` after keys, `[]` and `{}`
///   for empty containers).
///
/// Where it deliberately differs from `JSONEncoder`:
/// - `/` is never escaped (`JSONEncoder` writes `\/` unless `.withoutEscapingSlashes` is set; both are valid JSON).
/// - Pretty-printed text has `": "` after keys and empty containers as `[]` and `{}`; `JSONEncoder` writes `" : "` and
///   puts an empty line inside empty containers.
/// - Misuse that `JSONEncoder` stops the process for (a second value through a single-value container, a keyed
///   container asked of a value that already chose an unkeyed one, a container used after the value that made it was
///   encoded) throws instead; `Decimal.nan` throws rather than writing `NaN`.
/// - Values nested deeper than ``maxDepth`` (a self-referencing object graph, say) throw `limitExceeded` rather than
///   overflowing the stack.
///
/// Every failure is a `SerializationError`: `encodingFailed` with the coding path (`["items", "2", "price"]`) and the
/// `EncodingError` (or the error an `encode(to:)` threw) as `underlying`, or `limitExceeded`.
public struct JSONValueEncoder: Sendable {
    /// How coding keys become the text's keys; see ``KeyEncodingStrategy``.
    public var keyEncodingStrategy: KeyEncodingStrategy
    /// How `Date` values are written; see ``DateEncodingStrategy``.
    public var dateEncodingStrategy: DateEncodingStrategy
    /// How `Data` values are written; see ``DataEncodingStrategy``.
    public var dataEncodingStrategy: DataEncodingStrategy
    /// How infinities and NaN are written; see ``NonConformingFloatEncodingStrategy``.
    public var nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy
    /// How the text is laid out: `.prettyPrinted`, `.sortedKeys` (`.withoutEscapingSlashes` changes nothing: `/` is
    /// never escaped).
    public var outputFormatting: OutputFormatting
    /// Contextual information passed to every `encode(to:)` as `Encoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// The deepest nesting of values: a value whose `encode(to:)` runs inside more than this many others' fails with
    /// `SerializationError.Code.limitExceeded`. Default 512, ``JSONParsingOptions/maxDepth``'s default, so that what
    /// the encoder writes the parser reads back. Every `Encodable` value counts one level, including wrappers that
    /// encode through a single-value container, so the JSON text is never nested deeper than this.
    public var maxDepth: Int

    /// Creates an encoder with `JSONEncoder`'s defaults: default keys, dates deferred to `Date`, Base64 data, errors
    /// for non-conforming floats, compact text in encoding order.
    public init(
        keyEncodingStrategy: KeyEncodingStrategy = .useDefaultKeys,
        dateEncodingStrategy: DateEncodingStrategy = .deferredToDate,
        dataEncodingStrategy: DataEncodingStrategy = .base64,
        nonConformingFloatEncodingStrategy: NonConformingFloatEncodingStrategy = .throw,
        outputFormatting: OutputFormatting = [],
        userInfo: [CodingUserInfoKey: any Sendable] = [:],
        maxDepth: Int = JSONParsingOptions().maxDepth
    ) {
        self.keyEncodingStrategy = keyEncodingStrategy
        self.dateEncodingStrategy = dateEncodingStrategy
        self.dataEncodingStrategy = dataEncodingStrategy
        self.nonConformingFloatEncodingStrategy = nonConformingFloatEncodingStrategy
        self.outputFormatting = outputFormatting
        self.userInfo = userInfo
        self.maxDepth = maxDepth
    }

    /// Encodes `value` as UTF-8 JSON text.
    ///
    /// - Parameter value: The value; any `Encodable`, a top-level scalar or `nil` included.
    /// - Returns: The text.
    /// - Throws: `SerializationError` with code `encodingFailed` (a non-conforming float under `.throw`, a top-level
    ///   value that encodes nothing, an error thrown by an `encode(to:)` or a strategy's closure, misuse of the
    ///   containers), with the coding path and the error as `underlying`; `limitExceeded` past ``maxDepth``.
    public func encode<T: Encodable>(_ value: T) throws(SerializationError) -> Data {
        Data(try encodeBytes(value))
    }

    /// The bytes ``encode(_:)`` returns, as an array.
    func encodeBytes<T: Encodable>(_ value: T) throws(SerializationError) -> [UInt8] {
        let encoder = StreamEncoder(options: StreamEncodingOptions(self))
        do {
            return try encoder.encodeRoot(value)
        } catch {
            throw JSONEncodingFailure.serializationError(for: error, in: encoder)
        }
    }
}

extension JSONValueEncoder {
    /// How coding keys become keys: Decant's format-neutral `EncodingOptions.KeyEncodingStrategy`.
    public typealias KeyEncodingStrategy = EncodingOptions.KeyEncodingStrategy
    /// How `Date` values are written: `EncodingOptions.DateEncodingStrategy`.
    public typealias DateEncodingStrategy = EncodingOptions.DateEncodingStrategy
    /// How `Data` values are written: `EncodingOptions.DataEncodingStrategy`.
    public typealias DataEncodingStrategy = EncodingOptions.DataEncodingStrategy
    /// How infinities and NaN are written: `EncodingOptions.NonConformingFloatEncodingStrategy`.
    public typealias NonConformingFloatEncodingStrategy = EncodingOptions.NonConformingFloatEncodingStrategy
    /// How the text is laid out: `EncodingOptions.OutputFormatting`.
    public typealias OutputFormatting = EncodingOptions.OutputFormatting

    /// An encoder with the strategies, formatting and `userInfo` of `options` (those it leaves `nil` take
    /// `JSONEncoder`'s defaults).
    public init(options: EncodingOptions) {
        self.init()
        apply(options)
    }

    /// Sets every strategy and the formatting `options` sets, and adds its `userInfo` (its keys winning); the others
    /// stay as they are.
    public mutating func apply(_ options: EncodingOptions) {
        if let key = options.keyEncodingStrategy { keyEncodingStrategy = key }
        if let date = options.dateEncodingStrategy { dateEncodingStrategy = date }
        if let data = options.dataEncodingStrategy { dataEncodingStrategy = data }
        if let floats = options.nonConformingFloatEncodingStrategy { nonConformingFloatEncodingStrategy = floats }
        if let formatting = options.outputFormatting { outputFormatting = formatting }
        for (key, value) in options.userInfo { userInfo[key] = value }
    }
}
