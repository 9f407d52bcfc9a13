/// How ``JSONParser`` reads a document, with AFNetworking's and Alamofire's semantics.
///
/// The defaults accept every JSON text RFC 8259 allows, including a top-level scalar (RFC 8259 §2), resolve duplicate
/// object keys the way JavaScript and Python do (the last value wins), and bound what a hostile body can cost.
///
/// ```swift
/// var options = JSONParsingOptions()
/// options.removesKeysWithNullValues = true   // AFJSONResponseSerializer.removesKeysWithNullValues
/// options.duplicateKeys = .reject
/// let value = try JSONParser(options: options).parse(data)
/// ```
public struct JSONParsingOptions: Sendable, Hashable {
    /// What to do when an object has the same key twice. RFC 8259 §4 says names "SHOULD be unique" and leaves the
    /// behaviour for duplicates to implementations.
    public enum DuplicateKeyPolicy: String, Sendable, Hashable, CaseIterable {
        /// The last value wins, at the position of the key's first occurrence (what `JSON.parse` in JavaScript and
        /// Python's `json` module do).
        case lastWins
        /// The document is rejected with `SerializationError.Code.invalidBody` at the repeated key.
        case reject
    }

    /// Whether a top-level value may be a scalar (`1`, `"text"`, `null`), as RFC 8259 §2 allows. Default `true`
    /// (`JSONSerialization`'s `.fragmentsAllowed`); when `false`, only an object or array is accepted, as RFC 4627
    /// required.
    public var allowsFragments: Bool
    /// The deepest nesting of arrays and objects accepted (RFC 8259 §9 lets parsers limit it). Default 512; a
    /// document nested deeper fails with `SerializationError.Code.limitExceeded`. The parser keeps its own stack,
    /// so any limit is safe, whatever the thread's stack size.
    public var maxDepth: Int
    /// What to do with duplicate object keys. Default ``DuplicateKeyPolicy/lastWins``.
    public var duplicateKeys: DuplicateKeyPolicy
    /// Whether members whose value is `null` are removed from every object, at any depth (objects inside arrays
    /// too); `null` elements of arrays are kept. AFNetworking's `removesKeysWithNullValues`. Default `false`.
    public var removesKeysWithNullValues: Bool
    /// The largest body parsed, in bytes; a larger one fails with `SerializationError.Code.bodyTooLarge` before
    /// any parsing. Default 64 MiB, the same as the chains' `BodySizeLimit`. Values above 4 GiB are treated as
    /// 4 GiB (the storage addresses bytes with 32 bits).
    public var maxBytes: Int
    /// The value of an empty response (204, `HEAD`, an empty or whitespace-only body), returned by
    /// ``JSONResponseSerializer/emptyValue(for:)`` when the chain's empty-body policy asks for one. Default `null`.
    /// The parser itself rejects an empty text: RFC 8259 §2 requires a value.
    public var emptyValue: JSONValue

    /// Creates options; every parameter has the default described on its property.
    public init(
        allowsFragments: Bool = true,
        maxDepth: Int = 512,
        duplicateKeys: DuplicateKeyPolicy = .lastWins,
        removesKeysWithNullValues: Bool = false,
        maxBytes: Int = 64 * 1024 * 1024,
        emptyValue: JSONValue = nil
    ) {
        self.allowsFragments = allowsFragments
        self.maxDepth = maxDepth
        self.duplicateKeys = duplicateKeys
        self.removesKeysWithNullValues = removesKeysWithNullValues
        self.maxBytes = maxBytes
        self.emptyValue = emptyValue
    }
}
