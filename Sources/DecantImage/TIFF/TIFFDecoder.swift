import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A TIFF decoder (TIFF 6.0, with BigTIFF and the Adobe technote 2 JPEG compression): every image file directory
/// (IFD) is a page, strips or tiles, uncompressed, PackBits, LZW (including old-style "compat" LZW) and Deflate,
/// horizontal and floating-point predictors, and new-style JPEG through ``JPEGDecoder``; bilevel, greyscale, palette,
/// RGB, CMYK and JPEG-compressed YCbCr pictures of 1 to 16 bits per integer sample or 16-, 32- or 64-bit floating
/// point samples, chunky or planar, with associated or unassociated alpha.
///
/// A file of several pages gives every page as a frame of ``Image/frames`` (the first page is also the image
/// itself). Unlike an animation's frames, a TIFF page has its own size: each frame's ``Image/Frame/pixels`` hold
/// `width * height * 4` bytes of *that frame's* rectangle, which starts at (0, 0).
struct TIFFDecoder {
    /// The body, read in place: valid while ``decode(_:options:)`` runs, which is all the time a decoder lives.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The decoding options (limits).
    let options: ImageDecodingOptions
    /// Whether numbers are little-endian (`II`, TIFF 6.0 §2 "Image File Header").
    let littleEndian: Bool
    /// Whether the file is a BigTIFF (version 43, 8-byte offsets).
    let isBig: Bool

    /// One directory entry (TIFF 6.0 §2 "IFD Entry"): its field type, value count and where its values start.
    struct Entry {
        /// The field type (1 BYTE ... 12 DOUBLE, 13 IFD, 16 LONG8, 17 SLONG8, 18 IFD8).
        var type: Int
        /// The number of values.
        var count: Int
        /// The offset of the first value in the body (inline values point into the entry itself).
        var offset: Int
        /// The offset of the entry, for messages.
        var entryOffset: Int
    }

    /// The size in bytes of one value of each field type (TIFF 6.0 §2 "Types"; BigTIFF adds 16, 17 and 18).
    static func typeSize(_ type: Int) -> Int? {
        switch type {
        case 1, 2, 6, 7: 1
        case 3, 8: 2
        case 4, 9, 11, 13: 4
        case 5, 10, 12, 16, 17, 18: 8
        default: nil
        }
    }

    /// Decodes a TIFF body: every page, the first as the image and all as frames when there are several.
    ///
    /// - Throws: `SerializationError`: `invalidBody` for malformed structure, `truncatedBody` when an offset points
    ///   past the end, `unsupportedFeature` for compressions and colour models not decoded, `limitExceeded` when a
    ///   page declares more than the limits allow.
    static func decode(_ data: Data, options: ImageDecodingOptions) throws(SerializationError) -> Image {
        try ImageDecoder.withBytes(of: data) { (raw) throws(SerializationError) in
            try decode(raw.assumingMemoryBound(to: UInt8.self), source: data, options: options)
        }
    }

