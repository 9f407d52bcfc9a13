import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A JPEG decoder (ITU-T T.81 | ISO/IEC 10918-1, with JFIF, Adobe APP14 and EXIF markers): baseline and extended
/// sequential (SOF0, SOF1) and progressive (SOF2) Huffman-coded 8-bit images, any sampling factors, restart
/// intervals; greyscale, YCbCr, RGB, CMYK and YCCK. Lossless, hierarchical and arithmetic-coded modes, JPEG-LS
/// (ITU-T T.87) and 12-bit samples throw `unsupportedFeature`.
///
/// The output matches libjpeg's default decoding (accurate integer IDCT, triangular "fancy" chroma upsampling,
/// JFIF YCbCr to RGB in 16-bit fixed point) to within rounding.
struct JPEGDecoder {
    /// Zig-zag position to natural (row-major) position of each coefficient (T.81 Figure A.6).
    static let naturalOrder: [Int] = [
        0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5,
        12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
        35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51,
        58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47, 55, 62, 63,
    ]

    /// ``naturalOrder`` in memory allocated once and never freed or written again, read without bounds checks by the
    /// coefficient loops (whose indices are 0...63). `nonisolated(unsafe)`: immutable after its lazy initialisation,
    /// which Swift performs once, thread-safely.
    nonisolated(unsafe) static let naturalOrderTable: UnsafePointer<Int> = {
        let table = UnsafeMutablePointer<Int>.allocate(capacity: 64)
        table.initialize(from: naturalOrder, count: 64)
        return UnsafePointer(table)
    }()

    /// The most scans a frame may have: real progressive files use about ten, and each scan visits every block.
    /// Counted from the markers before any scan is decoded (``checkScanWork(from:)``), which also holds the scans'
    /// work to ``ImageLimits/maxScanCoefficientsPerByte``.
    static let maxScans = 1000

    /// The body.
    let bytes: [UInt8]
    /// The decoding options (limits).
    let options: ImageDecodingOptions
    /// Quantization tables 0...3 in natural order, in 16 bits as libjpeg-turbo keeps them (a 16-bit table's values
    /// above 32767 wrap; real tables stay far below).
    var quantizationTables: [[Int16]?] = [nil, nil, nil, nil]
    /// DC Huffman tables 0...3; 0 and 1 start as the typical tables of T.81 Annex K.3, as in libjpeg, for streams
    /// that define none (Motion-JPEG).
    var dcTables: [JPEGHuffmanTable?] = [.dcLuminance, .dcChrominance, nil, nil]
    /// AC Huffman tables 0...3; 0 and 1 start as the typical tables of T.81 Annex K.3.
    var acTables: [JPEGHuffmanTable?] = [.acLuminance, .acChrominance, nil, nil]
    /// The restart interval in MCUs (DRI), 0 when restarts are off.
    var restartInterval = 0
    /// The frame's components, once SOF is read.
    var components: [JPEGComponent] = []
    /// The image size from SOF.
    var width = 0, height = 0
    /// The largest sampling factors of the frame.
    var maxHorizontal = 1, maxVertical = 1
    /// Whether the frame is progressive (SOF2).
    var isProgressive = false
    /// Whether a frame header was read.
    var hasFrame = false
    /// How many scans were decoded.
    var scanCount = 0
    /// The planes of a sequential frame, written row by row while its scans are decoded; `nil` for a progressive
    /// frame, whose planes are transformed at the end from every coefficient.
    var samples: JPEGSamples?
    /// Memory for the pixels that a caller handed in to be reused (empty otherwise); ``finish(source:)`` takes it.
    var pixelStorage: [UInt8] = []
    /// Where each component's plane starts in ``samples`` (or in the planes ``finish(source:)`` builds).
    var planeOffsets: [Int] = []
    /// Whether damaged or missing data was skipped (only with ``ImageDecodingOptions/allowsPartialImages``).
    var isPartial = false
    /// The end-of-band run of a progressive AC scan (T.81 §G.1.2.2).
    var endOfBandRun = 0
    /// Whether a JFIF APP0 segment was seen.
    var sawJFIF = false
    /// The Adobe APP14 colour transform (0 none, 1 YCbCr, 2 YCCK), when that segment was seen.
    var adobeTransform: Int?
    /// What the markers say about the image.
    var metadata = Image.Metadata()
    /// The colour space of a three-component stream embedded in a TIFF (Adobe technote 2), which the TIFF's
    /// photometric interpretation gives rather than the markers; `nil` for a JPEG file.
    var embeddedColorSpace: ColorSpace?

