public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes CBOR bodies (RFC 8949) and CBOR sequences (RFC 8742): the `cbor` format's `BodyEncoder`.
///
/// It writes a ``CBORValue`` with ``CBORWriter`` and any `Encodable` value through ``CBOREncoder`` (with the key,
/// date and data strategies and `userInfo` of the `EncodingOptions` given), in preferred serialization, or in core
/// deterministic encoding when ``writingOptions`` asks for it or the options' `outputFormatting` contains
/// `.sortedKeys`. The `Content-Type` is the requested media type without parameters: `application/cbor` unless another
/// one the format claims (`application/cbor-seq`, a `+cbor` type) is asked for. A sequence type
/// (`application/cbor-seq`, `+cbor-seq`) is written from an array, one item per element, as
/// ``CBORResponseSerializer`` reads it back.
///
/// ```swift
/// var registry = SerializerRegistry()
/// registry.install(.cbor)
/// let body = try registry.encode(CBORValue.array([.unsignedInteger(1)]), as: "application/cbor")
/// body.body   // 81 01
/// ```
public struct CBORBodyEncoder: BodyEncoder, FormatComponent {
    /// The `cbor` format.
    public static var format: MediaFormat { .cbor }

    /// The media ranges written; the format's unless set.
    public var mediaRanges: [MediaRange]
    /// Preferred serialization (the default) or core deterministic encoding.
    public var writingOptions: CBORWritingOptions
    /// The deepest nesting of an `Encodable` value (``CBOREncoder/maxDepth``).
    public var maxDepth: Int

    /// Creates the encoder.
    public init(
        writingOptions: CBORWritingOptions = CBORWritingOptions(),
        maxDepth: Int = CBORParsingOptions.defaultMaxDepth,
        mediaRanges: [MediaRange] = MediaFormat.cbor.mediaRanges
    ) {
        self.writingOptions = writingOptions
        self.maxDepth = maxDepth
        self.mediaRanges = mediaRanges
    }

    /// Whether `value` is a ``CBORValue`` or `Encodable`.
    public func canEncode(_ value: any Sendable) -> Bool {
        value is CBORValue || value is any Encodable
    }

    /// Whether `value` is a ``CBORValue``, the format's own value type.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is CBORValue }

    /// Writes `value` as a body of `mediaType`.
    ///
    /// - Throws: `SerializationError` with code `unsupportedValue` for a value that is neither a ``CBORValue`` nor
    ///   `Encodable`; `encodingFailed` for a sequence type and a value that is not an array, and as
    ///   ``CBOREncoder/encodeValue(_:)`` and ``CBORWriter/write(_:)`` throw; `limitExceeded` past ``maxDepth``; with
    ///   the media type attached.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        let contentType = mediaType.withoutParameters
        var writing = writingOptions
        if options.outputFormatting?.contains(.sortedKeys) == true { writing.deterministic = true }
        var output: [UInt8] = []
        do throws(SerializationError) {
            let item: CBORValue
            if let cbor = value as? CBORValue {
                item = cbor
            } else if let encodable = value as? any Encodable {
                var encoder = CBOREncoder(options: options)
                encoder.maxDepth = maxDepth
                item = try encoder.encodeValue(encodable)
            } else {
                throw unsupportedValue(value, as: mediaType)
            }
            let writer = CBORWriter(options: writing)
            if CBORResponseSerializer.isSequence(mediaType) {
                guard case .array(let items) = item else {
                    throw SerializationError(
                        code: .encodingFailed,
                        message: "A CBOR sequence (\(contentType)) is written from an array of its items, but the "
                            + "value is \(item.kindName). Pass an array, or ask for application/cbor.")
                }
                for element in items { try writer.append(element, to: &output) }
            } else {
                try writer.append(item, to: &output)
            }
        } catch {
            throw error.filling(mediaType: contentType, serializerID: id)
        }
        return EncodedBody(body: Data(output), contentType: contentType, serializerID: id)
    }
}
