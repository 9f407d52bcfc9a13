import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// An ICO/CUR decoder (Windows icon resource format, `ICONDIR`/`ICONDIRENTRY`): PNG entries and BMP (DIB) entries
/// with their AND transparency mask; the largest entry (or the one closest to `icoPreferredSize`) is decoded, every
/// entry is listed.
enum ICODecoder {
    struct DirectoryEntry {
        var width: Int
        var height: Int
        var bitsPerPixel: Int
        var offset: Int
        var size: Int
    }

    static func invalid(_ offset: Int, _ message: String) -> SerializationError {
        SerializationError(code: .invalidBody, message: "The icon file is invalid: \(message).", offset: offset)
    }

    static func decode(_ data: Data, options: ImageDecodingOptions) throws(SerializationError) -> Image {
        // The file is read in place: only the chosen entry is copied, once, for its decoder.
        try ImageDecoder.withBytes(of: data) { bytes throws(SerializationError) in
            try decode(bytes, source: data, options: options)
        }
    }

    /// Decodes the icon file `bytes` (whose `Data` is `source`, kept for lazy decoding).
    static func decode(
        _ bytes: UnsafeRawBufferPointer, source data: Data, options: ImageDecodingOptions
    ) throws(SerializationError) -> Image {
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        func u32(_ offset: Int) -> Int { u16(offset) | u16(offset + 2) << 16 }
        guard bytes.count >= 6 else {
            throw SerializationError(code: .truncatedBody, message: "The icon file ends inside its header.")
        }
        let format: Image.Format = u16(2) == 2 ? .cur : .ico
        let count = u16(4)
        guard count > 0 else { throw invalid(4, "the directory lists no images") }
        guard bytes.count >= 6 + count * 16 else {
            throw SerializationError(
                code: .truncatedBody, message: "The icon file ends inside its directory.", offset: bytes.count)
        }
        var directory: [DirectoryEntry] = []
        var entries: [Image.Entry] = []
        for index in 0..<count {
            let at = 6 + index * 16
            let width = bytes[at] == 0 ? 256 : Int(bytes[at])
            let height = bytes[at + 1] == 0 ? 256 : Int(bytes[at + 1])
            let offset = u32(at + 12)
            let size = u32(at + 8)
            let isPNG = offset + 8 <= bytes.count && bytes[offset..<(offset + 8)].elementsEqual(PNGDecoder.signature)
            let bitsPerPixel = format == .ico ? u16(at + 6) : 0
            directory.append(
                DirectoryEntry(width: width, height: height, bitsPerPixel: bitsPerPixel, offset: offset, size: size))
            entries.append(
                Image.Entry(width: width, height: height, bitsPerPixel: bitsPerPixel, format: isPNG ? .png : .bmp))
        }
        let chosen = choose(directory, preferredSize: options.icoPreferredSize)
        let entry = directory[chosen]
        guard entry.offset < bytes.count, entry.size > 0 else {
            throw invalid(6 + chosen * 16, "the chosen image lies outside the file")
        }
        guard options.inflate else {
            // The entry's own header has the size decoding gives; the directory's bytes can disagree with it.
            let (width, height) = headerSize(bytes, at: entry.offset) ?? (entry.width, entry.height)
            var image = Image(
                undecoded: width, height: height, format: format, metadata: Image.Metadata(), source: data,
                options: options)
            image.entries = entries
            image.chosenEntry = chosen
            return image
        }
        let end = min(bytes.count, entry.offset + entry.size)
        var image: Image
        if entries[chosen].format == .png {
            image = try PNGDecoder.decode(Data(bytes[entry.offset..<end]), options: options)
        } else {
            // The bitmap decoder gets one copy of the entry, behind a BMP file header.
            image = try decodeBitmap(
                UnsafeRawBufferPointer(rebasing: bytes[entry.offset..<end]), entry: chosen,
                directorySize: entry.size, options: options)
        }
        image.format = format
        image.entries = entries
        image.chosenEntry = chosen
        return image
    }

