import DecantCompression
import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A PNG decoder (W3C PNG Specification, Third Edition; ISO/IEC 15948): every colour type and bit depth, palettes and
/// `tRNS`, Adam7 interlacing, the five filters, CRCs checked and the critical-chunk rules enforced; APNG animation in
/// PNGDecoder+Animation.swift.
enum PNGDecoder {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// The IHDR fields (PNG §11.2.1).
    struct Header {
        var width: Int
        var height: Int
        var bitDepth: Int
        var colorType: Int
        var interlaced: Bool

        var channels: Int {
            switch colorType {
            case 2: return 3
            case 4: return 2
            case 6: return 4
            default: return 1
            }
        }
        var bitsPerPixel: Int { channels * bitDepth }
        /// The bytes per pixel decoding the default image takes: RGBA8, RGBA16 for 16-bit sources, and the inflated
        /// data when it is kept.
        func decodingBytesPerPixel(keepingImageData: Bool) -> Int {
            4 + (bitDepth == 16 ? 8 : 0) + (keepingImageData ? (bitsPerPixel + 7) / 8 : 0)
        }
        /// The filter's byte distance (PNG §7.3): bytes per complete pixel, at least 1.
        var filterStride: Int { max(1, bitsPerPixel / 8) }
        func rowBytes(_ width: Int) -> Int { (width * bitsPerPixel + 7) / 8 }
    }

