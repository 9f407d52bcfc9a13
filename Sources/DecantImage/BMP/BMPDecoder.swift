import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A BMP decoder (Microsoft's `BITMAPINFOHEADER` family, Windows GDI documentation; OS/2 `BITMAPCOREHEADER`): 1, 4,
/// 8, 16, 24 and 32 bits per pixel, RLE4 and RLE8, bit fields, V4/V5 headers, bottom-up and top-down rows.
enum BMPDecoder {
    static func invalid(_ offset: Int, _ message: String) -> SerializationError {
        SerializationError(code: .invalidBody, message: "The BMP image is invalid: \(message).", offset: offset)
    }

    static func unsupported(_ message: String) -> SerializationError {
        SerializationError(
            code: .unsupportedFeature, message: "The BMP image uses \(message), which is not yet supported.")
    }

    struct Header {
        var width: Int
        var height: Int
        var topDown: Bool
        var bitsPerPixel: Int
        var compression: Int
        var masks: [UInt32]  // red, green, blue, alpha
        var palette: [UInt8]  // RGBA entries
        var dataOffset: Int
        var pixelsPerMeter: (Int, Int)?
    }

    static func decode(_ data: Data, options: ImageDecodingOptions) throws(SerializationError) -> Image {
        let bytes = [UInt8](data)
        let header = try parseHeader(bytes, limits: options.limits)
        var metadata = Image.Metadata()
        metadata.bitDepth = header.bitsPerPixel
        metadata.colorType = header.bitsPerPixel <= 8 ? .indexed : (header.masks[3] != 0 ? .rgba : .rgb)
        metadata.hasTransparency = header.masks[3] != 0
        if let ppm = header.pixelsPerMeter, ppm.0 > 0 { metadata.pixelsPerMeter = (ppm.0, ppm.1) }
        guard options.inflate else {
            return Image(
                undecoded: header.width, height: header.height, format: .bmp, metadata: metadata, source: data,
                options: options)
        }
        let pixels = try decodePixels(bytes, header)
        return Image(
            width: header.width, height: header.height, pixels: pixels, format: .bmp, scale: options.imageScale,
            metadata: metadata)
    }

    static func parseHeader(_ bytes: [UInt8], limits: ImageLimits) throws(SerializationError) -> Header {
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        func u32(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        guard bytes.count >= 26 else {
            throw SerializationError(
                code: .truncatedBody, message: "The BMP image ends inside its headers.", offset: bytes.count)
        }
        let dataOffset = Int(u32(10))
        let infoSize = Int(u32(14))
        guard [12, 16, 40, 52, 56, 64, 108, 124].contains(infoSize) else {
            throw invalid(14, "the info header size \(infoSize) is not one Windows or OS/2 defines")
        }
        guard bytes.count >= 14 + infoSize else {
            throw SerializationError(
                code: .truncatedBody, message: "The BMP image ends inside its info header.", offset: bytes.count)
        }
        var width: Int
        var height: Int
        var bitsPerPixel: Int
        var compression = 0
        var colorsUsed = 0
        var ppm: (Int, Int)? = nil
        if infoSize == 12 {
            width = u16(18)
            height = Int(Int16(truncatingIfNeeded: u16(20)))
            bitsPerPixel = u16(24)
        } else {
            width = Int(Int32(bitPattern: u32(18)))
            height = Int(Int32(bitPattern: u32(22)))
            bitsPerPixel = u16(28)
            if infoSize >= 20 { compression = Int(u32(30)) }
            if infoSize >= 40 {
                ppm = (Int(Int32(bitPattern: u32(38))), Int(Int32(bitPattern: u32(42))))
                colorsUsed = Int(u32(46))
            }
        }
        let topDown = height < 0
        height = abs(height)
        guard width > 0, height > 0 else { throw invalid(18, "the size \(width)×\(height) is empty or negative") }
        try limits.check(width: width, height: height)
        var masks: [UInt32] = [0, 0, 0, 0]
        var paletteStart = 14 + infoSize
        switch (bitsPerPixel, compression) {
        case (1, 0), (4, 0), (8, 0), (4, 2), (8, 1), (24, 0):
            break
        case (16, 0):
            masks = [0x7C00, 0x03E0, 0x001F, 0]
        case (32, 0):
            masks = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, 0]
        case (16, 3), (32, 3), (16, 6), (32, 6):
            if infoSize >= 52 {
                masks = [u32(54), u32(58), u32(62), infoSize >= 56 ? u32(66) : 0]
            } else {
                let count = compression == 6 ? 4 : 3
                guard bytes.count >= paletteStart + count * 4 else {
                    throw SerializationError(
                        code: .truncatedBody, message: "The BMP image ends inside its bit masks.", offset: bytes.count)
                }
                masks = (0..<count).map { u32(paletteStart + $0 * 4) } + (count == 3 ? [0] : [])
                paletteStart += count * 4
            }
        default:
            throw unsupported("\(bitsPerPixel) bits per pixel with compression \(compression)")
        }
        var palette: [UInt8] = []
        if bitsPerPixel <= 8 {
            let entrySize = infoSize == 12 ? 3 : 4
            var count = colorsUsed > 0 ? min(colorsUsed, 1 << bitsPerPixel) : 1 << bitsPerPixel
            count = min(count, max(0, (min(dataOffset, bytes.count) - paletteStart) / entrySize))
            palette = [UInt8](repeating: 0, count: 256 * 4)
            for entry in 0..<256 { palette[entry * 4 + 3] = 255 }
            for entry in 0..<count {
                let at = paletteStart + entry * entrySize
                palette[entry * 4] = bytes[at + 2]
                palette[entry * 4 + 1] = bytes[at + 1]
                palette[entry * 4 + 2] = bytes[at]
            }
        }
        return Header(
            width: width, height: height, topDown: topDown, bitsPerPixel: bitsPerPixel, compression: compression,
            masks: masks, palette: palette, dataOffset: dataOffset, pixelsPerMeter: ppm)
    }

    /// A mask's shift and a table scaling its values to 0...255.
    static func channel(_ mask: UInt32) -> (shift: UInt32, maximum: UInt32) {
        guard mask != 0 else { return (0, 0) }
        let shift = UInt32(mask.trailingZeroBitCount)
        return (shift, mask >> shift)
    }

    static func decodePixels(_ bytes: [UInt8], _ header: Header) throws(SerializationError) -> [UInt8] {
        let width = header.width
        let height = header.height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        guard header.dataOffset < bytes.count else {
            throw SerializationError(
                code: .truncatedBody, message: "The BMP image has no pixel data.", offset: bytes.count)
        }
        func rowIndex(_ fileRow: Int) -> Int { header.topDown ? fileRow : height - 1 - fileRow }
        if header.compression == 1 || header.compression == 2 {
            // RLE8 / RLE4: pixels not written stay transparent black.
            var x = 0
            var fileRow = 0
            var position = header.dataOffset
            let isFour = header.compression == 2
            func put(_ index: Int) {
                guard x < width, fileRow < height else { return }
                let target = (rowIndex(fileRow) * width + x) * 4
                for channel in 0..<4 { pixels[target + channel] = header.palette[index * 4 + channel] }
                x += 1
            }
            decoding: while position + 1 < bytes.count && fileRow < height {
                let count = Int(bytes[position])
                let value = Int(bytes[position + 1])
                position += 2
                if count > 0 {
                    for step in 0..<count { put(isFour ? (step & 1 == 0 ? value >> 4 : value & 15) : value) }
                    continue
                }
                switch value {
                case 0:
                    x = 0
                    fileRow += 1
                case 1:
                    break decoding
                case 2:
                    guard position + 1 < bytes.count else { break decoding }
                    x += Int(bytes[position])
                    fileRow += Int(bytes[position + 1])
                    position += 2
                default:
                    let byteCount = isFour ? (value + 1) / 2 : value
                    guard position + byteCount <= bytes.count else { break decoding }
                    for step in 0..<value {
                        let byte = Int(bytes[position + (isFour ? step / 2 : step)])
                        put(isFour ? (step & 1 == 0 ? byte >> 4 : byte & 15) : byte)
                    }
                    position += (byteCount + 1) & ~1
                }
            }
            return pixels
        }
        let bitsPerPixel = header.bitsPerPixel
        let stride = (width * bitsPerPixel + 31) / 32 * 4
        let channels = header.masks.map(channel)
        for fileRow in 0..<height {
            let start = header.dataOffset + fileRow * stride
            guard start + (width * bitsPerPixel + 7) / 8 <= bytes.count else { break }  // a short file: rest stays 0
            var target = rowIndex(fileRow) * width * 4
            for column in 0..<width {
                switch bitsPerPixel {
                case 1, 4, 8:
                    let bit = column * bitsPerPixel
                    let index =
                        Int(bytes[start + bit / 8] >> UInt8(8 - bitsPerPixel - bit % 8)) & ((1 << bitsPerPixel) - 1)
                    for channel in 0..<4 { pixels[target + channel] = header.palette[index * 4 + channel] }
                case 24:
                    let at = start + column * 3
                    pixels[target] = bytes[at + 2]
                    pixels[target + 1] = bytes[at + 1]
                    pixels[target + 2] = bytes[at]
                    pixels[target + 3] = 255
                default:
                    let at = start + column * (bitsPerPixel / 8)
                    var value = UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8
                    if bitsPerPixel == 32 { value |= UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24 }
                    for channel in 0..<4 {
                        let (shift, maximum) = channels[channel]
                        if maximum == 0 {
                            pixels[target + channel] = channel == 3 ? 255 : 0
                        } else {
                            let sample = (value & header.masks[channel]) >> shift
                            pixels[target + channel] = UInt8(
                                (UInt64(sample) * 255 + UInt64(maximum) / 2) / UInt64(maximum))
                        }
                    }
                }
                target += 4
            }
        }
        return pixels
    }
}
