import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Limits on what a decoder may allocate, checked from the file's headers before any pixel memory is allocated.
///
/// Two kinds of guard work together. The absolute ones (``maxPixels``, ``maxFrames``, ``maxTotalBytes``) bound any
/// image; the ratio one, ``maxPixelsPerByte``, bounds what a *small* body may claim: image formats compress, so a few
/// bytes can declare a 10000×10000 screen (GIF), a 10⁸-pixel bilevel picture (PNG) or pixel data that is not there
/// (BMP). The pixels a decode produces (every decoded frame counted) may be at most ``maxPixelsPerByte`` times the
/// body size, and never less than ``ratioFloorPixels`` are allowed, so small images of any compression pass.
///
/// At the defaults a decode keeps at most 4 bytes per pixel of the larger of 16,777,216 pixels (64 MiB) and 1,024
/// pixels per body byte, within ``maxPixels`` per frame and ``maxTotalBytes`` in all (16-bit sources keep 8 bytes
/// more per pixel for their samples).
public struct ImageLimits: Sendable, Hashable {
    /// The largest `width * height` accepted: 100 million pixels by default (a Pillow-like decompression-bomb guard).
    public var maxPixels: Int
    /// The most animation frames accepted: 1,000 by default.
    public var maxFrames: Int
    /// The most bytes of decoded output a decode may keep (RGBA8, plus RGBA16 samples for 16-bit sources): 2 GiB by
    /// default. For an animated GIF this counts what the image keeps, the first canvas and every frame's palette
    /// indices; the other frames' canvases are composited when ``Image/Frame/pixels`` is read and are not counted.
    public var maxTotalBytes: Int
    /// The most pixels a decode may produce per byte of body, every decoded frame counted (a GIF's screen and each
    /// of its frames, each canvas of an animated PNG): 1,024 by default, and at least ``ratioFloorPixels`` pixels
    /// whatever the body size. Deflate cannot shrink data more than about 1,032 to 1, so an 8-bit image honestly
    /// needs a byte per 1,032 pixels at least; bilevel or palette images of one colour can do better, and need a
    /// raised limit when they are larger than 4096×4096.
    public var maxPixelsPerByte: Int
    /// The most work the scans of a JPEG frame may take per byte of body: 4,096 units by default, and at least
    /// ``scanWorkFloor`` whatever the body size. Each scan visits every block of its components, and each block visit
    /// costs 10 units (its fixed cost) plus the coefficients of the scan's spectral band (64 in a sequential scan,
    /// `Se - Ss + 1` in a progressive one). The markers are read, and the sum checked, before any scan is decoded:
    /// a few hundred kilobytes cannot make the decoder walk a 10000×10000 frame a thousand times. Real progressive
    /// files take fewer than 100 units per byte and a flat-colour one about 1,000 (its DC scans alone take a bit per
    /// block); raise this limit for a trusted file with an unusual scan script.
    public var maxScanWorkPerByte: Int

    /// The default of ``maxPixelsPerByte``: 1,024.
    public static let defaultMaxPixelsPerByte = 1024
    /// The pixels ``maxPixelsPerByte`` always allows, whatever the body size: 16,777,216 (4096×4096, 64 MiB of
    /// RGBA8).
    public static let ratioFloorPixels = 1 << 24
    /// The default of ``maxScanWorkPerByte``: 4,096.
    public static let defaultMaxScanWorkPerByte = 4096
    /// The scan work ``maxScanWorkPerByte`` always allows, whatever the body size: 67,108,864 units (about a tenth of
    /// a second of decoding; a 4096×4096 greyscale frame coded with Pillow's progressive script takes 66 million).
    public static let scanWorkFloor = 1 << 26

    /// Creates limits; the defaults are 100 million pixels, 1,000 frames, 2 GiB, 1,024 pixels per body byte and 4,096
    /// units of JPEG scan work per body byte.
    public init(
        maxPixels: Int = 100_000_000, maxFrames: Int = 1000, maxTotalBytes: Int = 1 << 31,
        maxPixelsPerByte: Int = ImageLimits.defaultMaxPixelsPerByte,
        maxScanWorkPerByte: Int = ImageLimits.defaultMaxScanWorkPerByte
    ) {
        self.maxPixels = maxPixels
        self.maxFrames = maxFrames
        self.maxTotalBytes = maxTotalBytes
        self.maxPixelsPerByte = maxPixelsPerByte
        self.maxScanWorkPerByte = maxScanWorkPerByte
    }

