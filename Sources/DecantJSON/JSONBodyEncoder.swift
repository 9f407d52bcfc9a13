public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes JSON bodies (RFC 8259): the `json` format's `BodyEncoder`.
///
/// It writes a ``JSONValue`` as it is (numbers with their exact text, members in their order) and any `Encodable`
/// value through ``JSONValueEncoder``, with the `EncodingOptions` given: the key, date, data and non-conforming float
/// strategies, `userInfo`, and `outputFormatting` (`.prettyPrinted` and `.sortedKeys` apply to a `JSONValue` too).
/// The body is UTF-8; its `Content-Type` is the requested media type without parameters (`application/json` unless
/// another JSON type such as `application/vnd.api+json` is asked for): RFC 8259 §11 defines no `charset` parameter.
///
/// ```swift
/// var registry = SerializerRegistry()
/// registry.install(.json)
/// let body = try registry.encode(order, as: "application/json")
/// body.contentType   // application/json
/// ```
public struct JSONBodyEncoder: BodyEncoder, FormatComponent {
    /// The `json` format.
    public static var format: MediaFormat { .json }

    /// The deepest nesting written (``JSONValueEncoder/maxDepth``).
    public var maxDepth: Int

    /// Creates the encoder.
    public init(maxDepth: Int = JSONParsingOptions().maxDepth) {
        self.maxDepth = maxDepth
    }

    /// Whether `value` is a ``JSONValue`` or `Encodable`.
    public func canEncode(_ value: any Sendable) -> Bool {
        value is JSONValue || value is any Encodable
    }

    /// Whether `value` is a ``JSONValue``, JSON's own value type.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is JSONValue }

    /// Writes `value` as a JSON body of `mediaType`.
    ///
    /// - Throws: `SerializationError` with code `unsupportedValue` for a value that is neither a ``JSONValue`` nor
    ///   `Encodable`, and the errors of ``JSONValueEncoder/encode(_:)`` (`encodingFailed` with the coding path,
    ///   `limitExceeded`), with the media type attached.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        let contentType = mediaType.withoutParameters
        let bytes: Data
        if let json = value as? JSONValue {
            var writing: JSONWritingOptions = []
            let formatting = options.outputFormatting ?? []
            if formatting.contains(.prettyPrinted) { writing.insert(.prettyPrinted) }
            if formatting.contains(.sortedKeys) { writing.insert(.sortedKeys) }
            bytes = json.jsonData(options: writing)
        } else if let encodable = value as? any Encodable {
            var encoder = JSONValueEncoder(options: options)
            encoder.maxDepth = maxDepth
            do {
                bytes = try encoder.encode(encodable)
            } catch {
                throw error.filling(mediaType: contentType, serializerID: id)
            }
        } else {
            throw unsupportedValue(value, as: mediaType)
        }
        return EncodedBody(body: bytes, contentType: contentType, serializerID: id)
    }
}