    /// The size an entry's PNG `IHDR` or DIB header gives, or `nil` when the header is cut off or malformed.
    /// Decodes a 32-bit `BI_RGB` icon bitmap (BGRA rows, bottom-up, `width * 4` bytes each from `xorStart`) as the
    /// bitmap path does: its alpha bytes, or when they are all 0 the AND mask that follows (masked pixels transparent
    /// black, the rest opaque). The caller checked that `dib` holds every row.
    static func decode32BitEntry(
        _ dib: UnsafeRawBufferPointer, width: Int, height: Int, xorStart: Int, maskStride: Int
    ) -> Image {
        let stride = width * 4
        var hasAlpha = false
        var pixels = [UInt8](unsafeUninitializedCapacity: width * height * 4) { buffer, initialized in
            guard let out = buffer.baseAddress, let base = dib.baseAddress else { return }
            let target = UnsafeMutableRawPointer(out)
            for row in 0..<height {
                let source = base + xorStart + row * stride
                let rowTarget = target + (height - 1 - row) * stride
                var alphas: UInt32 = 0
                for column in 0..<width {
                    // B, G, R, A as a little-endian word; R and B swap places.
                    let word = UInt32(littleEndian: source.loadUnaligned(fromByteOffset: column &* 4, as: UInt32.self))
                    let swapped = (word & 0xFF00_FF00) | (word &>> 16 & 0xFF) | ((word & 0xFF) &<< 16)
                    rowTarget.storeBytes(of: swapped.littleEndian, toByteOffset: column &* 4, as: UInt32.self)
                    alphas |= word
                }
                if alphas & 0xFF00_0000 != 0 { hasAlpha = true }
            }
            initialized = width * height * 4
        }
        if !hasAlpha {
            pixels.withUnsafeMutableBufferPointer { pixels in
                applyMask(
                    dib, from: xorStart + stride * height, stride: maskStride, width: width, height: height,
                    to: pixels)
            }
        }
        var metadata = Image.Metadata()
        metadata.bitDepth = 32
        metadata.colorType = .rgb
        metadata.hasTransparency = true
        func u32(_ offset: Int) -> Int {
            Int(
                Int32(
                    bitPattern: UInt32(dib[offset]) | UInt32(dib[offset + 1]) << 8 | UInt32(dib[offset + 2]) << 16
                        | UInt32(dib[offset + 3]) << 24))
        }
        let perMeter = (u32(24), u32(28))
        if perMeter.0 > 0 { metadata.pixelsPerMeter = perMeter }
        return Image(width: width, height: height, pixels: pixels, format: .bmp, metadata: metadata)
    }

    /// Applies an icon's AND mask (1 bit per pixel, rows bottom-up, `stride` bytes each, from `start` in `dib`) to
    /// top-down RGBA8 `pixels`: masked pixels become transparent black, as Windows draws them over any background, the
    /// others opaque. Mask bytes past the end of `dib` leave their pixels opaque.
    static func applyMask(
        _ dib: UnsafeRawBufferPointer, from start: Int, stride: Int, width: Int, height: Int,
        to pixels: UnsafeMutableBufferPointer<UInt8>
    ) {
        for row in 0..<height {
            let rowStart = start + row * stride
            let target = (height - 1 - row) * width * 4
            for column in 0..<width {
                let at = rowStart + column / 8
                let transparent = at < dib.count && dib[at] >> UInt8(7 - column % 8) & 1 == 1
                let pixel = target + column * 4
                if transparent {
                    pixels[pixel] = 0
                    pixels[pixel + 1] = 0
                    pixels[pixel + 2] = 0
                    pixels[pixel + 3] = 0
                } else {
                    pixels[pixel + 3] = 255
                }
            }
        }
    }