    /// ``decode(_:options:)`` over the body's bytes.
    private static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source data: Data, options: ImageDecodingOptions
    ) throws(SerializationError) -> Image {
        guard bytes.count >= 8 else { throw truncated(bytes.count, "its 8-byte header") }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: throw invalid(0, "the byte order mark is not II or MM (TIFF 6.0 §2)")
        }
        let version = little ? Int(bytes[2]) | Int(bytes[3]) << 8 : Int(bytes[2]) << 8 | Int(bytes[3])
        guard version == 42 || version == 43 else {
            throw invalid(2, "the version is \(version), not 42 (TIFF) or 43 (BigTIFF)")
        }
        let decoder = TIFFDecoder(bytes: bytes, options: options, littleEndian: little, isBig: version == 43)
        return try decoder.run(source: data)
    }

    /// Reads the page chain, then decodes the pages (or, without `inflate`, only reads the first page's header).
    func run(source: Data) throws(SerializationError) -> Image {
        let first = try firstDirectoryOffset()
        // Walk the chain of directories, refusing loops and more pages than maxFrames.
        var directories: [[Int: Entry]] = []
        var seen = Set<Int>()
        var next = first
        while next != 0 {
            guard seen.insert(next).inserted else {
                throw Self.invalid(next, "the chain of image file directories loops back to offset \(next)")
            }
            guard directories.count < options.limits.maxFrames else {
                throw SerializationError(
                    code: .limitExceeded,
                    message: "The TIFF image has more than \(options.limits.maxFrames) pages (image file "
                        + "directories), the limit of maxFrames; raise maxFrames if the image is trusted.")
            }
            let (entries, following) = try readDirectory(at: next)
            directories.append(entries)
            next = following
            // A broken link after the first page ends the chain rather than the decode.
            if next >= bytes.count { break }
        }
        guard !directories.isEmpty else { throw Self.invalid(4, "the header points to no image file directory") }
        var page = try TIFFPage(decoder: self, entries: directories[0])
        if !options.inflate {
            var image = Image(
                undecoded: page.width, height: page.height, format: .tiff, metadata: page.metadata,
                source: source, options: options)
            image.frameCount = directories.count
            return image
        }
        // The limits count every page that is decoded.
        var pages = [page]
        var totalPixels = page.width * page.height
        for entries in directories.dropFirst() {
            let next = try TIFFPage(decoder: self, entries: entries)
            try options.limits.check(width: next.width, height: next.height)
            totalPixels += next.width * next.height
            pages.append(next)
        }
        try options.limits.check(width: page.width, height: page.height)
        let (totalBytes, overflow) = totalPixels.multipliedReportingOverflow(by: 4)
        guard !overflow, totalBytes <= options.limits.maxTotalBytes else {
            throw SerializationError(
                code: .limitExceeded,
                message: "Decoding the \(pages.count) pages of the TIFF image would take more than the limit of "
                    + "\(options.limits.maxTotalBytes) bytes; raise maxTotalBytes if the image is trusted.")
        }
        try options.limits.checkProduced(
            totalPixels, "\(pages.count) page(s), the first \(page.width)×\(page.height)", format: .tiff,
            bodySize: bytes.count)
        let firstPixels = try page.decode()
        var image = Image(
            width: page.width, height: page.height, pixels: firstPixels, format: .tiff, scale: options.imageScale,
            metadata: page.metadata)
        image.frameCount = pages.count
        if pages.count > 1 {
            var frames = [
                Image.Frame(pixels: firstPixels, delay: 0, disposal: .none, width: page.width, height: page.height)
            ]
            for index in 1..<pages.count {
                page = pages[index]
                let pixels = try page.decode()
                frames.append(
                    Image.Frame(pixels: pixels, delay: 0, disposal: .none, width: page.width, height: page.height))
            }
            image.frames = options.premultipliedAlpha ? frames.map(PNGDecoder.premultiplied) : frames
        }
        return image
    }

    /// The offset of the first directory, from the header (TIFF 6.0 §2; BigTIFF: a byte size of 8, a reserved 0,
    /// then an 8-byte offset).
    func firstDirectoryOffset() throws(SerializationError) -> Int {
        guard isBig else { return try uint(at: 4, size: 4) }
        guard bytes.count >= 16 else { throw Self.truncated(bytes.count, "its 16-byte BigTIFF header") }
        guard try uint(at: 4, size: 2) == 8, try uint(at: 6, size: 2) == 0 else {
            throw Self.invalid(4, "the BigTIFF header does not declare 8-byte offsets")
        }
        return try uint(at: 8, size: 8)
    }

    /// Reads the directory at `offset` (TIFF 6.0 §2 "Image File Directory"): its entries by tag, and the offset of the
    /// next directory (0 at the end).
    func readDirectory(at offset: Int) throws(SerializationError) -> ([Int: Entry], Int) {
        let countSize = isBig ? 8 : 2
        let entrySize = isBig ? 20 : 12
        let count = try uint(at: offset, size: countSize)
        // Each entry takes entrySize bytes, so the count is bounded by the body.
        guard count <= (bytes.count - offset) / entrySize else {
            throw Self.truncated(
                bytes.count, "the image file directory at offset \(offset), which declares \(count) entries")
        }
        var entries: [Int: Entry] = [:]
        let inlineSize = isBig ? 8 : 4
        for index in 0..<count {
            let position = offset + countSize + index * entrySize
            let tag = try uint(at: position, size: 2)
            let type = try uint(at: position + 2, size: 2)
            let valueCount = try uint(at: position + 4, size: isBig ? 8 : 4)
            // Unknown field types are skipped, as TIFF 6.0 §2 asks of readers.
            guard let size = Self.typeSize(type) else { continue }
            guard valueCount <= bytes.count else {
                throw Self.truncated(bytes.count, "the values of tag \(tag) (\(valueCount) of them)")
            }
            let valueField = position + (isBig ? 12 : 8)
            let valueOffset = valueCount * size <= inlineSize ? valueField : try uint(at: valueField, size: inlineSize)
            if entries[tag] == nil {
                entries[tag] = Entry(type: type, count: valueCount, offset: valueOffset, entryOffset: position)
            }
        }
        let next = try uint(at: offset + countSize + count * entrySize, size: isBig ? 8 : 4)
        return (entries, next)
    }

    /// The unsigned number of `size` bytes (1, 2, 4 or 8) at `offset`, in the file's byte order; an offset too large
    /// to be in the body is returned as `Int.max`, which no bound check accepts.
    func uint(at offset: Int, size: Int) throws(SerializationError) -> Int {
        guard offset >= 0, offset <= bytes.count - size else {
            throw Self.truncated(bytes.count, "a \(size)-byte number at offset \(offset)")
        }
        var value: UInt64 = 0
        for index in 0..<size {
            let byte = UInt64(bytes[offset + (littleEndian ? size - 1 - index : index)])
            value = value << 8 | byte
        }
        return value > UInt64(Int.max) ? Int.max : Int(value)
    }

    /// The integer values of `entry` (field types BYTE, SHORT, LONG, their signed forms, IFD, LONG8).
    func integers(_ entry: Entry, tag: Int) throws(SerializationError) -> [Int] {
        guard let size = Self.typeSize(entry.type), [1, 3, 4, 6, 8, 9, 13, 16, 17, 18].contains(entry.type) else {
            throw Self.invalid(entry.entryOffset, "tag \(tag) has field type \(entry.type), not an integer type")
        }
        guard entry.offset >= 0, entry.offset <= bytes.count, entry.count <= (bytes.count - entry.offset) / size
        else {
            throw Self.truncated(bytes.count, "the \(entry.count) values of tag \(tag) at offset \(entry.offset)")
        }
        var values = [Int](repeating: 0, count: entry.count)
        let signed = [6, 8, 9, 17].contains(entry.type)
        for index in 0..<entry.count {
            var value = try uint(at: entry.offset + index * size, size: size)
            if signed && size < 8 && value >= 1 << (size * 8 - 1) { value -= 1 << (size * 8) }
            values[index] = value
        }
        return values
    }

    /// The first value of `entry` as a number: integers as they are, RATIONAL and SRATIONAL divided, FLOAT and
    /// DOUBLE read.
    func number(_ entry: Entry) -> Double? {
        guard entry.count >= 1 else { return nil }
        do {
            switch entry.type {
            case 5, 10:
                var numerator = try uint(at: entry.offset, size: 4)
                var denominator = try uint(at: entry.offset + 4, size: 4)
                if entry.type == 10 {
                    if numerator >= 1 << 31 { numerator -= 1 << 32 }
                    if denominator >= 1 << 31 { denominator -= 1 << 32 }
                }
                return denominator == 0 ? nil : Double(numerator) / Double(denominator)
            case 11: return Double(Float(bitPattern: UInt32(truncatingIfNeeded: try uint(at: entry.offset, size: 4))))
            case 12: return Double(bitPattern: UInt64(truncatingIfNeeded: try uint(at: entry.offset, size: 8)))
            default: return try integers(entry, tag: 0).first.map(Double.init)
            }
        } catch {
            return nil
        }
    }

    /// An `invalidBody` error about the TIFF data at `offset`.
    static func invalid(_ offset: Int, _ message: String) -> SerializationError {
        SerializationError(
            code: .invalidBody,
            message: "The TIFF image is invalid: \(message). The file is damaged or was not written by a conforming "
                + "encoder; re-encode it.",
            offset: offset)
    }

    /// A `truncatedBody` error: the body ends before `what`.
    static func truncated(_ offset: Int, _ what: String) -> SerializationError {
        SerializationError(
            code: .truncatedBody,
            message: "The TIFF image ends before \(what); the body was probably cut off in transit.",
            offset: offset)
    }

    /// An `unsupportedFeature` error naming `feature`.
    static func unsupported(_ feature: String) -> SerializationError {
        SerializationError(
            code: .unsupportedFeature,
            message: "The TIFF image uses \(feature), which DecantImage does not decode (it decodes uncompressed, "
                + "PackBits, LZW, Deflate and JPEG strips and tiles of bilevel, grey, palette, RGB, CMYK and "
                + "JPEG YCbCr pictures). Convert the image to PNG.")
    }
}
