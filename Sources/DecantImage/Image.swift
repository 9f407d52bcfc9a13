public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A decoded image: its size, scale and source format, its RGBA8 pixels, animation frames and source metadata.
///
/// Pixels are 8-bit red, green, blue, alpha, row-major from the top-left corner, `width * 4` bytes per row, with
/// straight (unassociated) alpha unless ``isPremultiplied``. `[UInt8]` is copy-on-write, so passing an `Image`
/// around never copies its pixels.
///
/// When the serializer's `inflate` option is off, the image carries its size, format and frame count but no pixels
/// (``isDecoded`` is `false`); ``decoded()`` decodes them on demand, as AFNetworking's non-inflated images did.
public struct Image: Sendable {
    /// The file formats Decant recognises by signature (their decoders may not all be written yet).
    public enum Format: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// PNG (ISO/IEC 15948, W3C PNG Third Edition).
        case png
        /// JPEG (ITU-T T.81 / JFIF).
        case jpeg
        /// GIF 87a/89a.
        case gif
        /// Windows and OS/2 bitmaps.
        case bmp
        /// Windows icons.
        case ico
        /// Windows cursors (the ICO format with hot spots).
        case cur
        /// TIFF 6.0 and BigTIFF.
        case tiff

        /// The format's name.
        public var description: String { rawValue.uppercased() }

        /// The format named by the signature at the start of `bytes`, or `nil` when none matches.
        ///
        /// PNG (§5.2 signature), GIF (`GIF87a`/`GIF89a`), JPEG (`FF D8 FF`), BMP (`BM`), ICO and CUR (reserved 0,
        /// type 1 or 2), TIFF (`II*\0` and `MM\0*`) and BigTIFF (`II+\0` and `MM\0+`).
        public static func detect(_ bytes: some Collection<UInt8>) -> Format? {
            let head = Array(bytes.prefix(8))
            func starts(_ prefix: [UInt8]) -> Bool {
                head.count >= prefix.count && Array(head[..<prefix.count]) == prefix
            }
            if starts([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
            if starts(Array("GIF87a".utf8)) || starts(Array("GIF89a".utf8)) { return .gif }
            if starts([0xFF, 0xD8, 0xFF]) { return .jpeg }
            if starts([0x42, 0x4D]) { return .bmp }
            if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return .tiff }
            if starts([0x49, 0x49, 0x2B, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2B]) { return .tiff }
            if starts([0, 0, 1, 0]) && head.count >= 6 { return .ico }
            if starts([0, 0, 2, 0]) && head.count >= 6 { return .cur }
            return nil
        }
    }

