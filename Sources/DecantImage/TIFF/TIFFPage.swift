import DecantCore

/// One page of a TIFF file: the fields of its image file directory that decoding needs (TIFF 6.0 §8 "Baseline
/// Field Reference Guide"), checked against the body and the limits.
struct TIFFPage {
    /// The decoder that read the directory (the body, byte order, options).
    let decoder: TIFFDecoder
    /// ImageWidth (256) and ImageLength (257).
    let width: Int, height: Int
    /// BitsPerSample (258), the same for every sample.
    let bitsPerSample: Int
    /// SamplesPerPixel (277).
    let samplesPerPixel: Int
    /// Compression (259).
    let compression: Int
    /// PhotometricInterpretation (262).
    let photometric: Int
    /// PlanarConfiguration (284): `true` for 2, separate planes.
    let isPlanar: Bool
    /// Predictor (317): 1 none, 2 horizontal differencing (TIFF 6.0 §14), 3 floating point (technote 3).
    let predictor: Int
    /// SampleFormat (339): 1 unsigned, 2 signed, 3 IEEE floating point.
    let sampleFormat: Int
    /// FillOrder (266): `true` for 2, the lowest bit first.
    let reversedBits: Bool
    /// The index of the alpha sample (ExtraSamples 338, value 1 or 2), if any, and whether it is associated.
    let alphaIndex: Int?, associatedAlpha: Bool
    /// The chunk (strip or tile) size: a strip is `width` by RowsPerStrip, a tile TileWidth by TileLength.
    let chunkWidth: Int, chunkHeight: Int
    /// Whether the chunks are tiles (TIFF 6.0 §15).
    let isTiled: Bool
    /// The chunks across and down the image.
    let chunksAcross: Int, chunksDown: Int
    /// The offsets and byte counts of the chunks (StripOffsets/StripByteCounts or TileOffsets/TileByteCounts).
    let offsets: [Int], byteCounts: [Int]
    /// The ColorMap (320) of a palette image: red, then green, then blue, 2^BitsPerSample 16-bit values each.
    let colorMap: [Int]
    /// The JPEGTables (347) of a JPEG-compressed image: the quantization and Huffman tables each chunk uses.
    let jpegTables: [UInt8]?
    /// YCbCrSubSampling (530) of an uncompressed or losslessly compressed YCbCr image: 1, 2 or 4 each way.
    var subsampling = (horizontal: 1, vertical: 1)
    /// YCbCrCoefficients (529): the red, green and blue luma weights.
    var lumaWeights: [Double] = [0.299, 0.587, 0.114]
    /// ReferenceBlackWhite (532): the black and white codes of Y, Cb and Cr.
    var referenceBlackWhite: [Double] = [0, 255, 128, 255, 128, 255]
    /// What the directory says about the image.
    var metadata = Image.Metadata()

