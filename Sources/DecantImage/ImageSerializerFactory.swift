public import DecantCore

/// The factory of ``ImageResponseSerializer``: id `image`, AFNetworking's image media types.
///
/// Configuration options (all optional):
///
/// - `imageScale`: a number from 1 to 16 (default 1): the scale of images whose URL has no `@2x`/`@3x` suffix.
/// - `inflate`: a boolean (default `true`): decode pixels at once, or only read size, format and frame count.
/// - `maxPixels`: an integer (default 100,000,000): the largest `width * height` accepted.
/// - `maxFrames`: an integer (default 1,000): the most animation frames accepted.
/// - `premultipliedAlpha`: a boolean (default `false`): premultiply colour samples by alpha.
/// - `maxTotalBytes`: an integer (default 2 GiB): the most bytes of decoded output.
/// - `maxPixelsPerByte`: an integer (default 1,024): the most pixels decoded per byte of body, every frame counted
///   (at least 16,777,216 pixels whatever the body size); see ``ImageLimits/maxPixelsPerByte``.
/// - `maxScanWorkPerByte`: an integer (default 4,096): the most work a JPEG's scans take per byte of body, summed over
///   its scans (at least 67,108,864 units); see ``ImageLimits/maxScanWorkPerByte``.
/// - `icoPreferredSize`: an integer from 0 to 65,536 (default 0): for ICO/CUR, decode the entry whose larger side is
///   closest to this many pixels; 0 decodes the largest entry. `Image.chosenEntry` tells which was decoded.
/// - `appliesOrientation`: a boolean (default `false`): rotate and mirror the pixels as the EXIF orientation says,
///   as `Image.oriented()` does.
/// - `allowsPartialImages`: a boolean (default `false`): a cut-short or damaged JPEG gives what was decoded, flagged
///   `Image.isPartial`, instead of an error.
///
/// ```json
/// { "serializer": "image", "options": { "inflate": false, "maxPixels": 25000000 } }
/// ```
public struct ImageSerializerFactory: SerializerFactory {
    /// The options used when a configuration gives none.
    public let defaultOptions: ImageDecodingOptions

    /// Creates the factory.
    public init(defaultOptions: ImageDecodingOptions = ImageDecodingOptions()) {
        self.defaultOptions = defaultOptions
    }

    /// `imageScale`, `inflate`, `maxPixels`, `maxFrames`, `premultipliedAlpha`, `maxTotalBytes`, `maxPixelsPerByte`,
    /// `maxScanWorkPerByte`, `icoPreferredSize`, `appliesOrientation` and `allowsPartialImages`, each said
    /// once: the schema and the reading of configuration options are derived from them.
    public var optionKeys: [OptionKey<ImageDecodingOptions>] {
        [
            .number(
                "imageScale", \.imageScale, in: 1...16,
                summary: "The scale of images whose URL file name has no @2x or @3x suffix."),
            .bool(
                "inflate", \.inflate,
                summary: "Whether pixels are decoded at once, or only size, format and frame count are read."),
            .integer(
                "maxPixels", \.limits.maxPixels, in: 1...Int.max,
                summary: "The largest width times height accepted, checked before allocating."),
            .integer("maxFrames", \.limits.maxFrames, in: 1...Int.max, summary: "The most animation frames accepted."),
            .bool(
                "premultipliedAlpha", \.premultipliedAlpha,
                summary: "Whether colour samples are premultiplied by alpha."),
            .integer(
                "maxTotalBytes", \.limits.maxTotalBytes, in: 1...Int.max,
                summary: "The most bytes of decoded output over all frames."),
            .integer(
                "maxPixelsPerByte", \.limits.maxPixelsPerByte, in: 1...Int.max,
                summary: "The most pixels decoded per byte of body, every frame counted (at least 16,777,216)."),
            .integer(
                "maxScanWorkPerByte", \.limits.maxScanWorkPerByte, in: 1...Int.max,
                summary: "The most work a JPEG's scans take per byte of body: each block a scan visits costs 10 plus "
                    + "its band's coefficients (at least 67,108,864 in all)."),
            OptionKey(
                "icoPreferredSize", .integer(0...65_536),
                summary: "For ICO/CUR, the size in pixels of the entry to decode (the closest); 0 for the largest.",
                defaultValue: { .integer($0.icoPreferredSize ?? 0) },
                apply: { value, options, _ in
                    let size: Int? =
                        switch value {
                        case .integer(let number): number
                        case .number(let number): Int(exactly: number)
                        default: nil
                        }
                    if let size { options.icoPreferredSize = size > 0 ? size : nil }
                }),
            .bool(
                "appliesOrientation", \.appliesOrientation,
                summary:
                    "Whether pixels are rotated and mirrored as the EXIF orientation says (as a viewer shows them)."),
            .bool(
                "allowsPartialImages", \.allowsPartialImages,
                summary: "Whether a cut-short or damaged JPEG gives the image decoded so far, flagged isPartial."),
        ]
    }

    /// Builds an ``ImageResponseSerializer``.
    public func makeSerializer(options: ImageDecodingOptions) -> ImageResponseSerializer {
        ImageResponseSerializer(options: options)
    }
}
