import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// JPEG-compressed strips and tiles (TIFF compression 7, Adobe TIFF technote 2).
extension TIFFPage {
    /// Decodes every strip or tile as a JPEG stream, the JPEGTables (347) segments placed before its own, and copies
    /// it into `pixels`. The three components are YCbCr or RGB as the photometric interpretation says, as libtiff
    /// tells libjpeg.
    func decodeJPEG(into pixels: inout [UInt8]) throws(SerializationError) {
        let bytes = decoder.bytes
        var tables: [UInt8] = []
        if let jpegTables, jpegTables.count >= 4, jpegTables[0] == 0xFF, jpegTables[1] == 0xD8 {
            tables = Array(jpegTables.dropLast(jpegTables.suffix(2) == [0xFF, 0xD9] ? 2 : 0))
        }
        var options = decoder.options
        options.inflate = true
        options.premultipliedAlpha = false
        // A strip's or tile's stream may not declare a frame larger than the chunk: the work stays bounded by the
        // chunks' area, which the caller checked.
        options.limits.maxPixels = max(1, chunkWidth * chunkHeight)
        let space: JPEGDecoder.ColorSpace = photometric == 6 ? .yCbCr : .rgb
        for down in 0..<chunksDown {
            for across in 0..<chunksAcross {
                let index = down * chunksAcross + across
                let offset = offsets[index]
                let declared = index < byteCounts.count ? byteCounts[index] : bytes.count
                guard offset >= 0, offset <= bytes.count, declared >= 0 else {
                    throw TIFFDecoder.truncated(bytes.count, "JPEG strip or tile \(index) at offset \(offset)")
                }
                let end = offset + min(declared, bytes.count - offset)
                var stream = tables
                let startsWithSOI = end - offset >= 2 && bytes[offset] == 0xFF && bytes[offset + 1] == 0xD8
                if tables.isEmpty || !startsWithSOI {
                    stream += bytes[offset..<end]
                } else {
                    stream += bytes[(offset + 2)..<end]
                }
                let image: Image
                do throws(SerializationError) {
                    image = try JPEGDecoder.decode(embedded: Data(stream), colorSpace: space, options: options)
                } catch {
                    var error = error
                    error.message =
                        "The TIFF's JPEG strip or tile \(index) at offset \(offset) cannot be decoded. "
                        + error.message
                    throw error
                }
                let left = across * chunkWidth
                let top = down * chunkHeight
                let columns = min(image.width, width - left)
                let rows = min(image.height, height - top)
                guard columns > 0, rows > 0 else { continue }
                for row in 0..<rows {
                    let from = row * image.width * 4
                    let to = ((top + row) * width + left) * 4
                    pixels.replaceSubrange(to..<(to + columns * 4), with: image.pixels[from..<(from + columns * 4)])
                }
            }
        }
    }
}