    /// Reads and checks the directory `entries`.
    init(decoder: TIFFDecoder, entries: [Int: TIFFDecoder.Entry]) throws(SerializationError) {
        self.decoder = decoder
        func values(_ tag: Int) throws(SerializationError) -> [Int]? {
            guard let entry = entries[tag] else { return nil }
            return try decoder.integers(entry, tag: tag)
        }
        func value(_ tag: Int, _ name: String, default fallback: Int? = nil) throws(SerializationError) -> Int {
            if let first = try values(tag)?.first { return first }
            if let fallback { return fallback }
            throw TIFFDecoder.invalid(0, "the required field \(name) (tag \(tag)) is missing")
        }
        width = try value(256, "ImageWidth")
        height = try value(257, "ImageLength")
        guard width > 0, height > 0, width < 1 << 32, height < 1 << 32 else {
            throw TIFFDecoder.invalid(0, "the image is \(width)×\(height) pixels")
        }
        try decoder.options.limits.check(width: width, height: height)
        samplesPerPixel = try value(277, "SamplesPerPixel", default: 1)
        guard (1...16).contains(samplesPerPixel) else {
            throw TIFFDecoder.unsupported("\(samplesPerPixel) samples per pixel")
        }
        let depths = try values(258) ?? [1]
        let depth = depths.first ?? 1
        bitsPerSample = depth
        guard depths.allSatisfy({ $0 == depth }) else {
            throw TIFFDecoder.unsupported("different bit depths per sample (\(depths))")
        }
        compression = try value(259, "Compression", default: 1)
        sampleFormat = try values(339)?.first ?? 1
        guard [1, 2, 3].contains(sampleFormat) else {
            throw TIFFDecoder.unsupported("sample format \(sampleFormat)")
        }
        if sampleFormat == 3 {
            guard [16, 32, 64].contains(bitsPerSample) else {
                throw TIFFDecoder.unsupported("\(bitsPerSample)-bit floating-point samples")
            }
        } else {
            guard (1...16).contains(bitsPerSample) || bitsPerSample == 32 else {
                throw TIFFDecoder.unsupported("\(bitsPerSample)-bit samples")
            }
        }
        let defaultPhotometric = samplesPerPixel >= 3 ? 2 : 1
        photometric = try value(262, "PhotometricInterpretation", default: defaultPhotometric)
        isPlanar = try value(284, "PlanarConfiguration", default: 1) == 2 && samplesPerPixel > 1
        predictor = try value(317, "Predictor", default: 1)
        reversedBits = try value(266, "FillOrder", default: 1) == 2
        // ExtraSamples: the first extra sample of type 1 (associated) or 2 (unassociated) is the alpha.
        let colorSamples: Int
        switch photometric {
        case 0, 1, 3: colorSamples = 1
        case 2, 6: colorSamples = 3
        case 5:
            let inkSet = try value(332, "InkSet", default: 1)
            guard inkSet == 1 else {
                throw TIFFDecoder.unsupported("separated inks other than CMYK (InkSet \(inkSet))")
            }
            colorSamples = 4
        case 4: throw TIFFDecoder.unsupported("a transparency mask (photometric interpretation 4)")
        case 8, 9, 10: throw TIFFDecoder.unsupported("CIE L*a*b* colour (photometric interpretation \(photometric))")
        case 32844, 32845: throw TIFFDecoder.unsupported("LogLuv colour (photometric interpretation \(photometric))")
        default: throw TIFFDecoder.unsupported("photometric interpretation \(photometric)")
        }
        guard samplesPerPixel >= colorSamples else {
            throw TIFFDecoder.invalid(
                0,
                "photometric interpretation \(photometric) needs \(colorSamples) samples per pixel, not "
                    + "\(samplesPerPixel)")
        }
        let extras = try values(338) ?? []
        if let first = extras.first, samplesPerPixel > colorSamples, first == 1 || first == 2 {
            alphaIndex = colorSamples
            associatedAlpha = first == 1
        } else {
            alphaIndex = nil
            associatedAlpha = false
        }
        let fileSize = decoder.bytes.count
        if let tileWidth = try values(322)?.first {
            let tileHeight = try value(323, "TileLength")
            guard tileWidth > 0, tileHeight > 0, tileWidth <= 1 << 24, tileHeight <= 1 << 24 else {
                throw TIFFDecoder.invalid(0, "the tiles are \(tileWidth)×\(tileHeight) pixels")
            }
            isTiled = true
            chunkWidth = tileWidth
            chunkHeight = tileHeight
            if let tiles = try values(324) { offsets = tiles } else { offsets = try values(273) ?? [] }
            if let counts = try values(325) { byteCounts = counts } else { byteCounts = try values(279) ?? [] }
        } else {
            isTiled = false
            chunkWidth = width
            let rows = try value(278, "RowsPerStrip", default: height)
            chunkHeight = rows <= 0 ? height : min(rows, height)
            offsets = try values(273) ?? []
            byteCounts = try values(279) ?? []
        }
        chunksAcross = (width + chunkWidth - 1) / chunkWidth
        chunksDown = (height + chunkHeight - 1) / chunkHeight
        let planes = isPlanar ? samplesPerPixel : 1
        let (chunksPerPlane, overflow) = chunksAcross.multipliedReportingOverflow(by: chunksDown)
        // Each chunk needs an offset in the body, so there cannot be more than the body has bytes.
        guard !overflow, chunksPerPlane <= fileSize, chunksPerPlane * planes <= fileSize else {
            throw TIFFDecoder.invalid(0, "the image needs more strips or tiles than the body has bytes")
        }
        guard offsets.count >= chunksPerPlane * planes else {
            throw TIFFDecoder.invalid(
                0, "the image needs \(chunksPerPlane * planes) strips or tiles but has \(offsets.count) offsets")
        }
        colorMap = photometric == 3 ? try values(320) ?? [] : []
        if photometric == 3 {
            // A ColorMap holds 3 × 2^BitsPerSample values; a shorter one is accepted (as Go's decoder does), the
            // indices past its end being black.
            guard bitsPerSample <= 16, !colorMap.isEmpty, colorMap.count % 3 == 0 else {
                throw TIFFDecoder.invalid(0, "the palette image has no ColorMap of 3 × 2^\(bitsPerSample) values")
            }
        }
        if let tables = entries[347], tables.offset >= 0, tables.count <= fileSize - min(fileSize, tables.offset) {
            jpegTables = Array(decoder.bytes[tables.offset..<(tables.offset + tables.count)])
        } else {
            jpegTables = nil
        }
        switch compression {
        case 1, 5, 7, 8, 32773, 32946: break
        case 2: throw TIFFDecoder.unsupported("CCITT modified Huffman compression (2)")
        case 3: throw TIFFDecoder.unsupported("CCITT T.4 (Group 3 fax) compression (3)")
        case 4: throw TIFFDecoder.unsupported("CCITT T.6 (Group 4 fax) compression (4)")
        case 6: throw TIFFDecoder.unsupported("old-style JPEG compression (6)")
        case 34676, 34677: throw TIFFDecoder.unsupported("SGI LogLuv compression (\(compression))")
        case 34925: throw TIFFDecoder.unsupported("LZMA compression (34925)")
        case 50000: throw TIFFDecoder.unsupported("Zstandard compression (50000)")
        case 50001: throw TIFFDecoder.unsupported("WebP compression (50001)")
        default: throw TIFFDecoder.unsupported("compression \(compression)")
        }
        if compression == 7 {
            guard bitsPerSample == 8, !isPlanar, [1, 2, 6].contains(photometric) else {
                throw TIFFDecoder.unsupported(
                    "JPEG compression with photometric interpretation \(photometric), \(bitsPerSample) bits or "
                        + "planar samples")
            }
        } else if photometric == 6 {
            guard bitsPerSample == 8, sampleFormat == 1, !isPlanar, predictor == 1 else {
                throw TIFFDecoder.unsupported(
                    "YCbCr samples of \(bitsPerSample) bits, planar or with a predictor (8-bit chunky only)")
            }
        }
        guard [1, 2, 3].contains(predictor) else { throw TIFFDecoder.unsupported("predictor \(predictor)") }
        if predictor == 2 && ![8, 16, 32].contains(bitsPerSample) {
            throw TIFFDecoder.unsupported("the horizontal predictor with \(bitsPerSample)-bit samples")
        }
        if predictor == 3 && sampleFormat != 3 {
            throw TIFFDecoder.unsupported("the floating-point predictor with integer samples")
        }
        if photometric == 6 && compression != 7 {
            let factors = try values(530) ?? [2, 2]
            guard factors.count == 2, [1, 2, 4].contains(factors[0]), [1, 2, 4].contains(factors[1]),
                factors[1] <= factors[0]
            else {
                throw TIFFDecoder.invalid(0, "YCbCrSubSampling is \(factors), not 1, 2 or 4 each way (TIFF 6.0 §21)")
            }
            subsampling = (factors[0], factors[1])
            if isTiled && (chunkWidth % factors[0] != 0 || chunkHeight % factors[1] != 0) {
                throw TIFFDecoder.invalid(0, "the tiles are not a whole number of YCbCr subsampling blocks")
            }
            if let entry = entries[529], entry.count == 3, entry.type == 5 {
                lumaWeights = (0..<3).compactMap { index in
                    decoder.number(
                        TIFFDecoder.Entry(
                            type: 5, count: 1, offset: entry.offset + 8 * index, entryOffset: entry.entryOffset))
                }
            }
            if let entry = entries[532], entry.count == 6, entry.type == 5 {
                referenceBlackWhite = (0..<6).compactMap { index in
                    decoder.number(
                        TIFFDecoder.Entry(
                            type: 5, count: 1, offset: entry.offset + 8 * index, entryOffset: entry.entryOffset))
                }
            }
            guard lumaWeights.count == 3, lumaWeights[1] != 0, referenceBlackWhite.count == 6 else {
                throw TIFFDecoder.invalid(0, "YCbCrCoefficients or ReferenceBlackWhite cannot be read")
            }
        }
        readMetadata(entries)
    }

