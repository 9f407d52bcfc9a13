public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decodes `Decodable` values from JSON, with `JSONDecoder`'s strategies, straight from the parsed document.
///
/// The body is parsed once by ``JSONParser`` into its tape, and values are decoded from the tape without building
/// intermediate values: keys are matched against the document's bytes (with a lookup table for large objects),
/// integers are read without allocating, and strings become `String`s once. The results are the ones
/// `JSONDecoder` gives, with the same strategies:
///
/// ```swift
/// var decoder = JSONValueDecoder()
/// decoder.keyDecodingStrategy = .convertFromSnakeCase
/// decoder.dateDecodingStrategy = .iso8601
/// let user = try decoder.decode(User.self, from: body)
/// ```
///
/// Every failure is a `SerializationError`. Parse errors keep the parser's codes (`invalidBody`,
/// `invalidEncoding`, `limitExceeded`, ...); decoding failures have the code `decodingFailed`, the coding path
/// (`["user", "addresses", "2", "zip"]`), the byte offset of the offending value in the body, the `DecodingError`
/// that `JSONDecoder` would throw as `underlying`, and a message that says what was expected, what was found, where,
/// and how to fix it.
///
/// Where it deliberately differs from `JSONDecoder`:
/// - Errors carry the full coding path and an offset; `JSONDecoder` reports numbers that do not fit and invalid
///   numbers as "The given data was not valid JSON." with an empty path.
/// - `allKeys` lists keys in document order (`JSONDecoder`'s order is its dictionary's).
/// - A key that appears twice is resolved by ``JSONParsingOptions/duplicateKeys`` (the last value by default, or an
///   error); `JSONDecoder` keeps the first.
/// - The text must be RFC 8259 JSON (``JSONParser``'s rules); `JSONDecoder` also accepts JSON5 when asked.
public struct JSONValueDecoder: Sendable {
    /// How JSON object keys are matched to coding keys; see ``KeyDecodingStrategy``.
    public var keyDecodingStrategy: KeyDecodingStrategy
    /// How `Date` values are decoded; see ``DateDecodingStrategy``.
    public var dateDecodingStrategy: DateDecodingStrategy
    /// How `Data` values are decoded; see ``DataDecodingStrategy``.
    public var dataDecodingStrategy: DataDecodingStrategy
    /// How infinities and NaN are read for floating-point values; see ``NonConformingFloatDecodingStrategy``.
    public var nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy
    /// Contextual information passed to every `init(from:)` as `Decoder.userInfo`.
    public var userInfo: [CodingUserInfoKey: any Sendable]
    /// How the body is parsed (fragments, depth, duplicate keys, size); see ``JSONParsingOptions``.
    public var parsingOptions: JSONParsingOptions

    /// Creates a decoder with `JSONDecoder`'s defaults: default keys, dates deferred to `Date`, Base64 data, and
    /// errors for non-conforming floats.
    public init(
        keyDecodingStrategy: KeyDecodingStrategy = .useDefaultKeys,
        dateDecodingStrategy: DateDecodingStrategy = .deferredToDate,
        dataDecodingStrategy: DataDecodingStrategy = .base64,
        nonConformingFloatDecodingStrategy: NonConformingFloatDecodingStrategy = .throw,
        userInfo: [CodingUserInfoKey: any Sendable] = [:],
        parsingOptions: JSONParsingOptions = JSONParsingOptions()
    ) {
        self.keyDecodingStrategy = keyDecodingStrategy
        self.dateDecodingStrategy = dateDecodingStrategy
        self.dataDecodingStrategy = dataDecodingStrategy
        self.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        self.userInfo = userInfo
        self.parsingOptions = parsingOptions
    }

    /// Parses `data` as JSON and decodes a `T` from it.
    ///
    /// The text may be UTF-8, UTF-16 or UTF-32, detected as ``JSONParser`` does (RFC 8259 §8.1, RFC 4627 §3).
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The JSON text.
    /// - Returns: The decoded value.
    /// - Throws: `SerializationError`: the parser's errors (`invalidBody`, `invalidEncoding`, `limitExceeded`,
    ///   `bodyTooLarge`) when `data` is not JSON, and `decodingFailed` with the coding path, the byte offset and the
    ///   `DecodingError` as `underlying` when the JSON does not match `T`.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data) throws(SerializationError) -> T {
        let value = try JSONParser(options: parsingOptions).parse(data)
        return try decode(type, from: value, source: data)
    }

    /// Decodes a `T` from an already parsed (or built) JSON value.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - value: The JSON value; a value inside a larger document decodes with coding paths relative to it.
    /// - Returns: The decoded value.
    /// - Throws: `SerializationError` with code `decodingFailed`, the coding path and the `DecodingError` as
    ///   `underlying`. There is no byte offset: the value has no body to point into.
    public func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws(SerializationError) -> T {
        try decode(type, from: value, source: nil)
    }

    func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, source: Data?
    ) throws(SerializationError) -> T {
        let decoder = TapeDecoder(storage: value.storage, root: value.index, options: TapeDecodingOptions(self))
        do {
            return try decoder.decodeRoot(type)
        } catch {
            throw JSONDecodingFailure.serializationError(for: error, in: decoder, source: source)
        }
    }
}

extension JSONValueDecoder {
    /// How JSON object keys are matched to the coding keys of the types being decoded (`JSONDecoder`'s strategies):
    /// Decant's format-neutral `DecodingOptions.KeyDecodingStrategy`.
    public typealias KeyDecodingStrategy = DecodingOptions.KeyDecodingStrategy
    /// How `Date` values are decoded: `DecodingOptions.DateDecodingStrategy`.
    public typealias DateDecodingStrategy = DecodingOptions.DateDecodingStrategy
    /// How `Data` values are decoded: `DecodingOptions.DataDecodingStrategy`.
    public typealias DataDecodingStrategy = DecodingOptions.DataDecodingStrategy
    /// How infinities and NaN are read: `DecodingOptions.NonConformingFloatDecodingStrategy`.
    public typealias NonConformingFloatDecodingStrategy = DecodingOptions.NonConformingFloatDecodingStrategy

    /// A decoder with the strategies and `userInfo` of `options` (those it leaves `nil` take `JSONDecoder`'s
    /// defaults) and `parsingOptions`.
    public init(options: DecodingOptions, parsingOptions: JSONParsingOptions = JSONParsingOptions()) {
        self.init(parsingOptions: parsingOptions)
        apply(options)
    }

    /// Sets every strategy `options` sets and adds its `userInfo` (its keys winning); the others stay as they are.
    public mutating func apply(_ options: DecodingOptions) {
        if let key = options.keyDecodingStrategy { keyDecodingStrategy = key }
        if let date = options.dateDecodingStrategy { dateDecodingStrategy = date }
        if let data = options.dataDecodingStrategy { dataDecodingStrategy = data }
        if let floats = options.nonConformingFloatDecodingStrategy { nonConformingFloatDecodingStrategy = floats }
        for (key, value) in options.userInfo { userInfo[key] = value }
    }
}
