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

    /// `image`.
    public var id: SerializerID { "image" }

    /// What the serializer does.
    public var summary: String {
        "Decodes PNG, JPEG, GIF, BMP, ICO/CUR and TIFF bodies to RGBA8 pixels."
    }

    /// ``ImageResponseSerializer/defaultMediaRanges``.
    public var mediaRanges: [MediaRange] { ImageResponseSerializer.defaultMediaRanges }

    /// `imageScale`, `inflate`, `maxPixels`, `maxFrames`, `premultipliedAlpha`, `maxTotalBytes`, `maxPixelsPerByte`,
    /// `icoPreferredSize`, `appliesOrientation` and `allowsPartialImages`.
    public var optionSchema: [SerializerOption] {
        [
            SerializerOption(
                "imageScale", .number(1...16), default: .number(1),
                summary: "The scale of images whose URL file name has no @2x or @3x suffix."),
            SerializerOption(
                "inflate", .bool, default: true,
                summary: "Whether pixels are decoded at once, or only size, format and frame count are read."),
            SerializerOption(
                "maxPixels", .integer(1...Int.max), default: .integer(100_000_000),
                summary: "The largest width times height accepted, checked before allocating."),
            SerializerOption(
                "maxFrames", .integer(1...Int.max), default: .integer(1000),
                summary: "The most animation frames accepted."),
            SerializerOption(
                "premultipliedAlpha", .bool, default: false,
                summary: "Whether colour samples are premultiplied by alpha."),
            SerializerOption(
                "maxTotalBytes", .integer(1...Int.max), default: .integer(1 << 31),
                summary: "The most bytes of decoded output over all frames."),
            SerializerOption(
                "maxPixelsPerByte", .integer(1...Int.max), default: .integer(ImageLimits.defaultMaxPixelsPerByte),
                summary: "The most pixels decoded per byte of body, every frame counted (at least 16,777,216)."),
            SerializerOption(
                "icoPreferredSize", .integer(0...65_536), default: .integer(0),
                summary: "For ICO/CUR, the size in pixels of the entry to decode (the closest); 0 for the largest."),
            SerializerOption(
                "appliesOrientation", .bool, default: false,
                summary:
                    "Whether pixels are rotated and mirrored as the EXIF orientation says (as a viewer shows them)."),
            SerializerOption(
                "allowsPartialImages", .bool, default: false,
                summary: "Whether a cut-short or damaged JPEG gives the image decoded so far, flagged isPartial."),
        ]
    }

    /// Builds an ``ImageResponseSerializer``.
    public func makeSerializer(options: ImageDecodingOptions) -> ImageResponseSerializer {
        ImageResponseSerializer(options: options)
    }

    /// Converts configuration options (already checked against ``optionSchema``); absent ones keep
    /// ``defaultOptions``.
    public func options(from configuration: ConfigurationOptions) throws(SerializationError) -> ImageDecodingOptions {
        var options = defaultOptions
        switch configuration["imageScale"] {
        case .number(let scale)?: options.imageScale = scale
        case .integer(let scale)?: options.imageScale = Double(scale)
        default: break
        }
        if case .bool(let inflate)? = configuration["inflate"] { options.inflate = inflate }
        if case .bool(let premultiplied)? = configuration["premultipliedAlpha"] {
            options.premultipliedAlpha = premultiplied
        }
        if let value = Self.integer(configuration["maxPixels"]) { options.limits.maxPixels = value }
        if let value = Self.integer(configuration["maxFrames"]) { options.limits.maxFrames = value }
        if let value = Self.integer(configuration["maxTotalBytes"]) { options.limits.maxTotalBytes = value }
        if let value = Self.integer(configuration["maxPixelsPerByte"]) { options.limits.maxPixelsPerByte = value }
        if case .bool(let applies)? = configuration["appliesOrientation"] { options.appliesOrientation = applies }
        if case .bool(let allows)? = configuration["allowsPartialImages"] { options.allowsPartialImages = allows }
        if let value = Self.integer(configuration["icoPreferredSize"]) {
            options.icoPreferredSize = value > 0 ? value : nil
        }
        return options
    }

    static func integer(_ value: ConfigurationValue?) -> Int? {
        switch value {
        case .integer(let number)?: return number
        case .number(let number)?: return Int(number)
        default: return nil
        }
    }
}