    /// Fills ``metadata``: colour model, depth, alpha, Orientation (274) as the EXIF orientation, XResolution (282)
    /// and YResolution (283) in ResolutionUnit (296) as pixels per metre, ICC profile (34675) presence.
    mutating func readMetadata(_ entries: [Int: TIFFDecoder.Entry]) {
        let hasAlpha = alphaIndex != nil
        metadata.colorType =
            switch photometric {
            case 3: .indexed
            case 0, 1: hasAlpha ? .grayscaleAlpha : .grayscale
            default: hasAlpha ? .rgba : .rgb
            }
        metadata.bitDepth = bitsPerSample
        metadata.hasTransparency = hasAlpha
        if let entry = entries[274], let orientation = decoder.number(entry), (1...8).contains(orientation) {
            metadata.exifOrientation = Int(orientation)
        }
        let unit = entries[296].flatMap { decoder.number($0) } ?? 2
        let metresPerUnit: Double? = unit == 2 ? 0.0254 : unit == 3 ? 0.01 : nil
        if let metresPerUnit, let x = entries[282].flatMap({ decoder.number($0) }),
            let y = entries[283].flatMap({ decoder.number($0) }), x > 0, y > 0, x < 1e9, y < 1e9
        {
            metadata.pixelsPerMeter = (Int((x / metresPerUnit).rounded()), Int((y / metresPerUnit).rounded()))
        }
        metadata.hasICCProfile = entries[34675] != nil
    }
}