    /// The Adam7 passes (PNG §8.2): x start, y start, x step, y step.
    static let adam7: [(Int, Int, Int, Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// What the chunks say, before pixels are decoded.
    struct Parsed {
        var header: Header
        /// RGBA8 for each of the 256 indices: an index past the palette is opaque black, as Pillow (and libpng's
        /// expansion) gives it; tRNS lowers the alpha of the entries it covers.
        var palette: [UInt8] = (0..<(256 * 4)).map { $0 & 3 == 3 ? 255 : 0 }
        var paletteCount = 0
        /// A `tRNS` key colour for colour types 0 and 2, in source sample values.
        var transparentKey: (UInt16, UInt16, UInt16)?
        var compressed: [UInt8] = []
        var metadata = Image.Metadata()
        /// The APNG chunks (`acTL`, `fcTL`, `fdAT`), see PNGDecoder+Animation.swift.
        var animation = Animation()
    }

    static func decode(_ data: Data, options: ImageDecodingOptions) throws(SerializationError) -> Image {
        try ImageDecoder.withBytes(of: data) { raw throws(SerializationError) in
            let parsed = try parse(raw, keepingImageData: options.inflate, limits: options.limits)
            guard options.inflate else {
                var image = Image(
                    undecoded: parsed.header.width, height: parsed.header.height, format: .png,
                    metadata: parsed.metadata, source: data, options: options)
                // The frame count the chunks declare; see PNGDecoder+Animation.swift for when it is 1.
                image.frameCount = parsed.animation.soundFrameCount ?? 1
                return image
            }
            var image = try decodePixels(parsed, scale: options.imageScale)
            if let frames = decodeFrames(parsed, defaultImage: image.pixels) {
                image.frames = options.premultipliedAlpha ? frames.map(premultiplied) : frames
                image.frameCount = frames.count
            }
            return image
        }
    }

    static func invalid(_ offset: Int, _ message: String) -> SerializationError {
        SerializationError(code: .invalidBody, message: "The PNG image is invalid: \(message).", offset: offset)
    }

    static func truncated(_ offset: Int, _ what: String) -> SerializationError {
        SerializationError(
            code: .truncatedBody,
            message: "The PNG image ends in the middle of \(what); the body was probably cut off in transit.",
            offset: offset)
    }

    static func readUInt32(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> UInt32 {
        UInt32(raw[offset]) << 24 | UInt32(raw[offset + 1]) << 16 | UInt32(raw[offset + 2]) << 8
            | UInt32(raw[offset + 3])
    }

    /// Walks the chunks (PNG §5.3, §5.6), checking CRCs and ordering, and collects the image data.
    static func parse(
        _ raw: UnsafeRawBufferPointer, keepingImageData: Bool, limits: ImageLimits
    ) throws(SerializationError) -> Parsed {
        guard raw.count >= 8 else { throw truncated(raw.count, "its signature") }
        for index in 0..<8 where raw[index] != signature[index] {
            throw invalid(index, "the signature (PNG §5.2) is damaged at byte \(index), as by a text-mode transfer")
        }
        var parsed: Parsed?
        var position = 8
        var sawPalette = false
        var imageDataState = 0  // 0 before IDAT, 1 inside the IDAT run, 2 after it
        var sawEnd = false
        while !sawEnd {
            guard position + 8 <= raw.count else { throw truncated(raw.count, "a chunk header (or IEND is missing)") }
            let length = Int(readUInt32(raw, position))
            guard length <= 0x7FFF_FFFF else {
                throw invalid(position, "a chunk length exceeds 2^31-1 (PNG §5.3)")
            }
            let typeBytes = (raw[position + 4], raw[position + 5], raw[position + 6], raw[position + 7])
            let type = String(decoding: [typeBytes.0, typeBytes.1, typeBytes.2, typeBytes.3], as: UTF8.self)
            for byte in [typeBytes.0, typeBytes.1, typeBytes.2, typeBytes.3]
            where !((0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)) {
                throw invalid(position + 4, "a chunk type is not four ASCII letters (PNG §5.3)")
            }
            let dataStart = position + 8
            guard dataStart + length + 4 <= raw.count else { throw truncated(raw.count, "the \(type) chunk") }
            let stored = readUInt32(raw, dataStart + length)
            let computed = Checksum.crc32(UnsafeRawBufferPointer(rebasing: raw[(position + 4)..<(dataStart + length)]))
            let isAnimationChunk = type == "acTL" || type == "fcTL" || type == "fdAT"
            if imageDataState == 1 && type != "IDAT" { imageDataState = 2 }
            guard stored == computed else {
                // A damaged APNG chunk costs the animation, not the default image (PNG Third Edition, APNG error
                // handling), as in browsers.
                guard isAnimationChunk, parsed != nil else {
                    throw invalid(
                        dataStart + length, "the CRC of the \(type) chunk is wrong (PNG §5.3): the file is corrupt")
                }
                parsed!.animation.fail(at: position, "the CRC of an \(type) chunk is wrong")
                position = dataStart + length + 4
                continue
            }
            let body = UnsafeRawBufferPointer(rebasing: raw[dataStart..<(dataStart + length)])
            if parsed == nil && type != "IHDR" {
                throw invalid(position, "the first chunk is \(type), not IHDR (PNG §5.6)")
            }
            switch type {
            case "IHDR":
                guard parsed == nil else { throw invalid(position, "there is a second IHDR chunk (PNG §5.6)") }
                let header = try parseHeader(body, at: dataStart)
                try limits.check(
                    width: header.width, height: header.height,
                    bytesPerPixel: header.decodingBytesPerPixel(keepingImageData: keepingImageData))
                if keepingImageData {
                    try limits.checkProduced(
                        header.width * header.height, "\(header.width)×\(header.height)", format: .png,
                        bodySize: raw.count)
                }
                var new = Parsed(header: header)
                new.metadata.bitDepth = header.bitDepth
                new.metadata.colorType =
                    [0: .grayscale, 2: .rgb, 3: .indexed, 4: .grayscaleAlpha, 6: .rgba][
                        header.colorType]
                new.metadata.isInterlaced = header.interlaced
                new.metadata.hasTransparency = header.colorType == 4 || header.colorType == 6
                parsed = new
            case "PLTE":
                guard !sawPalette else { throw invalid(position, "there is a second PLTE chunk (PNG §5.6)") }
                guard imageDataState == 0 else { throw invalid(position, "PLTE comes after IDAT (PNG §5.6)") }
                let colorType = parsed!.header.colorType
                guard colorType != 0 && colorType != 4 else {
                    throw invalid(position, "a greyscale image has a PLTE chunk (PNG §11.2.2)")
                }
                guard length % 3 == 0, length >= 3, length <= 768 else {
                    throw invalid(
                        position,
                        "the PLTE chunk's length \(length) is not 3 to 768 bytes in threes "
                            + "(PNG §11.2.2)")
                }
                sawPalette = true
                parsed!.paletteCount = length / 3
                for entry in 0..<(length / 3) {
                    parsed!.palette[entry * 4] = body[entry * 3]
                    parsed!.palette[entry * 4 + 1] = body[entry * 3 + 1]
                    parsed!.palette[entry * 4 + 2] = body[entry * 3 + 2]
                    parsed!.palette[entry * 4 + 3] = 255
                }
            case "IDAT":
                guard imageDataState != 2 else {
                    throw invalid(position, "IDAT chunks are not consecutive (PNG §5.6)")
                }
                if parsed!.header.colorType == 3 && !sawPalette {
                    throw invalid(position, "an indexed-colour image has no PLTE before its IDAT (PNG §11.2.2)")
                }
                imageDataState = 1
                if keepingImageData { parsed!.compressed.append(contentsOf: body) }
            case "IEND":
                sawEnd = true
            case "acTL":
                try readAnimationControl(
                    body, at: position, into: &parsed!, afterImageData: imageDataState != 0, limits: limits,
                    keepingImageData: keepingImageData, bodySize: raw.count)
            case "fcTL":
                parsed!.animation.readFrameControl(
                    body, at: position, canvas: parsed!.header, afterImageData: imageDataState != 0)
            case "fdAT":
                parsed!.animation.readFrameData(
                    body, at: position, afterImageData: imageDataState != 0, keepingImageData: keepingImageData)
            case "tRNS":
                guard imageDataState == 0 else { throw invalid(position, "tRNS comes after IDAT (PNG §5.6)") }
                try parseTransparency(body, at: position, sawPalette: sawPalette, into: &parsed!)
            case "gAMA" where length == 4:
                parsed!.metadata.gamma = Double(readUInt32(raw, dataStart)) / 100_000
            case "sRGB" where length == 1:
                parsed!.metadata.sRGBIntent = Int(body[0])
            case "iCCP":
                parsed!.metadata.hasICCProfile = true
                let name = body.prefix { $0 != 0 }
                parsed!.metadata.iccProfileName = String(decoding: name, as: UTF8.self)
            case "pHYs" where length == 9:
                let x = Int(readUInt32(raw, dataStart))
                let y = Int(readUInt32(raw, dataStart + 4))
                if body[8] == 1 {
                    parsed!.metadata.pixelsPerMeter = (x, y)
                } else {
                    parsed!.metadata.pixelAspect = (x, y)
                }
            default:
                if typeBytes.0 & 0x20 == 0 {
                    throw SerializationError(
                        code: .unsupportedFeature,
                        message: "The PNG image has a critical chunk '\(type)' that this decoder does not know, so "
                            + "it cannot be displayed correctly (PNG §5.4).",
                        offset: position)
                }
            }
            position = dataStart + length + 4
        }
        guard var parsed else { throw invalid(8, "there is no IHDR chunk") }
        guard imageDataState != 0 else { throw invalid(position, "there is no IDAT chunk (PNG §5.6)") }
        if parsed.header.colorType == 3 && !sawPalette {
            throw invalid(position, "an indexed-colour image has no PLTE chunk (PNG §11.2.2)")
        }
        parsed.animation.finish(at: position)
        return parsed
    }

    static func parseHeader(_ body: UnsafeRawBufferPointer, at offset: Int) throws(SerializationError) -> Header {
        guard body.count == 13 else { throw invalid(offset, "the IHDR chunk is \(body.count) bytes, not 13") }
        let width = Int(readUInt32(body, 0))
        let height = Int(readUInt32(body, 4))
        guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw invalid(offset, "the size \(width)×\(height) is not 1 to 2^31-1 in each direction (PNG §11.2.1)")
        }
        let depth = Int(body[8])
        let colorType = Int(body[9])
        let allowed: [Int: [Int]] = [0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16]]
        guard let depths = allowed[colorType] else {
            throw invalid(offset + 9, "the colour type \(colorType) is not 0, 2, 3, 4 or 6 (PNG §11.2.1)")
        }
        guard depths.contains(depth) else {
            throw invalid(
                offset + 8,
                "the bit depth \(depth) is not allowed with colour type \(colorType) (PNG §11.2.1 "
                    + "allows \(depths.map(String.init).joined(separator: ", ")))")
        }
        guard body[10] == 0 else { throw invalid(offset + 10, "the compression method is not 0 (PNG §11.2.1)") }
        guard body[11] == 0 else { throw invalid(offset + 11, "the filter method is not 0 (PNG §11.2.1)") }
        guard body[12] <= 1 else { throw invalid(offset + 12, "the interlace method is not 0 or 1 (PNG §11.2.1)") }
        return Header(width: width, height: height, bitDepth: depth, colorType: colorType, interlaced: body[12] == 1)
    }

    static func parseTransparency(
        _ body: UnsafeRawBufferPointer, at offset: Int, sawPalette: Bool, into parsed: inout Parsed
    ) throws(SerializationError) {
        func sample(_ index: Int) -> UInt16 { UInt16(body[index]) << 8 | UInt16(body[index + 1]) }
        switch parsed.header.colorType {
        case 0:
            guard body.count == 2 else {
                throw invalid(offset, "a greyscale tRNS chunk is not 2 bytes (PNG §11.3.2.1)")
            }
            parsed.transparentKey = (sample(0), sample(0), sample(0))
        case 2:
            guard body.count == 6 else {
                throw invalid(offset, "a truecolour tRNS chunk is not 6 bytes (PNG §11.3.2.1)")
            }
            parsed.transparentKey = (sample(0), sample(2), sample(4))
        case 3:
            guard sawPalette else { throw invalid(offset, "tRNS comes before PLTE (PNG §5.6)") }
            guard body.count <= parsed.paletteCount else {
                throw invalid(offset, "the tRNS chunk has more entries than the palette (PNG §11.3.2.1)")
            }
            for index in 0..<body.count { parsed.palette[index * 4 + 3] = body[index] }
        default:
            return  // tRNS is not allowed with an alpha channel; ignored, as libpng does.
        }
        parsed.metadata.hasTransparency = true
    }

    /// Inflates, unfilters and converts the image data to RGBA8 (and RGBA16 for 16-bit sources).
    static func decodePixels(_ parsed: Parsed, scale: Double) throws(SerializationError) -> Image {
        let header = parsed.header
        let pixelCount = header.width * header.height
        // Every pixel is written by decodeImageData (Adam7's passes cover the image), so the storage starts
        // uninitialised.
        var pixels = [UInt8](unsafeUninitializedCapacity: pixelCount * 4) { _, count in count = pixelCount * 4 }
        var samples16: [UInt16]? = header.bitDepth == 16 ? [UInt16](repeating: 0, count: pixelCount * 4) : nil
        let converter = RowConverter(parsed: parsed)
        try pixels.withUnsafeMutableBufferPointer { (rgba) throws(SerializationError) in
            guard samples16 != nil else {
                return try decodeImageData(
                    parsed.compressed, header: header, converter: converter, naming: "IDAT",
                    into: rgba.baseAddress!, wide: nil)
            }
            try samples16!.withUnsafeMutableBufferPointer { (wide) throws(SerializationError) in
                try decodeImageData(
                    parsed.compressed, header: header, converter: converter, naming: "IDAT",
                    into: rgba.baseAddress!, wide: wide.baseAddress!)
            }
        }
        var image = Image(
            width: header.width, height: header.height, pixels: pixels, format: .png, scale: scale,
            metadata: parsed.metadata)
        image.samples16 = samples16
        return image
    }

    /// Inflates and unfilters one image's data (PNG §7-9) of `header`'s size, colour type, depth and interlacing,
    /// and converts it to RGBA8 at `pixels` and, when `wide` is given, RGBA16 at `wide` (`width * height * 4` samples
    /// each, every one written). `chunk` names the data in error messages: `IDAT`, or `fdAT` for an APNG frame.
    static func decodeImageData(
        _ compressed: [UInt8], header: Header, converter: RowConverter, naming chunk: String,
        into pixels: UnsafeMutablePointer<UInt8>, wide: UnsafeMutablePointer<UInt16>?
    ) throws(SerializationError) {
        var passes: [(x: Int, y: Int, dx: Int, dy: Int, width: Int, height: Int)] = []
        if header.interlaced {
            for (x, y, dx, dy) in adam7 {
                let width = (header.width - x + dx - 1) / dx
                let height = (header.height - y + dy - 1) / dy
                if width > 0 && height > 0 { passes.append((x, y, dx, dy, width, height)) }
            }
        } else {
            passes.append((0, 0, 1, 1, header.width, header.height))
        }
        let expected = passes.reduce(0) { $0 + $1.height * (header.rowBytes($1.width) + 1) }
        var output = OutputBuffer(exactly: expected)
        defer { output.deallocate() }
        let inflated: SerializationError? = compressed.withUnsafeBytes { compressed in
            do throws(InflateError) {
                _ = try Inflate.zlib(compressed, into: &output)
                return nil
            } catch {
                var error = SerializationError(error)
                error.message = "The PNG image data (\(chunk)) cannot be decompressed. " + error.message
                return error
            }
        }
        if let inflated { throw inflated }
        guard output.count == expected else {
            throw invalid(
                0, "the image data (\(chunk)) holds \(output.count) bytes where \(expected) are needed (PNG §7)")
        }
        var offset = 0
        let zeroRow = [UInt8](repeating: 0, count: header.rowBytes(header.width) + 1)
        try zeroRow.withUnsafeBufferPointer { (zeros) throws(SerializationError) in
            for pass in passes {
                let rowBytes = header.rowBytes(pass.width)
                var previous = zeros.baseAddress! + 1
                for row in 0..<pass.height {
                    let line = output.base + offset
                    guard line[0] <= 4 else {
                        throw invalid(offset, "a row has the unknown filter type \(line[0]) (PNG §9.2 defines 0 to 4)")
                    }
                    unfilter(
                        line + 1, filter: line[0], previous: previous, count: rowBytes, stride: header.filterStride)
                    let y = pass.y + row * pass.dy
                    let destination = (y * header.width + pass.x) * 4
                    converter.convert(
                        UnsafePointer(line + 1), count: pass.width, into: pixels + destination, step: pass.dx * 4)
                    if let wide {
                        converter.convert16(
                            UnsafePointer(line + 1), count: pass.width, into: wide + destination, step: pass.dx * 4)
                    }
                    previous = UnsafePointer(line + 1)
                    offset += rowBytes + 1
                }
            }
        }
    }

    /// Reverses one row's filter in place (PNG §7.3, §9.2-9.4), with loops specialised for the common strides.
    @inline(__always)
    static func unfilter(
        _ row: UnsafeMutablePointer<UInt8>, filter: UInt8, previous: UnsafePointer<UInt8>, count: Int, stride: Int
    ) {
        switch filter {
        case 0:
            return
        case 2:
            for index in 0..<count { row[index] &+= previous[index] }
        default:
            switch stride {
            case 1: unfilter(row, filter: filter, previous: previous, count: count, fixedStride: 1)
            case 2: unfilter(row, filter: filter, previous: previous, count: count, fixedStride: 2)
            case 3:
                if filter == 4 {
                    paeth3(row, previous: previous, count: count)
                } else {
                    unfilter(row, filter: filter, previous: previous, count: count, fixedStride: 3)
                }
            case 4:
                if filter == 4 {
                    paeth4(row, previous: previous, count: count)
                } else {
                    unfilter(row, filter: filter, previous: previous, count: count, fixedStride: 4)
                }
            case 6: unfilter(row, filter: filter, previous: previous, count: count, fixedStride: 6)
            case 8: unfilter(row, filter: filter, previous: previous, count: count, fixedStride: 8)
            default: unfilter(row, filter: filter, previous: previous, count: count, fixedStride: stride)
            }
        }
    }

    /// Sub, Average and Paeth for one stride; inlined into each caller with a constant `fixedStride`, so that the
    /// compiler unrolls and keeps the left pixel in registers.
    @inline(__always)
    static func unfilter(
        _ row: UnsafeMutablePointer<UInt8>, filter: UInt8, previous: UnsafePointer<UInt8>, count: Int,
        fixedStride stride: Int
    ) {
        let head = min(stride, count)
        switch filter {
        case 1:
            var index = stride
            while index < count {
                row[index] &+= row[index &- stride]
                index &+= 1
            }
        case 3:
            for index in 0..<head { row[index] &+= previous[index] >> 1 }
            var index = stride
            while index < count {
                row[index] &+= UInt8(truncatingIfNeeded: (UInt16(row[index &- stride]) &+ UInt16(previous[index])) >> 1)
                index &+= 1
            }
        case 4:
            for index in 0..<head { row[index] &+= previous[index] }
            var index = stride
            while index < count {
                row[index] &+= paethPredictor(row[index &- stride], previous[index], previous[index &- stride])
                index &+= 1
            }
        default:
            return
        }
    }

    /// The Paeth predictor (PNG §9.4): whichever of left, above and upper-left is closest to
    /// left + above - upper-left, preferring them in that order on ties.
    @inline(__always)
    static func paethPredictor(_ left: UInt8, _ above: UInt8, _ upperLeft: UInt8) -> UInt8 {
        let a = Int32(left)
        let b = Int32(above)
        let c = Int32(upperLeft)
        let p = b &- c
        let q = a &- c
        let pa = abs(p)
        let pb = abs(q)
        let pc = abs(p &+ q)
        let closerOfAboveAndUpperLeft = pb <= pc ? b : c
        return UInt8(truncatingIfNeeded: pa <= pb && pa <= pc ? a : closerOfAboveAndUpperLeft)
    }

    /// One Paeth step for a pixel's channels in SIMD lanes: `x` the filtered bytes, `a` the unfiltered left pixel, `b`
    /// above, `c` upper-left; returns the unfiltered pixel.
    @inline(__always)
    static func paethStep(
        _ x: SIMD4<Int16>, left a: SIMD4<Int16>, above b: SIMD4<Int16>, upperLeft c: SIMD4<Int16>
    ) -> SIMD4<Int16> {
        let p = b &- c
        let q = a &- c
        let pa = pointwiseMax(p, 0 &- p)
        let pb = pointwiseMax(q, 0 &- q)
        let r = p &+ q
        let pc = pointwiseMax(r, 0 &- r)
        var predictor = c.replacing(with: b, where: pb .<= pc)
        predictor.replace(with: a, where: (pa .<= pb) .& (pa .<= pc))
        return (x &+ predictor) & 0xFF
    }

    /// Paeth for three bytes per pixel (RGB8), a pixel's channels in three SIMD lanes: each step loads four bytes (the
    /// fourth, the next pixel's first, is ignored) and stores three; the last pixel goes byte by byte.
    @inline(__always)
    static func paeth3(_ row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int) {
        guard count >= 3 else { return }
        @inline(__always) func load(_ pointer: UnsafeRawPointer) -> SIMD4<Int16> {
            SIMD4<Int16>(truncatingIfNeeded: pointer.loadUnaligned(as: SIMD4<UInt8>.self))
        }
        var a = SIMD4<Int16>(repeating: 0)
        var c = SIMD4<Int16>(repeating: 0)
        var index = 0
        while index &+ 4 <= count {
            let b = load(previous + index)
            a = paethStep(load(row + index), left: a, above: b, upperLeft: c)
            c = b
            // Three single-byte stores: a four-byte store would overlap the next pixel's four-byte load by one byte,
            // which the processor cannot forward from its store buffer (a stall per pixel, tripling the time).
            row[index] = UInt8(truncatingIfNeeded: a[0])
            row[index &+ 1] = UInt8(truncatingIfNeeded: a[1])
            row[index &+ 2] = UInt8(truncatingIfNeeded: a[2])
            index &+= 3
        }
        if index &+ 3 <= count {
            let b = SIMD4<Int16>(Int16(previous[index]), Int16(previous[index + 1]), Int16(previous[index + 2]), 0)
            let x = SIMD4<Int16>(Int16(row[index]), Int16(row[index + 1]), Int16(row[index + 2]), 0)
            a = paethStep(x, left: a, above: b, upperLeft: c)
            row[index] = UInt8(truncatingIfNeeded: a[0])
            row[index + 1] = UInt8(truncatingIfNeeded: a[1])
            row[index + 2] = UInt8(truncatingIfNeeded: a[2])
        }
    }

    /// Paeth for four bytes per pixel (RGBA8, grey-alpha 16), all four channels of a pixel at once in SIMD lanes.
    @inline(__always)
    static func paeth4(_ row: UnsafeMutablePointer<UInt8>, previous: UnsafePointer<UInt8>, count: Int) {
        guard count >= 4 else { return }
        @inline(__always) func load(_ pointer: UnsafeRawPointer) -> SIMD4<Int16> {
            SIMD4<Int16>(truncatingIfNeeded: pointer.loadUnaligned(as: SIMD4<UInt8>.self))
        }
        var a = SIMD4<Int16>(repeating: 0)
        var c = SIMD4<Int16>(repeating: 0)
        var index = 0
        while index &+ 4 <= count {
            let b = load(previous + index)
            a = paethStep(load(row + index), left: a, above: b, upperLeft: c)
            c = b
            UnsafeMutableRawPointer(row + index).storeBytes(
                of: SIMD4<UInt8>(truncatingIfNeeded: a), as: SIMD4<UInt8>.self)
            index &+= 4
        }
    }
}

/// Converts unfiltered rows of any colour type and depth to RGBA8 (PNG §13.12 sample depth scaling) and RGBA16.
struct RowConverter {
    let header: PNGDecoder.Header
    let palette: [UInt8]
    let key: (UInt16, UInt16, UInt16)?