    /// The JPEG scan work a body of `bodySize` bytes may take: ``maxScanWorkPerByte`` times its size, at least
    /// ``scanWorkFloor``.
    public func scanWorkBudget(bodySize: Int) -> Int {
        let (product, overflow) = max(0, maxScanWorkPerByte).multipliedReportingOverflow(by: max(0, bodySize))
        return overflow ? Int.max : max(product, Self.scanWorkFloor)
    }

    /// The pixels a body of `bodySize` bytes may decode to: ``maxPixelsPerByte`` times its size, at least
    /// ``ratioFloorPixels``.
    public func pixelBudget(bodySize: Int) -> Int {
        let (product, overflow) = max(0, maxPixelsPerByte).multipliedReportingOverflow(by: max(0, bodySize))
        return overflow ? Int.max : max(product, Self.ratioFloorPixels)
    }

    /// Throws `limitExceeded` when a `width` by `height` image of `frames` frames, `bytesPerPixel` output bytes
    /// each, would pass a limit.
    func check(width: Int, height: Int, frames: Int = 1, bytesPerPixel: Int = 4) throws(SerializationError) {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixels <= maxPixels else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The image is \(width)×\(height) pixels, more than the limit of \(maxPixels) pixels (a "
                    + "decompression bomb guard); raise maxPixels if the image is trusted.")
        }
        guard frames <= maxFrames else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The image has \(frames) frames, more than the limit of \(maxFrames); raise maxFrames if "
                    + "the image is trusted.")
        }
        let (bytes, overflow2) = pixels.multipliedReportingOverflow(by: bytesPerPixel * max(1, frames))
        guard !overflow2, bytes <= maxTotalBytes else {
            throw SerializationError(
                code: .limitExceeded,
                message: "Decoding the image would take more than the limit of \(maxTotalBytes) bytes; raise "
                    + "maxTotalBytes if the image is trusted.")
        }
    }

    /// Throws `limitExceeded` when decoding `pixels` pixels (`what` they are, for the message) from a body of
    /// `bodySize` bytes would pass ``pixelBudget(bodySize:)``. Called before those pixels are allocated.
    func checkProduced(
        _ pixels: Int, _ what: @autoclosure () -> String, format: Image.Format, bodySize: Int
    ) throws(SerializationError) {
        let budget = pixelBudget(bodySize: bodySize)
        guard pixels > budget else { return }
        throw SerializationError(
            code: .limitExceeded,
            message: "The \(bodySize)-byte \(format) body would decode to \(pixels) pixels (\(what())), more than the "
                + "\(budget) that maxPixelsPerByte (\(maxPixelsPerByte) pixels per body byte, at least "
                + "\(Self.ratioFloorPixels)) allows: a decompression bomb guard, since so few bytes rarely hold so "
                + "large an image honestly. Raise maxPixelsPerByte if the image is trusted.")
    }
}

/// How images are decoded: AFNetworking's `imageScale` and `inflate`, alpha representation, and limits.
public struct ImageDecodingOptions: Sendable, Hashable {
    /// The scale of images whose URL file name has no `@2x`/`@3x` suffix: 1 by default.
    public var imageScale: Double
    /// Whether pixels are decoded at once (the default) or only size, format and frame count are read, pixels being
    /// decoded on demand by `Image.decoded()`.
    public var inflate: Bool
    /// Whether pixels are premultiplied by alpha; straight alpha by default.
    public var premultipliedAlpha: Bool
    /// Limits checked before allocating.
    public var limits: ImageLimits
    /// For icon files (ICO/CUR), the size in pixels of the entry wanted: the entry whose larger side is closest to it
    /// is decoded (on a tie the larger entry, then the deeper one, then the first listed). `nil`, the default,
    /// decodes the largest entry. ``Image/chosenEntry`` tells which entry was decoded.
    public var icoPreferredSize: Int?
    /// Whether the EXIF orientation a JPEG (or a TIFF's Orientation tag) declares is applied to the pixels, so that
    /// they come out as a viewer shows the image: rotated and mirrored as ``Image/oriented()`` does, with ``Image/width``
    /// and ``Image/height`` swapped for orientations 5 to 8 (even with ``inflate`` off) and
    /// ``Image/Metadata/exifOrientation`` then 1. Off by default: the pixels are as stored, as Pillow and libjpeg give
    /// them.
    public var appliesOrientation: Bool
    /// Whether a JPEG body that is cut short or damaged gives the image decoded so far, flagged
    /// ``Image/isPartial``, instead of a `truncatedBody` or `invalidBody` error: what a browser shows while an image
    /// loads or when its data is damaged. A scan whose data runs out before its last block (a marker following too
    /// soon) counts as cut short. It takes at least one complete frame header and the start of a scan; a
    /// damaged restart interval is skipped to the next restart marker (T.81 §E.1.4). Off by default. Other formats
    /// ignore it.
    public var allowsPartialImages: Bool

