import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A BMP decoder (Microsoft's `BITMAPINFOHEADER` family, Windows GDI documentation; OS/2 `BITMAPCOREHEADER` and
/// `BITMAPINFOHEADER2`): 1, 2 (Windows CE), 4, 8, 16, 24 and 32 bits per pixel, RLE4, RLE8 and OS/2 RLE24, bit fields,
/// V4/V5 headers, bottom-up and top-down rows.
///
/// Alpha and channel rules, as Chrome (Blink `BMPImageReader`) and image-rs decode:
/// - 32-bit `BI_RGB` images are opaque, unless a V4 or V5 header gives the alpha mask `0xFF000000`, which is used.
/// - In an image with a V4 or V5 header, an alpha channel that is zero in every pixel decoded is unused: the image is
///   opaque, as Chrome shows V4+ files that fill their alpha channel with zeros. Other headers keep such alpha (a
///   56-byte V3 header or `BI_ALPHABITFIELDS` asks for alpha outright; image-rs's V3 references are transparent).
/// - Bit-field channels up to 8 bits wide are scaled to 0...255 (rounded); wider channels keep their top 8 bits.
///
/// An uncompressed or bit-field file shorter than its rows need is refused (`truncatedBody`) before any pixel is
/// allocated, as Chrome, Pillow and image-rs refuse it (bmpsuite lets a decoder fail or degrade). A run-length stream
/// that ends early keeps the pixels written before its end; the rest stay transparent black.
/// Compression 4 and 5 under a Windows header (`BI_JPEG`, `BI_PNG`) are reported as unsupported.
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
        var palette: [UInt32]  // 256 RGBA8 colours in memory order (R, G, B, A bytes)
        var dataOffset: Int
        var pixelsPerMeter: (Int, Int)?
        /// Whether an alpha channel that is zero everywhere means an opaque image: for V4 and V5 headers.
        var zeroAlphaIsOpaque: Bool
    }

    static func decode(_ data: Data, options: ImageDecodingOptions) throws(SerializationError) -> Image {
        try ImageDecoder.withBytes(of: data) { bytes throws(SerializationError) in
            try decode(bytes, source: data, options: options)
        }
    }

    static func decode(
        _ bytes: UnsafeRawBufferPointer, source data: Data, options: ImageDecodingOptions
    ) throws(SerializationError) -> Image {
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
        try options.limits.checkProduced(
            header.width * header.height, "\(header.width)×\(header.height)", format: .bmp, bodySize: bytes.count)
        try checkPixelData(bytes, header)
        let pixels = try decodePixels(bytes, header)
        return Image(
            width: header.width, height: header.height, pixels: pixels, format: .bmp, scale: options.imageScale,
            metadata: metadata)
    }

    /// Reads the file and info headers, bit masks and palette; every read is inside `bytes` (checked before it).
    static func parseHeader(_ bytes: UnsafeRawBufferPointer, limits: ImageLimits) throws(SerializationError) -> Header {
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        func u32(_ offset: Int) -> UInt32 {
            UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
                | UInt32(bytes[offset + 3]) << 24
        }
        guard bytes.count >= 26 else {
            throw SerializationError(
                code: .truncatedBody, message: "The BMP image ends inside its headers.", offset: bytes.count)
        }
        guard bytes[0] == UInt8(ascii: "B"), bytes[1] == UInt8(ascii: "M") else {
            throw SerializationError(
                code: .invalidBody,
                message: "The body does not start with the BMP signature 'BM', so it is not a Windows bitmap file.",
                offset: 0)
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
        case (_, 4) where infoSize != 16 && infoSize != 64, (_, 5):
            // A Windows header's compression 4 and 5 are BI_JPEG and BI_PNG: a whole JPEG or PNG file as the pixel
            // data, meant for printers. Only OS/2 2.x headers (16 or 64 bytes) use 4 for RLE24.
            let embedded = compression == 4 ? "JPEG" : "PNG"
            throw SerializationError(
                code: .unsupportedFeature,
                message: "The BMP image uses compression \(compression) (BI_\(embedded)): its pixel data is a whole "
                    + "\(embedded) file, a form meant for printers that Decant does not decode (nor do browsers). "
                    + "Serve the \(embedded) file itself, or a plain BMP.",
                offset: 30)
        case (1, 0), (2, 0), (4, 0), (8, 0), (4, 2), (8, 1), (24, 0), (24, 4):
            // 2 bits per pixel is Windows CE's; compression 4 with 24 bits is OS/2 2.x RLE24.
            break
        case (16, 0):
            masks = [0x7C00, 0x03E0, 0x001F, 0]
        case (32, 0):
            // V4 and V5 headers carry an alpha mask even for BI_RGB: the top byte is alpha when the mask says so.
            let alpha: UInt32 = infoSize >= 108 && u32(66) == 0xFF00_0000 ? 0xFF00_0000 : 0
            masks = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF, alpha]
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
        var palette: [UInt32] = []
        if bitsPerPixel <= 8 {
            // Entries past the file's palette are opaque black.
            let entrySize = infoSize == 12 ? 3 : 4
            var count = colorsUsed > 0 ? min(colorsUsed, 1 << bitsPerPixel) : 1 << bitsPerPixel
            count = min(count, max(0, (min(dataOffset, bytes.count) - paletteStart) / entrySize))
            palette = [UInt32](repeating: UInt32(0xFF00_0000).littleEndian, count: 256)
            for entry in 0..<count {
                let at = paletteStart + entry * entrySize
                let colour = UInt32(bytes[at + 2]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at]) << 16 | 0xFF00_0000
                palette[entry] = colour.littleEndian
            }
        }
        return Header(
            width: width, height: height, topDown: topDown, bitsPerPixel: bitsPerPixel, compression: compression,
            masks: masks, palette: palette, dataOffset: dataOffset, pixelsPerMeter: ppm,
            zeroAlphaIsOpaque: infoSize >= 108)
    }

    /// A bit-field channel: its mask, the shift that brings its top 8 bits (or all of a narrower mask) down, and the
    /// table of the 8-bit values. Masks up to 8 bits wide are scaled to 0...255, rounded (5 bits: 3 gives 25); wider
    /// ones keep their top 8 bits (11 bits: 199 gives 24), as Chrome, image-rs and bmpsuite's 16-bit references do.
    struct Channel {
        let mask: UInt32
        let shift: UInt32
        let table: [UInt8]

        init(mask: UInt32, isAlpha: Bool) {
            self.mask = mask
            guard mask != 0 else {
                shift = 0
                table = [isAlpha ? 255 : 0]
                return
            }
            let low = UInt32(mask.trailingZeroBitCount)
            let width = UInt32(UInt32.bitWidth - (mask >> low).leadingZeroBitCount)
            if width > 8 {
                shift = low + width - 8
                table = (0...255).map { UInt8($0) }
            } else {
                shift = low
                let maximum = UInt64(mask >> low)
                table = (0...maximum).map { UInt8(($0 * 255 + maximum / 2) / maximum) }
            }
        }

        /// The channel's 8-bit value in a pixel; `table` is ``table``'s storage.
        @inline(__always)
        func value(_ pixel: UInt32, _ table: UnsafeBufferPointer<UInt8>) -> UInt32 {
            UInt32(table[Int((pixel & mask) >> shift)])
        }
    }

    /// Throws `truncatedBody` when an uncompressed or bit-field image's file is shorter than its rows need (the last
    /// row's padding may be missing), before its pixels are allocated: such a file has no honest reason to exist, and
    /// a few bytes could otherwise claim a full-size canvas of transparent black. Run-length images are exempt: a
    /// short stream legitimately leaves pixels unset (``ImageLimits/maxPixelsPerByte`` bounds them instead).
    static func checkPixelData(_ bytes: UnsafeRawBufferPointer, _ header: Header) throws(SerializationError) {
        guard ![1, 2, 4].contains(header.compression) else { return }
        let stride = (header.width * header.bitsPerPixel + 31) / 32 * 4
        let rowBytes = (header.width * header.bitsPerPixel + 7) / 8
        let (rows, overflow) = stride.multipliedReportingOverflow(by: header.height - 1)
        let (needed, overflow2) = header.dataOffset.addingReportingOverflow(rows &+ rowBytes)
        guard overflow || overflow2 || needed > bytes.count else { return }
        let available = max(0, bytes.count - header.dataOffset)
        throw SerializationError(
            code: .truncatedBody,
            message: "The BMP image (\(header.width)×\(header.height), \(header.bitsPerPixel)-bit) needs "
                + "\(overflow || overflow2 ? "more" : "\(needed - header.dataOffset)") bytes of pixel data from offset "
                + "\(header.dataOffset), but the file holds \(available); it was cut short in transit or its header "
                + "is wrong.",
            offset: bytes.count)
    }

    static func decodePixels(_ bytes: UnsafeRawBufferPointer, _ header: Header) throws(SerializationError) -> [UInt8] {
        guard header.dataOffset < bytes.count else {
            throw SerializationError(
                code: .truncatedBody, message: "The BMP image has no pixel data.", offset: bytes.count)
        }
        let width = header.width
        let height = header.height
        return [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, count in
            let target = UnsafeMutableRawPointer(buffer.baseAddress!)
            let source = bytes.baseAddress!
            if [1, 2, 4].contains(header.compression) {
                // Pixels an RLE stream does not write stay transparent black.
                buffer.initialize(repeating: 0)
                decodeRLE(bytes, header, into: target)
            } else {
                let rows = decodeRows(source, count: bytes.count, header, into: target)
                // Rows the file lacks (only the last row's padding can be, after `checkPixelData`) stay transparent.
                for fileRow in rows..<height {
                    let row = header.topDown ? fileRow : height - 1 - fileRow
                    (target + row * width * 4).initializeMemory(as: UInt8.self, repeating: 0, count: width * 4)
                }
                if header.masks[3] != 0 && header.zeroAlphaIsOpaque {
                    // A V4+ alpha channel left at zero in every decoded pixel is unused, so the image is opaque, as
                    // Chrome shows it (Blink BMPImageReader::ProcessNonRLEData).
                    let firstRow = header.topDown ? 0 : height - rows
                    let decoded = UnsafeMutableBufferPointer(
                        rebasing: buffer[firstRow * width * 4..<(firstRow + rows) * width * 4])
                    let alphas = stride(from: 3, to: decoded.count, by: 4)
                    if alphas.allSatisfy({ decoded[$0] == 0 }) {
                        for index in alphas { decoded[index] = 255 }
                    }
                }
            }
            count = width * height * 4
        }
    }

    /// Decodes the uncompressed and bit-field rows present in the file, one 4-byte store per pixel; returns how many.
    static func decodeRows(
        _ source: UnsafeRawPointer, count byteCount: Int, _ header: Header, into target: UnsafeMutableRawPointer
    ) -> Int {
        let width = header.width
        let height = header.height
        let bitsPerPixel = header.bitsPerPixel
        let stride = (width * bitsPerPixel + 31) / 32 * 4
        let rowBytes = (width * bitsPerPixel + 7) / 8
        let available =
            header.dataOffset + rowBytes <= byteCount ? (byteCount - header.dataOffset - rowBytes) / stride + 1 : 0
        let rows = min(height, available)
        let opaque = UInt32(0xFF00_0000)
        let masks = header.masks
        let standard =
            bitsPerPixel == 32 && masks[0] == 0x00FF_0000 && masks[1] == 0x0000_FF00 && masks[2] == 0x0000_00FF
            && (masks[3] == 0 || masks[3] == 0xFF00_0000)
        let channels = (0..<4).map { Channel(mask: masks[$0], isAlpha: $0 == 3) }
        header.palette.withUnsafeBufferPointer { palette in
            for fileRow in 0..<rows {
                let from = source + header.dataOffset + fileRow * stride
                let to = target + (header.topDown ? fileRow : height - 1 - fileRow) * width * 4
                switch bitsPerPixel {
                case 24:
                    // Four pixels (B G R, 12 bytes) per step, each from a 4-byte load ending at its R byte:
                    // byte-swapped, that is R G B and one byte more, which the opaque alpha replaces.
                    var column = 0
                    while column + 4 <= width {
                        let at = from + column * 3
                        @inline(__always) func load(_ offset: Int) -> UInt32 {
                            UInt32(littleEndian: at.loadUnaligned(fromByteOffset: offset, as: UInt32.self)).byteSwapped
                        }
                        let out = to + column * 4
                        out.storeBytes(of: (load(0) >> 8 | opaque).littleEndian, as: UInt32.self)
                        out.storeBytes(of: (load(2) | opaque).littleEndian, toByteOffset: 4, as: UInt32.self)
                        out.storeBytes(of: (load(5) | opaque).littleEndian, toByteOffset: 8, as: UInt32.self)
                        out.storeBytes(of: (load(8) | opaque).littleEndian, toByteOffset: 12, as: UInt32.self)
                        column += 4
                    }
                    while column < width {
                        let at = from + column * 3
                        let pixel =
                            UInt32(at.load(fromByteOffset: 2, as: UInt8.self))
                            | UInt32(at.load(fromByteOffset: 1, as: UInt8.self)) << 8
                            | UInt32(at.load(as: UInt8.self)) << 16
                        (to + column * 4).storeBytes(of: (pixel | opaque).littleEndian, as: UInt32.self)
                        column += 1
                    }
                case 32 where standard:
                    let alpha = masks[3] == 0 ? opaque : 0
                    for column in 0..<width {
                        let value = UInt32(
                            littleEndian: from.loadUnaligned(fromByteOffset: column * 4, as: UInt32.self))
                        let pixel = (value >> 16 & 0xFF) | (value & 0xFF00_FF00) | (value & 0xFF) << 16 | alpha
                        (to + column * 4).storeBytes(of: pixel.littleEndian, as: UInt32.self)
                    }
                case 16, 32:
                    channels[0].table.withUnsafeBufferPointer { red in
                        channels[1].table.withUnsafeBufferPointer { green in
                            channels[2].table.withUnsafeBufferPointer { blue in
                                channels[3].table.withUnsafeBufferPointer { alpha in
                                    for column in 0..<width {
                                        let value =
                                            bitsPerPixel == 32
                                            ? UInt32(
                                                littleEndian: from.loadUnaligned(
                                                    fromByteOffset: column * 4, as: UInt32.self))
                                            : UInt32(
                                                UInt16(
                                                    littleEndian: from.loadUnaligned(
                                                        fromByteOffset: column * 2, as: UInt16.self)))
                                        let pixel =
                                            channels[0].value(value, red) | channels[1].value(value, green) << 8
                                            | channels[2].value(value, blue) << 16
                                            | channels[3].value(value, alpha) << 24
                                        (to + column * 4).storeBytes(of: pixel.littleEndian, as: UInt32.self)
                                    }
                                }
                            }
                        }
                    }
                case 8:
                    for column in 0..<width {
                        let index = Int(from.load(fromByteOffset: column, as: UInt8.self))
                        (to + column * 4).storeBytes(of: palette[index], as: UInt32.self)
                    }
                default:  // 1, 2 and 4 bits per pixel, the first pixel in the high bits
                    let perByte = 8 / bitsPerPixel
                    let indexMask = (1 << bitsPerPixel) - 1
                    for column in 0..<width {
                        let byte = Int(from.load(fromByteOffset: column / perByte, as: UInt8.self))
                        let index = byte >> (8 - bitsPerPixel - column % perByte * bitsPerPixel) & indexMask
                        (to + column * 4).storeBytes(of: palette[index], as: UInt32.self)
                    }
                }
            }
        }
        return rows
    }

    /// Decodes RLE8, RLE4 or RLE24 data into a zeroed canvas: runs and absolute runs clipped to the row, end of line,
    /// end of bitmap, and deltas. An RLE24 run is a count and one B, G, R pixel (4 bytes); an absolute run is 3 bytes a
    /// pixel; absolute runs are padded to a 16-bit boundary in all three.
    static func decodeRLE(_ bytes: UnsafeRawBufferPointer, _ header: Header, into target: UnsafeMutableRawPointer) {
        let width = header.width
        let height = header.height
        let isFour = header.compression == 2
        let isTwentyFour = header.compression == 4
        var x = 0
        var fileRow = 0
        var position = header.dataOffset
        /// The opaque RGBA8 pixel (in memory order) from the B, G, R bytes at `at`.
        func colour(at: Int) -> UInt32 {
            (UInt32(bytes[at + 2]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at]) << 16 | 0xFF00_0000).littleEndian
        }
        header.palette.withUnsafeBufferPointer { palette in
            /// Where the next pixel goes and how many fit on its row (0 past the row's end).
            func room() -> (UnsafeMutableRawPointer, Int) {
                let row = header.topDown ? fileRow : height - 1 - fileRow
                return (target + (row * width + x) * 4, max(0, width - x))
            }
            decoding: while position + 1 < bytes.count && fileRow < height {
                let count = Int(bytes[position])
                let value = Int(bytes[position + 1])
                position += 2
                if count > 0 {
                    let even: UInt32
                    let odd: UInt32
                    if isTwentyFour {
                        // `value` is the pixel's blue byte; green and red follow.
                        guard position + 1 < bytes.count else { break decoding }
                        even = colour(at: position - 1)
                        odd = even
                        position += 2
                    } else {
                        even = palette[isFour ? value >> 4 : value]
                        odd = palette[isFour ? value & 15 : value]
                    }
                    let (to, room) = room()
                    let pixels = min(count, room)
                    for step in 0..<pixels {
                        to.storeBytes(of: step & 1 == 0 ? even : odd, toByteOffset: step * 4, as: UInt32.self)
                    }
                    x += pixels
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
                    let byteCount = isFour ? (value + 1) / 2 : isTwentyFour ? value * 3 : value
                    guard position + byteCount <= bytes.count else { break decoding }
                    let (to, room) = room()
                    let pixels = min(value, room)
                    for step in 0..<pixels {
                        let pixel =
                            isTwentyFour
                            ? colour(at: position + step * 3)
                            : palette[
                                isFour
                                    ? Int(bytes[position + step / 2]) >> (step & 1 == 0 ? 4 : 0) & 15
                                    : Int(bytes[position + step])]
                        to.storeBytes(of: pixel, toByteOffset: step * 4, as: UInt32.self)
                    }
                    x += pixels
                    position += (byteCount + 1) & ~1
                }
            }
        }
    }
}
