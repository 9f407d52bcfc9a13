public import DecantCore

/// Decodes an image body into an ``Image``: AFNetworking's `AFImageResponseSerializer`, in pure Swift.
///
/// The format is detected from the body's signature, never from the `Content-Type`, so a PNG served as
/// `image/jpeg` still decodes. PNG (W3C PNG Specification, Third Edition), JPEG (ITU-T T.81: baseline, extended
/// sequential and progressive Huffman-coded 8-bit), GIF (87a/89a, with every frame composited), BMP, ICO/CUR and TIFF
/// (6.0 and BigTIFF, every page) are decoded; JPEG's lossless, hierarchical, arithmetic-coded and 12-bit modes, and
/// TIFF's fax and other rare compressions, are recognised and reported as
/// `SerializationError.Code.unsupportedFeature`, never as a wrong image. Its id is `image`.
///
/// ```swift
/// let serializer = ImageResponseSerializer(options: ImageDecodingOptions(inflate: false))
/// let image = try serializer.serialize(response)
/// print(image.width, image.height, image.scale, image.format)
/// let pixels = try image.decoded().pixels
/// ```
///
/// The scale is 2 or 3 when the URL's file name ends in `@2x` or `@3x` (`icon@2x.png`), otherwise
/// ``ImageDecodingOptions/imageScale``. Limits (``ImageLimits``) are checked from the headers before pixel memory is
/// allocated; ``ImageLimits/maxTotalBytes`` is capped to what the response's `DecodingBudget` has left (the budget a
/// container such as multipart binds for its parts, or a default one of 768 MiB), and the image kept is charged to it.
public struct ImageResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `image` format.
    public static var format: MediaFormat { .image }

    /// How images are decoded.
    public var options: ImageDecodingOptions
    /// The media ranges accepted; the format's by default.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    ///
    /// - Parameters:
    ///   - options: Scale, inflate, alpha and limits; the defaults decode at once at scale 1 with straight alpha.
    ///   - mediaRanges: The media ranges accepted.
    public init(
        options: ImageDecodingOptions = ImageDecodingOptions(),
        mediaRanges: [MediaRange] = MediaFormat.image.mediaRanges
    ) {
        self.options = options
        self.mediaRanges = mediaRanges
    }

    /// Decodes the body.
    ///
    /// - Throws: `SerializationError` with code `invalidBody` (not an image, or a corrupt one, with the byte offset),
    ///   `truncatedBody`, `limitExceeded` (a limit of ``ImageDecodingOptions/limits``) or `unsupportedFeature` (a
    ///   format whose decoder is not written yet), carrying this serializer's id, the media type and the response.
    public func serialize(_ response: Response) throws(SerializationError) -> Image {
        try decode(response) { (options) throws(SerializationError) in
            try ImageDecoder.decode(response.body, options: options)
        }
    }

    /// Runs `decode` with the options for `response` (the URL's scale; ``ImageLimits/maxTotalBytes`` capped to the
    /// response's ``DecodingBudget``, the bound one or a new default one) and charges the budget for the image kept.
    private func decode(
        _ response: Response, _ decode: (ImageDecodingOptions) throws(SerializationError) -> Image
    ) throws(SerializationError) -> Image {
        var effective = options
        if let scale = ImageDecodingOptions.scale(fromURL: response.url) { effective.imageScale = scale }
        let budget = DecodingBudget.current ?? DecodingBudget()
        let cap = budget.capping(effective.limits.maxTotalBytes)
        effective.limits.maxTotalBytes = cap.limit
        do {
            var image = try decode(effective)
            image.scale = effective.imageScale
            try budget.charge(image.keptBytes, for: "the \(image.format) image of \(image.width)×\(image.height)")
            return image
        } catch {
            var error = error
            // The decoders name `maxTotalBytes` when they refuse memory: when the budget set that limit, say so.
            if cap.budgetBinds, error.code == .limitExceeded, error.message.contains("maxTotalBytes") {
                error = budget.refusal(for: "the image")
            }
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// Decodes the body as ``serialize(_:)`` does, writing the pixels of a JPEG into `storage`'s memory instead of
    /// freshly allocated memory, for callers that decode many images one after another.
    ///
    /// Fresh memory costs the system a page fault and a zeroed page per 4 KiB written: for a 2048×2048 image, a
    /// noticeable part of the decode. When `storage` is uniquely referenced and its capacity holds
    /// `width * height * 4` bytes, the image's ``Image/pixels`` use that memory; otherwise it grows once. Give the
    /// memory back after the image's last use, so that the next decode reuses it:
    ///
    /// ```swift
    /// var storage: [UInt8] = []
    /// for response in responses {
    ///     let image = try serializer.serialize(response, reusing: &storage)
    ///     show(image)
    ///     storage = (consume image).pixels
    /// }
    /// ```
    ///
    /// `storage` is empty after the call (its memory belongs to the image). Other formats, animation frames and
    /// images read without pixels (`inflate` off) leave `storage` as it was and allocate as ``serialize(_:)`` does.
    ///
    /// - Throws: As ``serialize(_:)``; `storage` keeps its memory when decoding fails.
    public func serialize(_ response: Response, reusing storage: inout [UInt8]) throws(SerializationError) -> Image {
        try decode(response) { (options) throws(SerializationError) in
            try ImageDecoder.decode(response.body, options: options, reusing: &storage)
        }
    }
}

extension MediaFormat {
    /// PNG, JPEG, GIF, BMP, ICO/CUR and TIFF images: id `image`; AFNetworking's ten image types plus `image/jpg`,
    /// `image/x-ms-bmp` and `image/vnd.microsoft.icon`.
    public static let image = MediaFormat(
        id: "image",
        mediaRanges: [
            "tiff", "jpeg", "gif", "png", "ico", "x-icon", "bmp", "x-bmp", "x-xbitmap", "x-win-bitmap", "jpg",
            "x-ms-bmp", "vnd.microsoft.icon",
        ].map { MediaRange(.exact(type: "image", subtype: $0)) },
        summary: "Decodes PNG, JPEG, GIF, BMP, ICO/CUR and TIFF bodies to RGBA8 pixels.")
}
