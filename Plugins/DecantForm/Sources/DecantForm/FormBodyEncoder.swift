public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The writing capability of the `form` format: ``FormData`` and flat `Encodable` values to
/// `application/x-www-form-urlencoded` bodies, so that `SerializerRegistry.encode(_:as:options:)` and content
/// negotiation write forms.
///
/// ``FormData`` is written by ``FormWriter``; an `Encodable` value by ``FormEncoder`` with ``options`` and the
/// call's `EncodingOptions` (keys, dates, data, non-finite numbers, `.sortedKeys`). A dictionary such as
/// `[String: String]` is an `Encodable` value like any other: its fields are sorted by name. The `Content-Type`
/// written is the requested media type without parameters, `application/x-www-form-urlencoded`: the format is UTF-8
/// only (WHATWG URL Standard), so it has no `charset` parameter, and a requested one is not echoed.
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.form)
/// let body = try registry.encode(FormData([("grant_type", "client_credentials")]), as: "application/x-www-form-urlencoded")
/// body.contentType   // application/x-www-form-urlencoded
/// ```
public struct FormBodyEncoder: BodyEncoder, FormatComponent {
    /// The `form` format.
    public static var format: MediaFormat { .form }

    /// The form's own strategies (arrays and Booleans) for `Encodable` values.
    public var options: FormEncodingOptions

    /// Creates the encoder.
    public init(options: FormEncodingOptions = FormEncodingOptions()) {
        self.options = options
    }

    /// Whether `value` is ``FormData`` or an `Encodable` value that may be a set of fields: not a string, number,
    /// Boolean, date, data, URL, decimal, UUID, array or set, which are never a form. Whether a struct is flat is
    /// found only when it is encoded.
    public func canEncode(_ value: any Sendable) -> Bool {
        value is FormData || (value is any Encodable && !FormEncoder.isNeverAForm(value))
    }

    /// Whether `value` is ``FormData``, the format's own value type.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is FormData }

    /// Writes `value` as an `application/x-www-form-urlencoded` body.
    ///
    /// - Throws: `SerializationError`: `unsupportedValue` for a value that is neither
    ///   ``FormData`` nor `Encodable`; otherwise as ``FormEncoder/encodeFields(_:)`` throws, with the media type and
    ///   the serializer id filled in.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        let body: Data
        if let form = value as? FormData {
            body = FormWriter().write(form)
        } else if let encodable = value as? any Encodable {
            let encoder = FormEncoder(options: self.options, encodingOptions: options)
            do {
                body = try encoder.encode(encodable)
            } catch {
                throw error.filling(mediaType: mediaType, serializerID: id)
            }
        } else {
            throw unsupportedValue(value, as: mediaType)
        }
        return EncodedBody(body: body, contentType: mediaType.withoutParameters, serializerID: id)
    }
}

extension FormSerializerFactory {
    /// The format's encoder, ``FormBodyEncoder``, with the array and Boolean strategies of `options`.
    public func makeEncoder(options: Options) -> (any BodyEncoder)? {
        FormBodyEncoder(options: options.encoding)
    }
}