    init(parsed: PNGDecoder.Parsed) {
        header = parsed.header
        palette = parsed.palette
        key = parsed.transparentKey
    }

    /// 16-bit to 8-bit with rounding: `(v * 255 + 32895) >> 16`, as libpng and Pillow do.
    @inline(__always)
    static func reduce(_ value: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: (value &* 255 &+ 32895) >> 16) }

    func convert(_ source: UnsafePointer<UInt8>, count: Int, into destination: UnsafeMutablePointer<UInt8>, step: Int) {
        var out = destination
        switch (header.colorType, header.bitDepth) {
        case (6, 8):
            if step == 4 {
                destination.update(from: source, count: count * 4)
                return
            }
            for index in 0..<count {
                let pixel = UnsafeRawPointer(source + index * 4).loadUnaligned(as: UInt32.self)
                UnsafeMutableRawPointer(out).storeBytes(of: pixel, as: UInt32.self)
                out += step
            }
        case (2, 8) where key == nil:
            // The common case, no colour key: one 32-bit store per pixel.
            var input = source
            for _ in 0..<count {
                let word = UInt32(input[0]) | UInt32(input[1]) << 8 | UInt32(input[2]) << 16 | 0xFF00_0000
                UnsafeMutableRawPointer(out).storeBytes(of: UInt32(littleEndian: word), as: UInt32.self)
                input += 3
                out += step
            }
        case (2, 8):
            let keyed = key
            var input = source
            for _ in 0..<count {
                let red = input[0]
                let green = input[1]
                let blue = input[2]
                var alpha: UInt8 = 255
                if let keyed, UInt16(red) == keyed.0, UInt16(green) == keyed.1, UInt16(blue) == keyed.2 { alpha = 0 }
                let word = UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | UInt32(alpha) << 24
                UnsafeMutableRawPointer(out).storeBytes(of: UInt32(littleEndian: word), as: UInt32.self)
                input += 3
                out += step
            }
        case (4, 8):
            for index in 0..<count {
                let gray = source[index * 2]
                out[0] = gray
                out[1] = gray
                out[2] = gray
                out[3] = source[index * 2 + 1]
                out += step
            }
        case (0, 16), (2, 16), (4, 16), (6, 16):
            let channels = header.channels
            for index in 0..<count {
                let base = source + index * channels * 2
                func sample(_ channel: Int) -> UInt16 { UInt16(base[channel * 2]) << 8 | UInt16(base[channel * 2 + 1]) }
                switch channels {
                case 1, 2:
                    let gray = sample(0)
                    let value = RowConverter.reduce(UInt32(gray))
                    out[0] = value
                    out[1] = value
                    out[2] = value
                    if channels == 2 {
                        out[3] = RowConverter.reduce(UInt32(sample(1)))
                    } else {
                        out[3] = key.map { $0.0 == gray } == true ? 0 : 255
                    }
                default:
                    let (red, green, blue) = (sample(0), sample(1), sample(2))
                    out[0] = RowConverter.reduce(UInt32(red))
                    out[1] = RowConverter.reduce(UInt32(green))
                    out[2] = RowConverter.reduce(UInt32(blue))
                    if channels == 4 {
                        out[3] = RowConverter.reduce(UInt32(sample(3)))
                    } else if let key, key.0 == red, key.1 == green, key.2 == blue {
                        out[3] = 0
                    } else {
                        out[3] = 255
                    }
                }
                out += step
            }
        default:
            // Greyscale (any depth up to 8) and indexed colour: one sample per pixel.
            let depth = header.bitDepth
            let mask = (1 << depth) - 1
            let scale = 255 / mask
            let isIndexed = header.colorType == 3
            palette.withUnsafeBufferPointer { table in
                for index in 0..<count {
                    let value: Int
                    if depth == 8 {
                        value = Int(source[index])
                    } else {
                        let bit = index * depth
                        value = Int(source[bit >> 3] >> UInt8(8 - depth - (bit & 7))) & mask
                    }
                    if isIndexed {
                        UnsafeMutableRawPointer(out).storeBytes(
                            of: UnsafeRawPointer(table.baseAddress! + value * 4).loadUnaligned(as: UInt32.self),
                            as: UInt32.self)
                    } else {
                        let gray = UInt8(value * scale)
                        out[0] = gray
                        out[1] = gray
                        out[2] = gray
                        out[3] = key.map { Int($0.0) == value } == true ? 0 : 255
                    }
                    out += step
                }
            }
        }
    }

    /// Full-precision RGBA16 for 16-bit sources.
    func convert16(
        _ source: UnsafePointer<UInt8>, count: Int, into destination: UnsafeMutablePointer<UInt16>, step: Int
    ) {
        let channels = header.channels
        var out = destination
        for index in 0..<count {
            let base = source + index * channels * 2
            func sample(_ channel: Int) -> UInt16 { UInt16(base[channel * 2]) << 8 | UInt16(base[channel * 2 + 1]) }
            switch channels {
            case 1, 2:
                let gray = sample(0)
                out[0] = gray
                out[1] = gray
                out[2] = gray
                out[3] = channels == 2 ? sample(1) : (key.map { $0.0 == gray } == true ? 0 : 65535)
            default:
                out[0] = sample(0)
                out[1] = sample(1)
                out[2] = sample(2)
                if channels == 4 {
                    out[3] = sample(3)
                } else if let key, key.0 == out[0], key.1 == out[1], key.2 == out[2] {
                    out[3] = 0
                } else {
                    out[3] = 65535
                }
            }
            out += step
        }
    }
}
