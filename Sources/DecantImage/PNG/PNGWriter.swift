import DecantCompression
public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Writes an ``Image`` as a PNG file (PNG Specification, third edition: §5 datastream, §11.2 critical chunks, §12.8
/// filter selection, §10 compression): the inverse of the PNG decoder.
///
/// The colour type is the smallest that holds the pixels exactly (the RGBA8 pixels read back are those written):
/// greyscale when every pixel is opaque and grey (R = G = B); indexed colour when there are at most 256 distinct
/// colours and ``PNGWritingOptions/allowsPalette`` is on (with `tRNS` for translucent entries); greyscale with alpha
/// when every pixel is grey; truecolour when every pixel is opaque; else truecolour with alpha. Samples are 8-bit,
/// rows are not interlaced, and each row of a direct-colour image is filtered by the filter whose output has the
/// smallest sum of absolute values as signed bytes (§12.8); indexed rows are not filtered, as §12.8 advises. The
/// filtered rows are compressed as one zlib stream (DEFLATE with dynamic Huffman codes) split into `IDAT` chunks of
/// at most ``maxChunkData`` bytes.
///
/// Premultiplied pixels (``Image/isPremultiplied``) are converted back to straight alpha, as PNG stores them, which
/// rounds. The metadata of the source (orientation, gamma, density, ICC profile) is not written.
///
/// ```swift
/// let file = try PNGWriter().write(image)
/// ```
public struct PNGWriter: Sendable {
    /// The writing options.
    public var options: PNGWritingOptions

    /// The most bytes of compressed data in one `IDAT` chunk (the format allows 2^31 - 1; smaller chunks let readers
    /// stream).
    public static let maxChunkData = 1 << 16

    /// A writer with `options`.
    public init(options: PNGWritingOptions = PNGWritingOptions()) {
        self.options = options
    }

    /// Writes ``Image/pixels`` of `image`, or the pixels of one of its frames, as a PNG file.
    ///
    /// - Parameters:
    ///   - image: A decoded image (``Image/isDecoded``).
    ///   - frame: The index in ``Image/frames`` of the animation frame (its full canvas) or TIFF page (at its own
    ///     size, ``Image/pixelSize(ofFrame:)``) to write; `nil` writes ``Image/pixels``.
    /// - Returns: The PNG file's bytes.
    /// - Throws: `SerializationError` with code `encodingFailed` when the image's pixels were not decoded (it was
    ///   read with `inflate` off: decode it with ``Image/decoded()`` first), when it has no pixels (a width or height
    ///   of 0), when its size exceeds PNG's 2^31 - 1, or when ``Image/pixels`` is not `width * height * 4` bytes;
    ///   `invalidOption` when `frame` is not an index of ``Image/frames``.
    public func write(_ image: Image, frame: Int? = nil) throws(SerializationError) -> Data {
        guard image.isDecoded else {
            throw SerializationError(
                code: .encodingFailed,
                message: "The \(image.format) image's pixels were not decoded (it was read with the 'inflate' option "
                    + "off), so there are none to write; decode them with Image.decoded() first, or read the image "
                    + "with 'inflate' on.")
        }
        var pixels = image.pixels
        var size = (width: image.width, height: image.height)
        if let frame {
            guard image.frames.indices.contains(frame) else {
                throw SerializationError(
                    code: .invalidOption,
                    message: "Frame \(frame) does not exist: the image has \(image.frames.count) animation frames"
                        + (image.frames.isEmpty ? " (a still image: encode it without a frame index)." : "."))
            }
            pixels = image.frames[frame].pixels
            size = image.pixelSize(ofFrame: frame)
        }
        guard size.width > 0, size.height > 0, size.width <= Int(Int32.max), size.height <= Int(Int32.max) else {
            throw SerializationError(
                code: .encodingFailed,
                message: "A \(size.width)×\(size.height) image cannot be written as PNG: its width and height must be "
                    + "from 1 to 2,147,483,647 (PNG §11.2.2).")
        }
        let (count, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard !overflow, count <= Int.max / 4, pixels.count == count * 4 else {
            throw SerializationError(
                code: .encodingFailed,
                message: "The image holds \(pixels.count) bytes of pixels where a \(size.width)×\(size.height) RGBA8 "
                    + "image has width × height × 4; set its pixels to match its size.")
        }
        if image.isPremultiplied { Self.unpremultiply(&pixels) }
        return encode(width: size.width, height: size.height, rgba: pixels)
    }

    // MARK: - Encoding

    /// The eight-byte PNG signature (§5.2).
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The PNG colour types written (§11.2.2), with their samples per pixel.
    enum ColourType: UInt8 {
        case grey = 0
        case truecolour = 2
        case indexed = 3
        case greyAlpha = 4
        case truecolourAlpha = 6

        var channels: Int {
            switch self {
            case .grey, .indexed: 1
            case .greyAlpha: 2
            case .truecolour: 3
            case .truecolourAlpha: 4
            }
        }
    }

    /// Encodes `rgba` (straight alpha, top-down rows, `width * height * 4` bytes) as a PNG file.
    func encode(width: Int, height: Int, rgba: [UInt8]) -> Data {
        let analysis = ColourAnalysis(rgba, countsColours: options.allowsPalette)
        let colourType = analysis.colourType(pixelCount: width * height)
        var palette: [UInt32] = []
        var samples: [UInt8]
        if colourType == .indexed {
            (palette, samples) = analysis.indexed(rgba)
        } else {
            samples = Self.samples(rgba, as: colourType)
        }
        let filtered = Self.filterRows(
            samples, width: width, height: height, channels: colourType.channels, adaptive: colourType != .indexed)
        samples = []
        let compressed = Deflate.zlib(filtered)
        var file = Self.signature
        file.reserveCapacity(compressed.count + compressed.count / Self.maxChunkData * 12 + 1024)
        var header = [UInt8]()
        Self.appendBigEndian(UInt32(width), to: &header)
        Self.appendBigEndian(UInt32(height), to: &header)
        header += [8, colourType.rawValue, 0, 0, 0]  // bit depth, colour type, compression, filter, interlace
        Self.appendChunk("IHDR", header, to: &file)
        if colourType == .indexed {
            var entries = [UInt8]()
            var alphas = [UInt8]()
            for colour in palette {
                entries += [UInt8(truncatingIfNeeded: colour), UInt8(truncatingIfNeeded: colour >> 8)]
                entries.append(UInt8(truncatingIfNeeded: colour >> 16))
                alphas.append(UInt8(truncatingIfNeeded: colour >> 24))
            }
            Self.appendChunk("PLTE", entries, to: &file)
            // tRNS holds the alpha of the entries up to the last translucent one (§11.3.2.1); the palette puts
            // translucent entries first.
            if let last = alphas.lastIndex(where: { $0 != 255 }) {
                Self.appendChunk("tRNS", alphas[...last], to: &file)
            }
        }
        var start = 0
        repeat {
            let end = min(compressed.count, start + Self.maxChunkData)
            Self.appendChunk("IDAT", compressed[start..<end], to: &file)
            start = end
        } while start < compressed.count
        Self.appendChunk("IEND", [], to: &file)
        return Data(file)
    }

    /// The pixels' samples in a direct colour type's layout.
    static func samples(_ rgba: [UInt8], as colourType: ColourType) -> [UInt8] {
        let channels = colourType.channels
        if channels == 4 { return rgba }
        let pixelCount = rgba.count / 4
        return [UInt8](unsafeUninitializedCapacity: pixelCount * channels) { output, initialized in
            rgba.withUnsafeBufferPointer { input in
                for pixel in 0..<pixelCount {
                    let source = pixel * 4
                    let target = pixel * channels
                    switch colourType {
                    case .grey:
                        output[target] = input[source]
                    case .greyAlpha:
                        output[target] = input[source]
                        output[target + 1] = input[source + 3]
                    default:
                        output[target] = input[source]
                        output[target + 1] = input[source + 1]
                        output[target + 2] = input[source + 2]
                    }
                }
            }
            initialized = pixelCount * channels
        }
    }

    /// Undoes premultiplication: each colour sample divided by its pixel's alpha, rounded to nearest.
    static func unpremultiply(_ rgba: inout [UInt8]) {
        var index = 0
        while index + 3 < rgba.count {
            let alpha = Int(rgba[index + 3])
            if alpha != 255 && alpha != 0 {
                for channel in 0..<3 {
                    rgba[index + channel] = UInt8(min(255, (Int(rgba[index + channel]) * 255 + alpha / 2) / alpha))
                }
            }
            index += 4
        }
    }

    /// Appends a chunk (§5.3): length, type, data and the CRC-32 of type and data.
    static func appendChunk(_ type: String, _ data: some Collection<UInt8>, to file: inout [UInt8]) {
        appendBigEndian(UInt32(data.count), to: &file)
        let typeStart = file.count
        file += Array(type.utf8)
        file += data
        let crc = file[typeStart...].withUnsafeBytes { Checksum.crc32($0) }
        appendBigEndian(crc, to: &file)
    }

    /// Appends `value` as four big-endian bytes.
    static func appendBigEndian(_ value: UInt32, to bytes: inout [UInt8]) {
        bytes += [
            UInt8(value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8),
            UInt8(truncatingIfNeeded: value),
        ]
    }
}