    /// Decodes a JPEG body.
    ///
    /// - Throws: `SerializationError`: `invalidBody` for malformed data, `truncatedBody` when the body ends early,
    ///   `unsupportedFeature` for lossless, hierarchical, arithmetic-coded or 12-bit images, `limitExceeded` when
    ///   the frame header declares more than the limits allow.
    static func decode(_ data: Data, options: ImageDecodingOptions) throws(SerializationError) -> Image {
        var none: [UInt8] = []
        return try decode(data, options: options, reusing: &none)
    }

    /// Decodes a JPEG body, its pixels written into `storage`'s memory (see
    /// ``ImageResponseSerializer/serialize(_:reusing:)``); `storage` is left empty when the pixels took it.
    static func decode(
        _ data: Data, options: ImageDecodingOptions, reusing storage: inout [UInt8]
    ) throws(SerializationError) -> Image {
        var decoder = JPEGDecoder(bytes: [UInt8](data), options: options)
        swap(&decoder.pixelStorage, &storage)
        defer { swap(&decoder.pixelStorage, &storage) }
        return try decoder.run(source: data)
    }

    /// Decodes a JPEG stream embedded in a TIFF file (Adobe technote 2, TIFF compression 7) whose three components
    /// are in `colorSpace` (`.rgb` or `.yCbCr`, from the TIFF's photometric interpretation).
    static func decode(
        embedded data: Data, colorSpace: ColorSpace, options: ImageDecodingOptions
    ) throws(SerializationError) -> Image {
        var decoder = JPEGDecoder(bytes: [UInt8](data), options: options)
        decoder.embeddedColorSpace = colorSpace
        return try decoder.run(source: data)
    }

    /// An `invalidBody` error about the JPEG data at `offset`.
    static func invalid(_ offset: Int, _ message: String) -> SerializationError {
        SerializationError(
            code: .invalidBody,
            message: "The JPEG image is invalid: \(message). The file is damaged or was not written by a conforming "
                + "encoder; re-encode it.",
            offset: offset)
    }

    /// A `truncatedBody` error: the body ends in the middle of `what`.
    static func truncated(_ offset: Int, _ what: String) -> SerializationError {
        SerializationError(
            code: .truncatedBody,
            message: "The JPEG image ends in the middle of \(what); the body was probably cut off in transit.",
            offset: offset)
    }

    /// An `unsupportedFeature` error naming the coding `mode`.
    static func unsupported(_ offset: Int, _ mode: String) -> SerializationError {
        SerializationError(
            code: .unsupportedFeature,
            message: "The JPEG image uses \(mode), which DecantImage does not decode (it decodes baseline, extended "
                + "sequential and progressive Huffman-coded 8-bit JPEG). Re-encode the image as baseline or "
                + "progressive JPEG, or as PNG.",
            offset: offset)
    }

