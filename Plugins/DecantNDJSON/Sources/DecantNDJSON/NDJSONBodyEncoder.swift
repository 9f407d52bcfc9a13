public import DecantCore
public import DecantJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The writing capability of the `ndjson` format: records to newline-delimited JSON or JSON text sequence bodies, so
/// that `SerializerRegistry.encode(_:as:options:)` and content negotiation write them.
///
/// It writes ``JSONRecords``, an array of ``JSONValue`` (`[JSONValue]`), and an array of `Encodable` values (`[Event]`),
/// each element one record, through ``NDJSONRecordWriter``. The framing is the one the media type implies: a JSON
/// text sequence for `application/json-seq` and `+json-seq` types, lines otherwise. Anything else, a single
/// ``JSONValue`` or `Encodable` value included, is not a list of records, so it is left to JSON. `Encodable` records
/// are encoded with the call's `EncodingOptions` (keys, dates, data, non-finite numbers, `.sortedKeys`; never
/// `.prettyPrinted`, which would break records over lines). The `Content-Type` written is the requested media type
/// without parameters: like JSON, these types define no `charset` (the text is UTF-8).
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.ndjson)
/// let body = try registry.encode(JSONRecords(records: [["id": 1], ["id": 2]]), as: "application/x-ndjson")
/// String(decoding: body.body, as: UTF8.self)   // {"id":1}\n{"id":2}\n
/// ```
public struct NDJSONBodyEncoder: BodyEncoder, FormatComponent {
    /// The `ndjson` format.
    public static var format: MediaFormat { .ndjson }

    /// The deepest nesting of an `Encodable` record (``JSONValueEncoder/maxDepth``).
    public var maxDepth: Int

    /// Creates the encoder.
    public init(maxDepth: Int = JSONParsingOptions().maxDepth) {
        self.maxDepth = maxDepth
    }

    /// Whether `value` is ``JSONRecords``, `[JSONValue]` or an array of `Encodable` values.
    public func canEncode(_ value: any Sendable) -> Bool {
        value is JSONRecords || value is [JSONValue] || value is [any Encodable]
    }

    /// Whether `value` is ``JSONRecords``, the format's own value type (an array is JSON's as much as it is a list
    /// of records, so ties go to the format installed first).
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is JSONRecords }

    /// Writes `value`'s records as a body of `mediaType`, framed as `mediaType` implies.
    ///
    /// - Throws: `SerializationError`: `unsupportedValue` for a value ``canEncode(_:)`` refuses; the errors of
    ///   ``NDJSONRecordWriter/write(encodable:)`` for an `Encodable` record, with the record's index first in the
    ///   coding path (and named in the message) and the media type and serializer id filled in.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        let contentType = mediaType.withoutParameters
        let writer = NDJSONRecordWriter(for: contentType, options: options, maxDepth: maxDepth)
        let body: Data
        if let records = value as? JSONRecords {
            body = writer.write(records: records.records)
        } else if let records = value as? [JSONValue] {
            body = writer.write(records: records)
        } else if let records = value as? [any Encodable] {
            var output = Data()
            for (index, record) in records.enumerated() {
                do {
                    try writer.append(encodable: record, to: &output)
                } catch {
                    var error = error
                    error.codingPath.insert(String(index), at: 0)
                    error.message = "Record \(index) cannot be written: " + error.message
                    error.serializerID = nil  // this format's, not the JSON encoder's
                    throw error.filling(mediaType: contentType, serializerID: id)
                }
            }
            body = output
        } else {
            throw unsupportedValue(value, as: mediaType)
        }
        return EncodedBody(body: body, contentType: contentType, serializerID: id)
    }
}

extension NDJSONSerializerFactory {
    /// The format's encoder, ``NDJSONBodyEncoder``, with the option `maxDepth`.
    public func makeEncoder(options: Options) -> (any BodyEncoder)? {
        NDJSONBodyEncoder(maxDepth: options.maxDepth)
    }
}