    /// Creates options; the defaults are scale 1, inflate on, straight alpha, default limits, the largest icon entry,
    /// pixels as stored (orientation not applied), and no partial images.
    public init(
        imageScale: Double = 1, inflate: Bool = true, premultipliedAlpha: Bool = false,
        limits: ImageLimits = ImageLimits(), icoPreferredSize: Int? = nil, appliesOrientation: Bool = false,
        allowsPartialImages: Bool = false
    ) {
        self.imageScale = imageScale
        self.inflate = inflate
        self.premultipliedAlpha = premultipliedAlpha
        self.limits = limits
        self.icoPreferredSize = icoPreferredSize
        self.appliesOrientation = appliesOrientation
        self.allowsPartialImages = allowsPartialImages
    }

    /// The scale an `@2x` or `@3x` suffix of the URL's file name (before its extension) gives, as in
    /// `avatar@2x.png`; `nil` when there is none.
    public static func scale(fromURL url: URL?) -> Double? {
        guard let url else { return nil }
        var name = url.lastPathComponent
        if let dot = name.lastIndex(of: ".") { name = String(name[..<dot]) }
        if name.hasSuffix("@2x") { return 2 }
        if name.hasSuffix("@3x") { return 3 }
        return nil
    }
}

/// Dispatches a body to the decoder of the format its signature names.
enum ImageDecoder {
    /// Runs `body` on the bytes of `data` (a `Data` or `[UInt8]`) in place and passes its typed error on (the
    /// closure `withUnsafeBytes` takes cannot throw one).
    static func withBytes<Value>(
        of data: some ContiguousBytes, _ body: (UnsafeRawBufferPointer) throws(SerializationError) -> Value
    ) throws(SerializationError) -> Value {
        let result: Result<Value, SerializationError> = data.withUnsafeBytes { bytes in
            do throws(SerializationError) {
                return .success(try body(bytes))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Decodes `data` into freshly allocated pixels.
    static func decode(_ data: Data, options: ImageDecodingOptions) throws(SerializationError) -> Image {
        var none: [UInt8] = []
        return try decode(data, options: options, reusing: &none)
    }

    /// Decodes `data`; a JPEG's pixels are written into `storage`'s memory (which the image then owns, `storage`
    /// left empty), other formats leave `storage` alone.
    static func decode(
        _ data: Data, options: ImageDecodingOptions, reusing storage: inout [UInt8]
    ) throws(SerializationError) -> Image {
        // A PNG whose signature was damaged (by a text-mode transfer, say) still gets the PNG decoder's precise error.
        let damagedPNG = data.count >= 4 && data.dropFirst().prefix(3).elementsEqual([0x50, 0x4E, 0x47])
        guard let format = Image.Format.detect(data) ?? (damagedPNG ? .png : nil) else {
            throw SerializationError(
                code: .invalidBody,
                message: "The body is not an image Decant recognises: it starts with none of the PNG, GIF, JPEG, BMP, "
                    + "ICO, CUR or TIFF signatures.",
                offset: 0)
        }
        var image: Image
        switch format {
        case .png:
            image = try PNGDecoder.decode(data, options: options)
        case .gif:
            image = try GIFDecoder.decode(data, options: options)
        case .bmp:
            image = try BMPDecoder.decode(data, options: options)
        case .ico, .cur:
            image = try ICODecoder.decode(data, options: options)
        case .jpeg:
            image = try JPEGDecoder.decode(data, options: options, reusing: &storage)
        case .tiff:
            image = try TIFFDecoder.decode(data, options: options)
        }
        if options.premultipliedAlpha && image.isDecoded { image.premultiply() }
        if options.appliesOrientation { image = image.oriented() }
        return image
    }
}

extension Image {
    /// Multiplies each colour sample by its alpha, rounding to nearest.
    mutating func premultiply() {
        guard !isPremultiplied else { return }
        pixels.withUnsafeMutableBufferPointer { buffer in
            var index = 0
            while index < buffer.count {
                let alpha = UInt32(buffer[index + 3])
                if alpha != 255 {
                    for channel in 0..<3 {
                        let product = UInt32(buffer[index + channel]) * alpha + 128
                        buffer[index + channel] = UInt8((product + (product >> 8)) >> 8)
                    }
                }
                index += 4
            }
        }
        isPremultiplied = true
    }
}