    static func headerSize(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> (Int, Int)? {
        guard offset >= 0, offset + 24 <= bytes.count else { return nil }
        func big(_ at: Int) -> Int { bytes[at..<(at + 4)].reduce(0) { $0 << 8 | Int($1) } }
        func little(_ at: Int) -> Int { bytes[at..<(at + 4)].reversed().reduce(0) { $0 << 8 | Int($1) } }
        if bytes[offset..<(offset + 8)].elementsEqual(PNGDecoder.signature) {
            return (big(offset + 16), big(offset + 20))
        }
        let width = little(offset + 4)
        let height = Int(Int32(truncatingIfNeeded: little(offset + 8))) / 2
        guard width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// The index of the entry to decode: the one whose larger side is closest to `preferredSize`, or with `nil` the
    /// largest by area; ties go to the larger entry, then the deeper one, then the first listed.
    static func choose(_ directory: [DirectoryEntry], preferredSize: Int?) -> Int {
        func key(_ entry: DirectoryEntry) -> (Int, Int, Int) {
            let area = entry.width * entry.height
            guard let preferredSize else { return (0, area, entry.bitsPerPixel) }
            return (-abs(max(entry.width, entry.height) - preferredSize), area, entry.bitsPerPixel)
        }
        var chosen = 0
        for index in directory.indices.dropFirst() where key(directory[index]) > key(directory[chosen]) {
            chosen = index
        }
        return chosen
    }

    /// A DIB entry: a BMP without its file header, twice as tall (the XOR image, then the 1-bit AND mask). `dib` is
    /// entry `index`'s bytes, `directorySize` long in the directory or shorter where the file ends first.
    ///
    /// An uncompressed or bit-field DIB must hold its header, palette, pixel rows and AND mask; a 32-bit one may cut
    /// its AND mask short (its alpha channel carries the transparency; image-rs's `truncated_mask_32bpp.ico`).
    static func decodeBitmap(
        _ dib: UnsafeRawBufferPointer, entry index: Int, directorySize: Int, options: ImageDecodingOptions
    ) throws(SerializationError) -> Image {
        guard dib.count >= 40 else {
            throw SerializationError(code: .truncatedBody, message: "The icon's bitmap ends inside its header.")
        }
        func u16(_ offset: Int) -> Int { Int(dib[offset]) | Int(dib[offset + 1]) << 8 }
        func u32(_ offset: Int) -> Int { u16(offset) | u16(offset + 2) << 16 }
        let infoSize = u32(0)
        let width = u32(4)
        let height = Int(Int32(truncatingIfNeeded: u32(8))) / 2
        let bitsPerPixel = u16(14)
        let compression = u32(16)
        let colorsUsed = u32(32)
        guard infoSize >= 40, infoSize <= dib.count, width > 0, height > 0 else {
            throw invalid(0, "the icon's bitmap header is malformed")
        }
        try options.limits.check(width: width, height: height)
        try options.limits.checkProduced(
            width * height, "entry \(index), \(width)×\(height)", format: .ico, bodySize: dib.count)
        var paletteSize = bitsPerPixel <= 8 ? (colorsUsed > 0 ? colorsUsed : 1 << bitsPerPixel) * 4 : 0
        if compression == 3 && infoSize == 40 { paletteSize += 12 }
        let dataOffset = 14 + infoSize + paletteSize
        let xorStride = (width * bitsPerPixel + 31) / 32 * 4
        let maskStride = (width + 31) / 32 * 4
        if [1, 2, 4, 8, 16, 24, 32].contains(bitsPerPixel) && [0, 3, 6].contains(compression) {
            func product(_ a: Int, _ b: Int) -> Int {
                let (value, overflow) = a.multipliedReportingOverflow(by: b)
                return overflow ? Int.max / 4 : value
            }
            let pixels = infoSize + paletteSize + product(xorStride, height)
            let mask = bitsPerPixel == 32 ? 0 : product(maskStride, height)
            guard dib.count >= pixels + mask else {
                let held = dib.count < directorySize ? " (the file ends after \(dib.count))" : ""
                let needs =
                    mask == 0
                    ? "\(pixels) for its header, palette and pixel rows"
                    : "\(pixels + mask): \(pixels) for its header, palette and pixel rows, \(mask) for its AND mask"
                throw SerializationError(
                    code: .truncatedBody,
                    message: "The icon's entry \(index) (\(width)×\(height), \(bitsPerPixel)-bit) is too short "
                        + "for its bitmap: the directory gives it \(directorySize) bytes\(held), but the bitmap "
                        + "needs \(needs). The file is cut short or its directory entry's size is wrong; re-export "
                        + "the icon.",
                    offset: 6 + index * 16 + 8)
            }
        }
        if bitsPerPixel == 32 && compression == 0 && infoSize == 40 {
            // The common modern entry (32-bit BGRA, bottom-up, with an AND mask that only matters when every alpha
            // is 0) in one pass over the entry, without rebuilding a bitmap file; the checks above keep every row in
            // bounds.
            return decode32BitEntry(dib, width: width, height: height, xorStart: infoSize, maskStride: maskStride)
        }
        // Rebuild a BMP file: a file header, then the DIB with the XOR image's height (one copy of the entry).
        var file: [UInt8] = [0x42, 0x4D]
        file.reserveCapacity(14 + dib.count)
        for value in [14 + dib.count, 0, dataOffset] {
            file += [
                UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24 & 0xFF),
            ]
        }
        file.append(contentsOf: dib)
        file[14 + 8] = UInt8(height & 0xFF)
        file[14 + 9] = UInt8(height >> 8 & 0xFF)
        file[14 + 10] = UInt8(height >> 16 & 0xFF)
        file[14 + 11] = UInt8(height >> 24 & 0xFF)
        var decodingOptions = options
        decodingOptions.inflate = true
        // `source` is only kept for lazy decoding, which is off here.
        var image = try ImageDecoder.withBytes(of: file) { bytes throws(SerializationError) in
            try BMPDecoder.decode(bytes, source: Data(), options: decodingOptions)
        }
        let xorStart = infoSize + paletteSize
        var hasAlpha = false
        image.pixels.withUnsafeMutableBufferPointer { pixels in
            if bitsPerPixel == 32 {
                // 32-bit icons carry real alpha in the fourth byte; when every alpha is 0 the AND mask applies.
                for row in 0..<height {
                    let target = (height - 1 - row) * width * 4 + 3
                    let source = xorStart + row * xorStride + 3
                    for column in 0..<min(width, max(0, (dib.count - source + 3) / 4)) {
                        let alpha = dib[source + column * 4]
                        pixels[target + column * 4] = alpha
                        if alpha != 0 { hasAlpha = true }
                    }
                }
            }
            guard !hasAlpha else { return }
            applyMask(
                dib, from: xorStart + xorStride * height, stride: maskStride, width: width, height: height,
                to: pixels)
        }
        image.metadata.hasTransparency = true
        return image
    }
}