    /// Reads the big-endian 16-bit number at `offset` (which the caller has checked is in bounds).
    @inline(__always)
    func uint16(at offset: Int) -> Int { Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) }

    /// Reads the markers from SOI to EOI, decoding each scan, and returns the image.
    mutating func run(source: Data) throws(SerializationError) -> Image {
        guard bytes.count >= 2, bytes[0] == 0xFF, bytes[1] == 0xD8 else {
            throw Self.invalid(0, "it does not start with the SOI marker FF D8")
        }
        var position = 2
        while true {
            // Find the next marker, skipping fill bytes (FF) and any stray bytes before it, as decoders do.
            while position + 1 < bytes.count
                && !(bytes[position] == 0xFF && bytes[position + 1] != 0 && bytes[position + 1] != 0xFF)
            {
                position += 1
            }
            guard position + 1 < bytes.count else {
                if options.allowsPartialImages && hasFrame && scanCount > 0 {
                    isPartial = true
                    return try finish(source: source)
                }
                throw Self.truncated(bytes.count, "its markers (no EOI marker FF D9 was found)")
            }
            let marker = bytes[position + 1]
            let markerOffset = position
            position += 2
            switch marker {
            case 0xD9:
                guard hasFrame && scanCount > 0 else {
                    throw Self.invalid(markerOffset, "the EOI marker comes before any frame and scan")
                }
                return try finish(source: source)
            case 0xD8:
                throw Self.invalid(markerOffset, "a second SOI marker appears before EOI")
            case 0xD0...0xD7, 0x01:
                continue  // A restart marker outside a scan, or TEM: no segment follows.
            default:
                break
            }
            guard position + 2 <= bytes.count else {
                if options.allowsPartialImages && hasFrame && scanCount > 0 {
                    isPartial = true
                    return try finish(source: source)
                }
                throw Self.truncated(position, "a marker segment's length")
            }
            let length = uint16(at: position)
            guard length >= 2 else {
                throw Self.invalid(position, "a marker segment declares length \(length), less than 2")
            }
            guard position + length <= bytes.count else {
                if options.allowsPartialImages && hasFrame && scanCount > 0 {
                    isPartial = true
                    return try finish(source: source)
                }
                throw Self.truncated(position, "the marker FF \(String(marker, radix: 16, uppercase: true)) segment")
            }
            let segment = (position + 2)..<(position + length)
            position += length
            switch marker {
            case 0xC0, 0xC1, 0xC2:
                try readFrameHeader(segment, progressive: marker == 0xC2)
                if !options.inflate {
                    return Image(
                        undecoded: width, height: height, format: .jpeg, metadata: metadata, source: source,
                        options: options)
                }
            case 0xC3: throw Self.unsupported(markerOffset, "lossless coding (SOF3)")
            case 0xC5: throw Self.unsupported(markerOffset, "hierarchical differential sequential coding (SOF5)")
            case 0xC6: throw Self.unsupported(markerOffset, "hierarchical differential progressive coding (SOF6)")
            case 0xC7: throw Self.unsupported(markerOffset, "hierarchical differential lossless coding (SOF7)")
            case 0xC9: throw Self.unsupported(markerOffset, "arithmetic coding (SOF9, extended sequential)")
            case 0xCA: throw Self.unsupported(markerOffset, "arithmetic coding (SOF10, progressive)")
            case 0xCB: throw Self.unsupported(markerOffset, "arithmetic coding (SOF11, lossless)")
            case 0xCD, 0xCE, 0xCF:
                throw Self.unsupported(markerOffset, "hierarchical arithmetic coding (SOF\(Int(marker) - 0xC0))")
            case 0xCC: throw Self.unsupported(markerOffset, "arithmetic coding (a DAC segment)")
            case 0xF7: throw Self.unsupported(markerOffset, "JPEG-LS coding (SOF55, ITU-T T.87)")
            case 0xF8: throw Self.unsupported(markerOffset, "JPEG-LS coding (an LSE segment, ITU-T T.87)")
            case 0xC4: try readHuffmanTables(segment)
            case 0xDB: try readQuantizationTables(segment)
            case 0xDD:
                guard segment.count == 2 else {
                    throw Self.invalid(segment.lowerBound, "the DRI segment is not 4 bytes")
                }
                restartInterval = uint16(at: segment.lowerBound)
            case 0xDC:
                throw Self.unsupported(markerOffset, "a DNL marker (the image height defined after the first scan)")
            case 0xDA:
                position = try readScan(segment)
            case 0xE0...0xEF:
                readApplicationSegment(marker, segment)
            default:
                continue  // COM, JPGn and reserved markers carry nothing Decant needs.
            }
        }
    }

    /// Reads an APPn segment: JFIF (APP0, and its density as ``Image/Metadata/pixelsPerMeter`` when its unit is the
    /// inch or the centimetre), EXIF orientation (APP1), ICC profile presence (APP2), Adobe (APP14).
    mutating func readApplicationSegment(_ marker: UInt8, _ segment: Range<Int>) {
        func starts(with signature: String) -> Bool {
            let signature = Array(signature.utf8)
            return segment.count >= signature.count
                && bytes[segment.lowerBound..<(segment.lowerBound + signature.count)].elementsEqual(signature)
        }
        switch marker {
        case 0xE0 where starts(with: "JFIF\0"):
            sawJFIF = true
            // Units (0: an aspect ratio only, 1: dots per inch, 2: dots per centimetre), then the horizontal and
            // vertical densities, big-endian (JFIF 1.02).
            if segment.count >= 12 {
                let start = segment.lowerBound
                let x = Int(bytes[start + 8]) << 8 | Int(bytes[start + 9])
                let y = Int(bytes[start + 10]) << 8 | Int(bytes[start + 11])
                let metresPerUnit: Double? =
                    switch bytes[start + 7] {
                    case 1: 0.0254
                    case 2: 0.01
                    default: nil
                    }
                if let metresPerUnit, x > 0, y > 0 {
                    metadata.pixelsPerMeter = (
                        Int((Double(x) / metresPerUnit).rounded()), Int((Double(y) / metresPerUnit).rounded())
                    )
                }
            }
        case 0xE1 where starts(with: "Exif\0\0"):
            metadata.exifOrientation = Self.exifOrientation(
                in: Array(bytes[(segment.lowerBound + 6)..<segment.upperBound]))
        case 0xE2 where starts(with: "ICC_PROFILE\0"):
            metadata.hasICCProfile = true
        case 0xEE where starts(with: "Adobe") && segment.count >= 12:
            adobeTransform = Int(bytes[segment.lowerBound + 11])
        default:
            break
        }
    }

    /// The orientation (1...8) in the first IFD of the TIFF structure `tiff` (EXIF 2.3 §4.6.4, tag 0x0112), or `nil`.
    static func exifOrientation(in tiff: [UInt8]) -> Int? {
        guard tiff.count >= 8 else { return nil }
        let littleEndian: Bool
        switch (tiff[0], tiff[1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= tiff.count else { return nil }
            let a = Int(tiff[offset]), b = Int(tiff[offset + 1])
            return littleEndian ? b << 8 | a : a << 8 | b
        }
        func read32(_ offset: Int) -> Int? {
            guard let high = read16(offset + (littleEndian ? 2 : 0)), let low = read16(offset + (littleEndian ? 0 : 2))
            else { return nil }
            return high << 16 | low
        }
        guard let ifd = read32(4), let count = read16(ifd) else { return nil }
        for entry in 0..<count {
            let offset = ifd + 2 + entry * 12
            guard let tag = read16(offset) else { return nil }
            if tag == 0x0112 {
                guard read16(offset + 2) == 3, let value = read16(offset + 8), (1...8).contains(value) else {
                    return nil
                }
                return value
            }
        }
        return nil
    }

    /// Reads a DQT segment: one or more 8- or 16-bit tables (T.81 §B.2.4.1).
    mutating func readQuantizationTables(_ segment: Range<Int>) throws(SerializationError) {
        var offset = segment.lowerBound
        while offset < segment.upperBound {
            let precision = Int(bytes[offset] >> 4)
            let selector = Int(bytes[offset] & 15)
            guard precision <= 1, selector <= 3 else {
                throw Self.invalid(
                    offset, "a DQT table has precision \(precision) or destination \(selector) (0-1, 0-3)")
            }
            let size = precision == 0 ? 64 : 128
            guard offset + 1 + size <= segment.upperBound else {
                throw Self.invalid(offset, "a DQT table runs past the end of its segment")
            }
            var table = [Int16](repeating: 0, count: 64)
            for k in 0..<64 {
                let value = precision == 0 ? Int(bytes[offset + 1 + k]) : uint16(at: offset + 1 + 2 * k)
                table[Self.naturalOrder[k]] = Int16(truncatingIfNeeded: value)
            }
            quantizationTables[selector] = table
            offset += 1 + size
        }
    }

    /// Reads a DHT segment: one or more Huffman tables (T.81 §B.2.4.2).
    mutating func readHuffmanTables(_ segment: Range<Int>) throws(SerializationError) {
        var offset = segment.lowerBound
        while offset < segment.upperBound {
            let tableClass = Int(bytes[offset] >> 4)
            let selector = Int(bytes[offset] & 15)
            guard tableClass <= 1, selector <= 3 else {
                throw Self.invalid(offset, "a DHT table has class \(tableClass) or destination \(selector) (0-1, 0-3)")
            }
            guard offset + 17 <= segment.upperBound else {
                throw Self.invalid(offset, "a DHT table's code length counts run past the end of its segment")
            }
            let counts = (0..<16).map { Int(bytes[offset + 1 + $0]) }
            let total = counts.reduce(0, +)
            guard offset + 17 + total <= segment.upperBound else {
                throw Self.invalid(offset, "a DHT table's \(total) symbols run past the end of its segment")
            }
            let symbols = Array(bytes[(offset + 17)..<(offset + 17 + total)])
            guard let table = JPEGHuffmanTable(counts: counts, symbols: symbols) else {
                throw Self.invalid(
                    offset,
                    "a DHT table's code length counts (\(counts)) describe more codes than fit in 16 bits, or more "
                        + "than 256 symbols (T.81 §C)")
            }
            if tableClass == 0 {
                guard symbols.allSatisfy({ $0 <= 15 }) else {
                    throw Self.invalid(offset, "a DC Huffman table has a symbol above 15")
                }
                dcTables[selector] = table
            } else {
                acTables[selector] = table
            }
            offset += 17 + total
        }
    }

    /// Reads a SOF0/1/2 segment (T.81 §B.2.2), checks the limits and allocates the coefficients.
    mutating func readFrameHeader(_ segment: Range<Int>, progressive: Bool) throws(SerializationError) {
        let start = segment.lowerBound
        guard !hasFrame else { throw Self.invalid(start, "a second frame header (SOF) appears") }
        guard segment.count >= 6 else { throw Self.invalid(start, "the frame header (SOF) is shorter than 6 bytes") }
        let precision = Int(bytes[start])
        if precision == 12 { throw Self.unsupported(start, "12-bit samples") }
        guard precision == 8 else { throw Self.invalid(start, "the sample precision is \(precision), not 8") }
        height = uint16(at: start + 1)
        width = uint16(at: start + 3)
        let count = Int(bytes[start + 5])
        guard height > 0 else {
            throw Self.unsupported(start, "a DNL marker (the frame header declares height 0)")
        }
        guard width > 0 else { throw Self.invalid(start, "the frame header declares width 0") }
        guard count == 1 || count == 3 || count == 4 else {
            throw SerializationError(
                code: .unsupportedFeature,
                message: "The JPEG image has \(count) components; DecantImage decodes 1 (greyscale), 3 (YCbCr or "
                    + "RGB) and 4 (CMYK or YCCK). Re-encode it with a standard colour space.",
                offset: start)
        }
        guard segment.count == 6 + 3 * count else {
            throw Self.invalid(start, "the frame header's length does not match its \(count) components")
        }
        try options.limits.check(width: width, height: height)
        try options.limits.checkProduced(
            width * height, "\(width)×\(height)", format: .jpeg, bodySize: bytes.count)
        var parsed: [(id: Int, h: Int, v: Int, tq: Int)] = []
        for index in 0..<count {
            let offset = start + 6 + 3 * index
            let id = Int(bytes[offset])
            let h = Int(bytes[offset + 1] >> 4)
            let v = Int(bytes[offset + 1] & 15)
            let tq = Int(bytes[offset + 2])
            guard (1...4).contains(h), (1...4).contains(v) else {
                throw Self.invalid(offset, "component \(id) has sampling factors \(h)×\(v) (each must be 1-4)")
            }
            guard tq <= 3 else { throw Self.invalid(offset, "component \(id) uses quantization table \(tq) (0-3)") }
            guard !parsed.contains(where: { $0.id == id }) else {
                throw Self.invalid(offset, "two components have the identifier \(id)")
            }
            parsed.append((id, h, v, tq))
        }
        maxHorizontal = parsed.map(\.h).max() ?? 1
        maxVertical = parsed.map(\.v).max() ?? 1
        let mcusPerLine = (width + 8 * maxHorizontal - 1) / (8 * maxHorizontal)
        let mcusPerColumn = (height + 8 * maxVertical - 1) / (8 * maxVertical)
        // Coefficients (2 bytes each) and the decoded planes (1 byte per sample) of every component.
        let samples = parsed.reduce(0) { $0 + mcusPerLine * $1.h * mcusPerColumn * $1.v * 64 }
        let (bytesNeeded, overflow) = samples.multipliedReportingOverflow(by: 3)
        guard !overflow, bytesNeeded + width * height * 4 <= options.limits.maxTotalBytes else {
            throw SerializationError(
                code: .limitExceeded,
                message: "Decoding the \(width)×\(height) JPEG image would take more than the limit of "
                    + "\(options.limits.maxTotalBytes) bytes (its coefficients, planes and pixels); raise "
                    + "maxTotalBytes if the image is trusted.")
        }
        components = parsed.map { part in
            let blocksPerLine = mcusPerLine * part.h
            let blocksPerColumn = mcusPerColumn * part.v
            return JPEGComponent(
                id: part.id, horizontal: part.h, vertical: part.v, quantizationSelector: part.tq,
                width: (width * part.h + maxHorizontal - 1) / maxHorizontal,
                height: (height * part.v + maxVertical - 1) / maxVertical,
                blocksPerLine: blocksPerLine, blocksPerColumn: blocksPerColumn,
                coefficients: JPEGCoefficients(count: 0, repeating: 0))
        }
        isProgressive = progressive
        hasFrame = true
        metadata.colorType = count == 1 ? .grayscale : .rgb
        metadata.bitDepth = 8
        metadata.isInterlaced = progressive
        planeOffsets = components.indices.reduce(into: [0]) { $0.append($0.last! + planeSize(of: $1)) }
        if options.inflate {
            // The scans' work is checked from the markers before the coefficients are allocated.
            try checkScanWork(from: segment.upperBound)
            for index in components.indices {
                let component = components[index]
                // A sequential frame keeps one row of MCUs (each block row transformed once decoded); a progressive
                // one every coefficient, since later scans refine them.
                let rows = progressive ? component.blocksPerColumn : component.vertical
                components[index].coefficients = JPEGCoefficients(
                    count: component.blocksPerLine * rows * 64, repeating: 0)
            }
            if !progressive { self.samples = JPEGSamples(count: planeOffsets.last!, repeating: 128) }
        }
    }
}