    /// The colour model of the source data.
    public enum ColorType: String, Sendable, Hashable {
        /// Grey levels (PNG colour type 0).
        case grayscale
        /// Grey levels with alpha (PNG colour type 4).
        case grayscaleAlpha
        /// Red, green, blue (PNG colour type 2).
        case rgb
        /// Red, green, blue, alpha (PNG colour type 6).
        case rgba
        /// Palette indices (PNG colour type 3, GIF, low-depth BMP).
        case indexed
    }

    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// Pixels per point: 1 by default, 2 or 3 from the serializer's `imageScale` or an `@2x`/`@3x` file name.
    public var scale: Double
    /// The format detected from the body's signature.
    public var format: Format
    /// RGBA8 pixels, `width * height * 4` bytes; empty until decoded (see ``isDecoded``).
    public var pixels: [UInt8]
    /// Whether ``pixels`` hold premultiplied (associated) alpha.
    public var isPremultiplied: Bool
    /// For 16-bit sources, the full-precision RGBA16 samples (`width * height * 4` values, straight alpha).
    public var samples16: [UInt16]?
    /// The number of frames in the file (1 for a still image), known even when pixels are not decoded.
    public var frameCount: Int
    /// The animation frames, each with its full-size canvas, for animated formats (GIF, APNG), or the pages of a
    /// multi-page TIFF; empty for still images.
    ///
    /// A TIFF page is not drawn on a canvas: each frame holds its page at the page's own size (``Frame/width`` by
    /// ``Frame/height``, at (0, 0), `width * height * 4` bytes of ``Frame/pixels``), with a delay of 0 and disposal
    /// ``Frame/Disposal/none``; the first frame is the image itself.
    ///
    /// A decoded APNG's frames are composited while decoding and each holds its canvas (``ImageLimits`` count them).
    /// A decoded GIF keeps its frames as stored: the palette indices of each frame's rectangle (one byte per pixel of
    /// the rectangle) and its colour table, in one immutable storage shared by all its frames and their copies. A
    /// frame's full canvas is composited only when its ``Frame/pixels`` are read, so decoding costs about what
    /// decoding the LZW data costs, and the frames take one byte per pixel of their rectangles instead of a
    /// four-byte-per-pixel canvas each.
    ///
    /// Compositing a frame starts from the nearest earlier canvas a cache holds. The cache, shared by the frames of
    /// one decoding, keeps the canvas last read and up to eight checkpoints (the canvases at every eighth of the
    /// animation, once reading has passed them): at most nine canvases however long the animation is, each with the
    /// canvas from before its frame when that frame's disposal is ``Frame/Disposal/previous``. Reading the frames in
    /// order (`for frame in image.frames`) costs one drawing step per frame, each step drawing that frame's
    /// rectangle; reading a frame out of order costs at most the steps back to the previous checkpoint once the
    /// frames have been read through, and at worst the steps from the first frame before. A frame that covers the
    /// whole canvas without transparency needs no earlier canvas.
    ///
    /// Frames may be read from any thread or task: readers of one animation take turns at its cache (a lock held
    /// while compositing), and every reader gets the same bytes in whatever order it reads. ``ImageLimits`` bound
    /// what decoding keeps (``pixels``, the indices and colour tables); the canvases composited on access are not
    /// counted.
    public var frames: [Frame]
    /// Every image an icon file holds, and ``chosenEntry``, the index of the one decoded.
    public var entries: [Entry]
    /// The index in ``entries`` of the entry decoded into this image, for icon files.
    public var chosenEntry: Int?
    /// What the file says about itself.
    public var metadata: Metadata
    /// Whether the pixels were decoded; `false` when the `inflate` option was off.
    public var isDecoded: Bool
    /// Whether the body was cut short or damaged and the pixels hold only what could be decoded: set only when
    /// ``ImageDecodingOptions/allowsPartialImages`` is on (otherwise such a body is an error). A partial JPEG shows
    /// the rows (or, for a progressive image, the scans) that arrived, the rest grey, and a damaged restart interval
    /// is skipped to the next restart marker.
    public var isPartial: Bool = false

    /// The undecoded body and options, kept to decode on demand.
    let pendingSource: Data?
    let pendingOptions: ImageDecodingOptions?

    /// Creates an image from RGBA8 pixels.
    ///
    /// - Precondition: `pixels.count == width * height * 4`.
    public init(
        width: Int, height: Int, pixels: [UInt8], format: Format, scale: Double = 1,
        isPremultiplied: Bool = false, metadata: Metadata = Metadata()
    ) {
        precondition(pixels.count == width * height * 4, "RGBA8 pixels must hold width * height * 4 bytes")
        self.width = width
        self.height = height
        self.pixels = pixels
        self.format = format
        self.scale = scale
        self.isPremultiplied = isPremultiplied
        self.samples16 = nil
        self.frameCount = 1
        self.frames = []
        self.entries = []
        self.chosenEntry = nil
        self.metadata = metadata
        self.isDecoded = true
        self.pendingSource = nil
        self.pendingOptions = nil
    }

    init(
        undecoded width: Int, height: Int, format: Format, metadata: Metadata, source: Data,
        options: ImageDecodingOptions
    ) {
        self.width = width
        self.height = height
        self.pixels = []
        self.format = format
        self.scale = options.imageScale
        self.isPremultiplied = false
        self.samples16 = nil
        self.frameCount = 1
        self.frames = []
        self.entries = []
        self.chosenEntry = nil
        self.metadata = metadata
        self.isDecoded = false
        self.pendingSource = source
        self.pendingOptions = options
    }

    /// The size in points: the pixel size divided by ``scale``.
    public var pointSize: (width: Double, height: Double) {
        (Double(width) / scale, Double(height) / scale)
    }

