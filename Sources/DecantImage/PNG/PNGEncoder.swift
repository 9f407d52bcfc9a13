import DecantCompression
public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension Image {
    /// The size of the pixels of frame `index` of ``frames``: the image's size for an animation frame (whose pixels
    /// are the full canvas), the page's own size (its ``Frame/width`` and ``Frame/height``) for a TIFF page.
    ///
    /// - Precondition: `index` is an index of ``frames``.
    public func pixelSize(ofFrame index: Int) -> (width: Int, height: Int) {
        let frame = frames[index]
        guard format == .tiff else { return (width, height) }
        return (frame.width, frame.height)
    }

    /// Encodes the image, or one of its frames, as a PNG file any viewer opens.
    ///
    /// The file is 8-bit truecolour (PNG colour type 2) when every pixel is opaque and 8-bit truecolour with alpha
    /// (colour type 6) otherwise, non-interlaced, with each row filtered by the filter whose output has the smallest
    /// sum of absolute values (PNG §12.8) and the rows compressed as zlib data in fixed-Huffman deflate blocks
    /// (RFC 1951 §3.2.6). Premultiplied pixels are converted back to straight alpha, as PNG stores them. The
    /// metadata of the source (orientation, gamma, density) is not written: the file holds the pixels as decoded.
    ///
    /// ```swift
    /// let image = try ImageResponseSerializer().serialize(response)
    /// try image.pngData().write(to: URL(fileURLWithPath: "out.png"))
    /// ```
    ///
    /// - Parameter frame: The index in ``frames`` of the animation frame (its full canvas) or TIFF page (at its own
    ///   size, ``pixelSize(ofFrame:)``) to encode; `nil` encodes ``pixels``, the image itself (an animation's first
    ///   frame, a TIFF's first page).
    /// - Returns: The PNG file's bytes.
    /// - Throws: `SerializationError` with code `invalidOption` when `frame` is not an index of ``frames``, or the
    ///   decoding error when the pixels were not decoded yet (``isDecoded`` is `false`) and decoding them fails.
    public func pngData(frame: Int? = nil) throws(SerializationError) -> Data {
        let image = try decoded()
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
        if image.isPremultiplied { PNGEncoder.unpremultiply(&pixels) }
        return PNGEncoder.encode(width: size.width, height: size.height, rgba: pixels)
    }
}

/// The PNG writer behind ``Image/pngData(frame:)`` (PNG Specification, third edition: §5 datastream, §11.2.2 IHDR,
/// §12.8 filter selection, §10 zlib compression).
enum PNGEncoder {
    /// The eight-byte PNG signature (§5.2).
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    /// The most bytes of compressed data in one IDAT chunk (the format allows 2^31 - 1; smaller chunks let readers
    /// stream).
    static let maxChunkData = 1 << 20

    /// Encodes `rgba` (straight alpha, top-down rows, `width * height * 4` bytes) as a PNG file.
    static func encode(width: Int, height: Int, rgba: [UInt8]) -> Data {
        let opaque = isOpaque(rgba)
        let channels = opaque ? 3 : 4
        let filtered = filterRows(width: width, height: height, rgba: rgba, channels: channels)
        let compressed = Deflate.zlib(filtered)
        var file = signature
        var header = [UInt8]()
        header.reserveCapacity(13)
        appendBigEndian(UInt32(width), to: &header)
        appendBigEndian(UInt32(height), to: &header)
        header += [8, opaque ? 2 : 6, 0, 0, 0]  // bit depth, colour type, compression, filter, interlace
        appendChunk("IHDR", header, to: &file)
        var start = 0
        repeat {
            let end = min(compressed.count, start + maxChunkData)
            appendChunk("IDAT", compressed[start..<end], to: &file)
            start = end
        } while start < compressed.count
        appendChunk("IEND", [], to: &file)
        return Data(file)
    }

    /// Whether every pixel's alpha is 255.
    static func isOpaque(_ rgba: [UInt8]) -> Bool {
        var index = 3
        while index < rgba.count {
            if rgba[index] != 255 { return false }
            index += 4
        }
        return true
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

    /// The filtered scanlines (§7.3): each row a filter-type byte and the row's bytes filtered by the type whose
    /// output has the smallest sum of absolute values as signed bytes (the heuristic §12.8 recommends).
    static func filterRows(width: Int, height: Int, rgba: [UInt8], channels: Int) -> [UInt8] {
        let rowBytes = width * channels
        var output = [UInt8](repeating: 0, count: height * (rowBytes + 1))
        var previous = [UInt8](repeating: 0, count: rowBytes)
        var current = [UInt8](repeating: 0, count: rowBytes)
        var candidates = [[UInt8]](repeating: [UInt8](repeating: 0, count: rowBytes), count: 5)
        for y in 0..<height {
            // The row in the output's channel layout.
            let source = y * width * 4
            if channels == 4 {
                for index in 0..<rowBytes { current[index] = rgba[source + index] }
            } else {
                for x in 0..<width {
                    current[x * 3] = rgba[source + x * 4]
                    current[x * 3 + 1] = rgba[source + x * 4 + 1]
                    current[x * 3 + 2] = rgba[source + x * 4 + 2]
                }
            }
            var best = 0
            var bestCost = Int.max
            for type in 0..<5 {
                let cost = filter(type: type, current, previous, channels: channels, into: &candidates[type])
                if cost < bestCost {
                    best = type
                    bestCost = cost
                }
            }
            let start = y * (rowBytes + 1)
            output[start] = UInt8(best)
            for index in 0..<rowBytes { output[start + 1 + index] = candidates[best][index] }
            swap(&previous, &current)
        }
        return output
    }

    /// Filters one row with filter `type` (§9.2: 0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth) into `output` and returns
    /// the sum of the filtered bytes' absolute values as signed bytes.
    static func filter(type: Int, _ row: [UInt8], _ above: [UInt8], channels: Int, into output: inout [UInt8]) -> Int {
        var cost = 0
        for index in 0..<row.count {
            let left = index >= channels ? Int(row[index - channels]) : 0
            let up = Int(above[index])
            let upLeft = index >= channels ? Int(above[index - channels]) : 0
            let predictor: Int
            switch type {
            case 1: predictor = left
            case 2: predictor = up
            case 3: predictor = (left + up) / 2
            case 4: predictor = paeth(left, up, upLeft)
            default: predictor = 0
            }
            let value = UInt8(truncatingIfNeeded: Int(row[index]) - predictor)
            output[index] = value
            cost += value < 128 ? Int(value) : 256 - Int(value)
        }
        return cost
    }

    /// The Paeth predictor (§9.4): whichever of left, above and upper-left is closest to left + above - upper-left.
    static func paeth(_ left: Int, _ up: Int, _ upLeft: Int) -> Int {
        let estimate = left + up - upLeft
        let toLeft = abs(estimate - left)
        let toUp = abs(estimate - up)
        let toUpLeft = abs(estimate - upLeft)
        if toLeft <= toUp && toLeft <= toUpLeft { return left }
        return toUp <= toUpLeft ? up : upLeft
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
