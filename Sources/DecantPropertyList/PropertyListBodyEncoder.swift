public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes property list bodies: the `propertyList` format's `BodyEncoder`. It writes a ``PropertyListValue`` with
/// ``PropertyListWriter`` and any `Encodable` value through ``PropertyListValueEncoder``.
///
/// Which format a media type means:
/// - `application/x-bplist` is always a binary property list: the type names it.
/// - `application/x-plist` (the default type) and `application/plist` name no format (readers, Decant's included,
///   detect it from the bytes), so ``outputFormat`` decides: by default ``PropertyListWritingOptions/Format/auto``,
///   an XML property list, or a binary one when the value holds a UID, which XML cannot carry. Set it to `.binary`
///   for the smaller, faster binary form (from a configuration, the factory's `outputFormat` option).
///
/// OpenStep property lists are read but never written. The `Content-Type` written is the requested media type without
/// parameters (property lists declare their own encoding). Of the `EncodingOptions`, the key strategy, `userInfo` and
/// `.sortedKeys` apply (`.sortedKeys` to a ``PropertyListValue`` too); dates, data and non-finite reals are property
/// list values of their own, so the other strategies do not.
///
/// ```swift
/// let body = try SerializerRegistry.standard.encode(settings, as: "application/x-bplist")
/// body.body.prefix(8)   // bplist00
/// ```
public struct PropertyListBodyEncoder: BodyEncoder, FormatComponent {
    /// The `propertyList` format.
    public static var format: MediaFormat { .propertyList }

    /// The format of `application/x-plist` and `application/plist` bodies (`application/x-bplist` is always binary).
    public var outputFormat: PropertyListWritingOptions.Format
    /// The deepest nesting written (``PropertyListWritingOptions/maxDepth``, ``PropertyListValueEncoder/maxDepth``).
    public var maxDepth: Int

    /// Creates the encoder.
    public init(
        outputFormat: PropertyListWritingOptions.Format = .auto,
        maxDepth: Int = PropertyListParsingOptions.defaultMaxDepth
    ) {
        self.outputFormat = outputFormat
        self.maxDepth = maxDepth
    }

    /// Whether `value` is a ``PropertyListValue`` or `Encodable`.
    public func canEncode(_ value: any Sendable) -> Bool {
        value is PropertyListValue || value is any Encodable
    }

    /// Whether `value` is a ``PropertyListValue``, the format's own value type.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is PropertyListValue }

    /// The format a body of `mediaType` is written in.
    public func writingFormat(for mediaType: MediaType) -> PropertyListWritingOptions.Format {
        mediaType.essence == "application/x-bplist" ? .binary : outputFormat
    }

    /// Writes `value` as a property list body of `mediaType`.
    ///
    /// - Throws: `SerializationError` with code `unsupportedValue` for a value that is neither a
    ///   ``PropertyListValue`` nor `Encodable`, and the errors of ``PropertyListWriter/write(_:)`` and
    ///   ``PropertyListValueEncoder/encode(_:)`` (`encodingFailed` with the coding path, `limitExceeded`), with the
    ///   media type attached.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        let contentType = mediaType.withoutParameters
        let sortedKeys = options.outputFormatting?.contains(.sortedKeys) ?? false
        let writing = PropertyListWritingOptions(
            format: writingFormat(for: mediaType), sortedKeys: sortedKeys, maxDepth: maxDepth)
        let bytes: Data
        do throws(SerializationError) {
            if let plist = value as? PropertyListValue {
                bytes = try PropertyListWriter(options: writing).write(plist)
            } else if let encodable = value as? any Encodable {
                var encoder = PropertyListValueEncoder(options: options)
                encoder.outputFormat = writing.format
                encoder.maxDepth = maxDepth
                bytes = try encoder.encode(encodable)
            } else {
                throw unsupportedValue(value, as: mediaType)
            }
        } catch {
            throw error.filling(mediaType: contentType, serializerID: id)
        }
        return EncodedBody(body: bytes, contentType: contentType, serializerID: id)
    }
}

extension PropertyListSerializerFactory {
    /// The format's encoder, ``PropertyListBodyEncoder``, writing `options.outputFormat` and nesting up to the
    /// parsing limit `options.parsing.maxDepth`, so that what it writes the format's serializer reads back.
    public func makeEncoder(options: Options) -> (any BodyEncoder)? {
        PropertyListBodyEncoder(outputFormat: options.outputFormat, maxDepth: options.parsing.maxDepth)
    }
}