    /// The RGBA8 bytes of the pixel at (`x`, `y`), counted from the top-left corner.
    ///
    /// - Precondition: the image ``isDecoded`` and the coordinates are inside it.
    public subscript(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        let index = (y * width + x) * 4
        return (pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3])
    }

    /// This image with its pixels decoded: itself when already decoded, else the result of decoding the kept body
    /// with the same options and `inflate` on.
    ///
    /// - Throws: `SerializationError` as the serializer would have thrown with `inflate` on.
    public func decoded() throws(SerializationError) -> Image {
        guard !isDecoded, let pendingSource, var options = pendingOptions else { return self }
        options.inflate = true
        var image = try ImageDecoder.decode(pendingSource, options: options)
        image.scale = scale
        return image
    }

    /// The bytes this image keeps, as charged to a `DecodingBudget`: its RGBA8 pixels, an APNG's canvas per frame and
    /// a GIF's palette indices per frame.
    var keptBytes: Int {
        frames.reduce(pixels.count) { total, frame in
            let (bytes, overflow) =
                format == .gif
                ? frame.width.multipliedReportingOverflow(by: frame.height)
                : width.multipliedReportingOverflow(by: height * 4)
            let (sum, overflow2) = total.addingReportingOverflow(bytes)
            return overflow || overflow2 ? Int.max : sum
        }
    }

    /// One frame of an animation: its timing, its disposal, its rectangle, and the full-size canvas after drawing it.
    ///
    /// A frame decoded from a GIF composites its canvas when ``pixels`` is read (see ``Image/frames``); an APNG
    /// frame, a frame made with ``init(pixels:delay:disposal:x:y:width:height:)``, or one whose ``pixels`` were set
    /// holds its pixels.
    public struct Frame: Sendable {
        /// How the frame's area is treated before the next frame is drawn (GIF89a §23, disposal method).
        public enum Disposal: String, Sendable, Hashable {
            /// No disposal specified: the frame is left in place.
            case unspecified
            /// The frame is left in place.
            case none
            /// The frame's area is cleared to the background (transparent).
            case background
            /// The canvas is restored to what it was before the frame was drawn.
            case previous
        }

        /// The full canvas after drawing this frame, RGBA8 like ``Image/pixels``.
        ///
        /// For a frame decoded from a GIF, reading this composites the canvas from the animation's cache: one drawing
        /// step right after reading the previous frame, more out of order (see ``Image/frames``). Keep the array
        /// rather than reading the property again. Safe to read from several threads at once, with the same bytes
        /// whatever the order of reading. The array shares its storage with the cache copy-on-write, so changing it
        /// changes nothing else. Setting this property, or changing the array in place, stores the pixels in this
        /// frame, which then no longer refers to the animation.
        public var pixels: [UInt8] {
            get {
                if let source { return source.animation.canvas(at: source.index) }
                return storedPixels
            }
            set {
                storedPixels = newValue
                source = nil
            }
            // In-place changes (`frame.pixels[i] = v`) would copy the canvas on every change through get and set.
            _modify {
                if let source {
                    storedPixels = source.animation.canvas(at: source.index)
                    self.source = nil
                }
                yield &storedPixels
            }
        }
        /// How long the frame is shown, in seconds.
        public var delay: Double
        /// The frame's disposal method.
        public var disposal: Disposal
        /// The rectangle the frame's own data covers, in canvas pixels.
        public var x: Int, y: Int, width: Int, height: Int

        /// The pixels of a frame made with them or given them; empty while ``source`` is set.
        private var storedPixels: [UInt8]
        /// The animation and index that composite this frame's canvas, for a decoded frame whose pixels were not set.
        private var source: (animation: GIFAnimation, index: Int)?

        /// Creates a frame that holds its pixels.
        ///
        /// - Parameters:
        ///   - pixels: The full canvas after drawing the frame, RGBA8 like ``Image/pixels``.
        ///   - delay: How long the frame is shown, in seconds.
        ///   - disposal: How the frame's area is treated before the next frame is drawn.
        ///   - x: The left edge of the frame's own rectangle, in canvas pixels.
        ///   - y: The top edge of the frame's own rectangle, in canvas pixels.
        ///   - width: The width of the frame's own rectangle.
        ///   - height: The height of the frame's own rectangle.
        public init(
            pixels: [UInt8], delay: Double, disposal: Disposal, x: Int = 0, y: Int = 0, width: Int, height: Int
        ) {
            self.storedPixels = pixels
            self.source = nil
            self.delay = delay
            self.disposal = disposal
            self.x = x
            self.y = y
            self.width = width
            self.height = height
        }

        /// Creates frame `index` of a decoded GIF, whose canvas `animation` composites on demand.
        init(animation: GIFAnimation, index: Int) {
            let frame = animation.frames[index]
            self.storedPixels = []
            self.source = (animation, index)
            self.delay = frame.delay
            self.disposal = frame.disposal
            self.x = frame.x
            self.y = frame.y
            self.width = frame.width
            self.height = frame.height
        }
    }

    /// One image of an icon or cursor file, as its directory describes it.
    public struct Entry: Sendable, Hashable {
        /// Width in pixels.
        public var width: Int
        /// Height in pixels.
        public var height: Int
        /// Bits per pixel the directory declares (0 when unknown).
        public var bitsPerPixel: Int
        /// The format of the entry's data: `.png` or `.bmp`.
        public var format: Format

        /// Creates an entry description.
        public init(width: Int, height: Int, bitsPerPixel: Int, format: Format) {
            self.width = width
            self.height = height
            self.bitsPerPixel = bitsPerPixel
            self.format = format
        }
    }

    /// What a file says about its image, beyond the pixels.
    public struct Metadata: Sendable, Hashable {
        /// The source colour model.
        public var colorType: ColorType?
        /// Bits per sample (PNG: 1, 2, 4, 8 or 16) in the source.
        public var bitDepth: Int?
        /// Whether the source is interlaced (PNG Adam7, GIF).
        public var isInterlaced: Bool
        /// Whether the source declares transparency (an alpha channel, a PNG `tRNS` chunk, a GIF transparent index).
        public var hasTransparency: Bool
        /// Pixels per metre horizontally and vertically (PNG `pHYs` with unit 1, BMP), when the file says.
        public var pixelsPerMeter: (x: Int, y: Int)? {
            get { pixelsPerMeterX.map { ($0, pixelsPerMeterY ?? $0) } }
            set {
                pixelsPerMeterX = newValue?.x
                pixelsPerMeterY = newValue?.y
            }
        }
        /// Dots per inch derived from ``pixelsPerMeter`` (1 inch = 0.0254 m).
        public var dotsPerInch: (x: Double, y: Double)? {
            pixelsPerMeter.map { (Double($0.x) * 0.0254, Double($0.y) * 0.0254) }
        }
        /// The pixel aspect ratio parts of a PNG `pHYs` chunk with unit 0 (unknown unit).
        public var pixelAspect: (x: Int, y: Int)? {
            get { aspectX.map { ($0, aspectY ?? $0) } }
            set {
                aspectX = newValue?.x
                aspectY = newValue?.y
            }
        }
        /// The image gamma from a PNG `gAMA` chunk (for example 0.45455); not applied to ``Image/pixels``.
        public var gamma: Double?
        /// Whether the file embeds an ICC colour profile (PNG `iCCP`).
        public var hasICCProfile: Bool
        /// The ICC profile's name (PNG `iCCP`), when present.
        public var iccProfileName: String?
        /// The sRGB rendering intent (PNG `sRGB`, 0-3), when the file declares sRGB.
        public var sRGBIntent: Int?
        /// The EXIF orientation (TIFF tag 0x0112, 1-8) a JPEG's APP1 segment declares, when it does; not applied to
        /// ``Image/pixels``.
        public var exifOrientation: Int?

        var pixelsPerMeterX: Int?
        var pixelsPerMeterY: Int?
        var aspectX: Int?
        var aspectY: Int?

        /// Creates metadata; everything unknown by default.
        public init() {
            colorType = nil
            bitDepth = nil
            isInterlaced = false
            hasTransparency = false
            gamma = nil
            hasICCProfile = false
            iccProfileName = nil
            sRGBIntent = nil
            exifOrientation = nil
        }
    }
}
