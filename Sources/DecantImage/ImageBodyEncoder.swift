public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Writes image bodies: the `image` format's `BodyEncoder`. It writes an ``Image`` (its ``Image/pixels``: an
/// animation's first frame, a TIFF's first page, an ICO's chosen entry) as `image/png` with ``PNGWriter``.
///
/// The format reads thirteen image types but writes only PNG: lossless, and what every reader opens. Asked for any
/// other type (`registry.encode(image, as: "image/jpeg")`), it throws `unsupportedFeature` with a message that says
/// so. An image read with the `inflate` option off has no pixels and cannot be written (`encodingFailed`): decode it
/// with ``Image/decoded()`` first. The `EncodingOptions` do not apply (PNG has no keys, dates or numbers).
///
/// ```swift
/// let body = try SerializerRegistry.standard.encode(image, as: "image/png")
/// body.contentType   // image/png
/// ```
public struct ImageBodyEncoder: BodyEncoder, FormatComponent {
    /// The `image` format.
    public static var format: MediaFormat { .image }

    /// The one media type written.
    public static let writtenType = MediaType(type: "image", subtype: "png")

    /// The writer of the PNG files.
    public var writer: PNGWriter

    /// Creates the encoder.
    public init(writer: PNGWriter = PNGWriter()) {
        self.writer = writer
    }

    /// `image/png`, the one type written (the format's other media ranges are read only).
    public var mediaRanges: [MediaRange] { [MediaRange(Self.writtenType)] }

    /// `image/png`.
    public var defaultMediaType: MediaType? { Self.writtenType }

    /// Whether `value` is an ``Image``.
    public func canEncode(_ value: any Sendable) -> Bool { value is Image }

    /// Whether `value` is an ``Image``, the format's own value type.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is Image }

    /// Writes `value` as a PNG body.
    ///
    /// - Throws: `SerializationError` with code `unsupportedFeature` when `mediaType` is not `image/png`,
    ///   `unsupportedValue` for a value that is not an ``Image``, and the errors of ``PNGWriter/write(_:frame:)``
    ///   (`encodingFailed` for an image whose pixels were not decoded), with the media type attached.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        guard mediaType.essence == Self.writtenType.essence else {
            throw SerializationError(
                code: .unsupportedFeature,
                message: "The format '\(id)' reads \(mediaType.essence) but writes only \(Self.writtenType): write "
                    + "the image as \(Self.writtenType), or install a format that writes \(mediaType.essence).",
                mediaType: mediaType, serializerID: id)
        }
        guard let image = value as? Image else { throw unsupportedValue(value, as: mediaType) }
        do throws(SerializationError) {
            return EncodedBody(body: try writer.write(image), contentType: Self.writtenType, serializerID: id)
        } catch {
            throw error.filling(mediaType: Self.writtenType, serializerID: id)
        }
    }
}

extension ImageSerializerFactory {
    /// The format's encoder, ``ImageBodyEncoder``: PNG with ``PNGWriter``'s default options.
    public func makeEncoder(options: ImageDecodingOptions) -> (any BodyEncoder)? {
        ImageBodyEncoder()
    }
}
