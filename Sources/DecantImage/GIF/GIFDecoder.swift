import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A GIF decoder (GIF87a and GIF89a, CompuServe's "Graphics Interchange Format" specification, version 89a): LZW
/// image data, interlacing, global and local colour tables, transparency. The first frame is composited at once; the
/// frames of an animation are kept as palette indices and composited on demand by ``GIFAnimation``.
enum GIFDecoder {
    /// One frame as stored: its rectangle, palette indices of that rectangle, its colour table as RGBA values, and
    /// its graphic control values.
    struct RawFrame {
        var x: Int, y: Int, width: Int, height: Int
        /// `width * height` palette indices in stored row order (see ``storedRow(_:)``).
        var indices: [UInt8]
        /// Whether the rows are stored interlaced (GIF89a Appendix E).
        var isInterlaced: Bool
        /// 256 RGBA8 colours as stored in memory (R, G, B, A bytes): the colour table's entries, black past its end,
        /// alpha 0 for the transparent index. Frames using the global table with the same transparent index share it.
        var palette: [UInt32]
        var transparentIndex: Int?
        var delay: Double
        var disposal: Image.Frame.Disposal

        /// The stored row that holds row `row` of the rectangle, counted from the top. Interlaced images store every
        /// 8th row from row 0, then every 8th from row 4, every 4th from row 2 and every 2nd from row 1 (GIF89a
        /// Appendix E); computing the row is cheaper than reordering the indices once, which would copy them.
        @inline(__always)
        func storedRow(_ row: Int) -> Int {
            guard isInterlaced else { return row }
            if row % 8 == 0 { return row / 8 }
            let firstPass = (height + 7) / 8
            if row % 8 == 4 { return firstPass + row / 8 }
            let secondPass = (height + 3) / 8
            if row % 4 == 2 { return firstPass + secondPass + row / 4 }
            return firstPass + secondPass + (height + 1) / 4 + row / 2
        }

        /// The rectangle's own RGBA8 pixels, top to bottom (the transparent index with alpha 0).
        var rgba: [UInt8] {
            guard width > 0 && height > 0 else { return [] }
            var result = [UInt8](repeating: 0, count: width * height * 4)
            result.withUnsafeMutableBytes { target in
                for row in 0..<height {
                    GIFDecoder.map(
                        indices, from: storedRow(row) * width, count: width, palette: palette, transparentIndex: nil,
                        into: target.baseAddress! + row * width * 4)
                }
            }
            return result
        }
    }

    struct Stream {
        var width: Int
        var height: Int
        var frames: [RawFrame]
        var frameCount: Int
        var hasTransparency: Bool
        var isInterlaced: Bool
    }

    static func invalid(_ offset: Int, _ message: String) -> SerializationError {
        SerializationError(code: .invalidBody, message: "The GIF image is invalid: \(message).", offset: offset)
    }

    static func truncated(_ offset: Int, _ what: String) -> SerializationError {
        SerializationError(
            code: .truncatedBody,
            message: "The GIF image ends in the middle of \(what); the body was probably cut off in transit.",
            offset: offset)
    }

    static func tooManyBytes(_ limits: ImageLimits) -> SerializationError {
        SerializationError(
            code: .limitExceeded,
            message: "Decoding the GIF image would keep more than the limit of \(limits.maxTotalBytes) bytes (the "
                + "first frame's canvas, every frame's palette indices and the colour tables); raise maxTotalBytes if the image is "
                + "trusted.")
    }

    static func decode(_ data: Data, options: ImageDecodingOptions) throws(SerializationError) -> Image {
        let bytes = [UInt8](data)
        let stream = try parse(bytes, decodingPixels: options.inflate, limits: options.limits)
        var metadata = Image.Metadata()
        metadata.colorType = .indexed
        metadata.bitDepth = 8
        metadata.isInterlaced = stream.isInterlaced
        metadata.hasTransparency = stream.hasTransparency
        guard options.inflate, let firstFrame = stream.frames.first else {
            var image = Image(
                undecoded: stream.width, height: stream.height, format: .gif, metadata: metadata, source: data,
                options: options)
            image.frameCount = stream.frameCount
            return image
        }
        let first = GIFAnimation.first(firstFrame, width: stream.width, height: stream.height)
        var image = Image(
            width: stream.width, height: stream.height, pixels: first.canvas, format: .gif,
            scale: options.imageScale, metadata: metadata)
        image.frameCount = stream.frames.count
        if stream.frames.count > 1 {
            let animation = GIFAnimation(
                width: stream.width, height: stream.height, frames: stream.frames, first: first)
            image.frames = stream.frames.indices.map { Image.Frame(animation: animation, index: $0) }
        }
        return image
    }

    /// Writes the colours of `count` indices starting at `start` to `target`, one 4-byte store per pixel; pixels with
    /// the transparent index are skipped (left as they are).
    @inline(__always)
    static func map(
        _ indices: [UInt8], from start: Int, count: Int, palette: [UInt32], transparentIndex: Int?,
        into target: UnsafeMutableRawPointer
    ) {
        guard count > 0 else { return }
        indices.withUnsafeBufferPointer { indices in
            palette.withUnsafeBufferPointer { palette in
                let source = indices.baseAddress! + start
                let colours = palette.baseAddress!
                if let transparentIndex {
                    let transparent = UInt8(truncatingIfNeeded: transparentIndex)
                    for pixel in 0..<count where source[pixel] != transparent {
                        target.storeBytes(of: colours[Int(source[pixel])], toByteOffset: pixel * 4, as: UInt32.self)
                    }
                } else {
                    for pixel in 0..<count {
                        target.storeBytes(of: colours[Int(source[pixel])], toByteOffset: pixel * 4, as: UInt32.self)
                    }
                }
            }
        }
    }

    /// Reads the blocks of a GIF file; with `decodingPixels` off, only counts the frames.
    static func parse(
        _ bytes: [UInt8], decodingPixels: Bool, limits: ImageLimits
    ) throws(SerializationError) -> Stream {
        guard bytes.count >= 13 else { throw truncated(bytes.count, "its header and logical screen descriptor") }
        func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        let width = u16(6)
        let height = u16(8)
        guard width > 0 && height > 0 else { throw invalid(6, "the logical screen is \(width)×\(height)") }
        try limits.check(width: width, height: height)
        let packed = bytes[10]
        var position = 13
        var globalTable: [UInt8]? = nil
        if packed & 0x80 != 0 {
            let count = 2 << Int(packed & 7)
            guard position + count * 3 <= bytes.count else { throw truncated(bytes.count, "the global colour table") }
            globalTable = Array(bytes[position..<(position + count * 3)])
            position += count * 3
        }
        var stream = Stream(
            width: width, height: height, frames: [], frameCount: 0, hasTransparency: false, isInterlaced: false)
        // What the decoded image keeps, checked against `maxTotalBytes` before each allocation: the first frame's
        // canvas (`Image.pixels`), every frame's indices and palettes. Composited canvases are made on access.
        var keptBytes = decodingPixels ? width * height * 4 : 0
        // The pixels decoded, against ``ImageLimits/maxPixelsPerByte``: the screen's canvas and every frame's indices.
        var producedPixels = width * height
        if decodingPixels {
            try limits.checkProduced(
                producedPixels, "a \(width)×\(height) logical screen", format: .gif, bodySize: bytes.count)
        }
        var globalPalettes: [Int: [UInt32]] = [:]  // by transparent index, -1 for none
        var transparent: Int? = nil
        var delay = 0.0
        var disposal = Image.Frame.Disposal.unspecified
        func skipSubBlocks() throws(SerializationError) {
            while true {
                guard position < bytes.count else { throw truncated(bytes.count, "a data sub-block") }
                let size = Int(bytes[position])
                position += 1 + size
                if size == 0 { return }
            }
        }
        parsing: while true {
            guard position < bytes.count else {
                if stream.frameCount > 0 { break parsing }  // a missing trailer after complete frames is tolerated
                throw truncated(bytes.count, "its blocks (no image was found)")
            }
            let introducer = bytes[position]
            position += 1
            switch introducer {
            case 0x3B:
                break parsing
            case 0x21:
                guard position < bytes.count else { throw truncated(bytes.count, "an extension") }
                let label = bytes[position]
                position += 1
                if label == 0xF9, position + 5 <= bytes.count, bytes[position] >= 4 {
                    let fields = bytes[position + 1]
                    delay = Double(u16(position + 2)) / 100
                    transparent = fields & 1 != 0 ? Int(bytes[position + 4]) : nil
                    switch (fields >> 2) & 7 {
                    case 1: disposal = .none
                    case 2: disposal = .background
                    case 3: disposal = .previous
                    default: disposal = .unspecified
                    }
                }
                try skipSubBlocks()
            case 0x2C:
                guard position + 9 <= bytes.count else { throw truncated(bytes.count, "an image descriptor") }
                let frameX = u16(position)
                let frameY = u16(position + 2)
                let frameWidth = u16(position + 4)
                let frameHeight = u16(position + 6)
                let fields = bytes[position + 8]
                position += 9
                var table = globalTable
                if fields & 0x80 != 0 {
                    let count = 2 << Int(fields & 7)
                    guard position + count * 3 <= bytes.count else {
                        throw truncated(bytes.count, "a local colour table")
                    }
                    table = Array(bytes[position..<(position + count * 3)])
                    position += count * 3
                }
                let interlaced = fields & 0x40 != 0
                stream.isInterlaced = stream.isInterlaced || interlaced
                stream.hasTransparency = stream.hasTransparency || transparent != nil
                stream.frameCount += 1
                try limits.check(width: width, height: height, frames: stream.frameCount, bytesPerPixel: 0)
                guard position < bytes.count else { throw truncated(bytes.count, "the LZW minimum code size") }
                let minimumCodeSize = Int(bytes[position])
                position += 1
                guard (1...11).contains(minimumCodeSize) else {
                    throw invalid(position - 1, "the LZW minimum code size \(minimumCodeSize) is not 2 to 8")
                }
                guard decodingPixels else {
                    try skipSubBlocks()
                    break
                }
                try limits.check(width: frameWidth, height: frameHeight)
                producedPixels += frameWidth * frameHeight
                try limits.checkProduced(
                    producedPixels,
                    "a \(width)×\(height) screen and \(stream.frameCount) frames, the last \(frameWidth)×\(frameHeight)",
                    format: .gif, bodySize: bytes.count)
                keptBytes += frameWidth * frameHeight
                guard keptBytes <= limits.maxTotalBytes else { throw tooManyBytes(limits) }
                // The LZW data, its sub-blocks joined, with room for the decoder's 4-byte loads past its end.
                var data: [UInt8] = []
                data.reserveCapacity(min(bytes.count - position, frameWidth * frameHeight * 2) + LZW.dataPadding)
                while true {
                    guard position < bytes.count else { throw truncated(bytes.count, "the image data") }
                    let size = Int(bytes[position])
                    position += 1
                    if size == 0 { break }
                    guard position + size <= bytes.count else { throw truncated(bytes.count, "the image data") }
                    data.append(contentsOf: bytes[position..<(position + size)])
                    position += size
                }
                guard let table else {
                    throw invalid(position, "an image has neither a local nor a global colour table")
                }
                let framePalette: [UInt32]
                if fields & 0x80 == 0, let shared = globalPalettes[transparent ?? -1] {
                    framePalette = shared
                } else {
                    keptBytes += 256 * 4
                    guard keptBytes <= limits.maxTotalBytes else { throw tooManyBytes(limits) }
                    framePalette = palette(table, transparent: transparent)
                    if fields & 0x80 == 0 { globalPalettes[transparent ?? -1] = framePalette }
                }
                data.append(contentsOf: repeatElement(0, count: LZW.dataPadding))
                let indices = LZW.decode(
                    padded: data, minimumCodeSize: minimumCodeSize, pixelCount: frameWidth * frameHeight)
                stream.frames.append(
                    RawFrame(
                        x: frameX, y: frameY, width: frameWidth, height: frameHeight, indices: indices,
                        isInterlaced: interlaced, palette: framePalette, transparentIndex: transparent, delay: delay,
                        disposal: disposal))
                transparent = nil
                delay = 0
                disposal = .unspecified
            default:
                if stream.frameCount > 0 { break parsing }  // trailing garbage after complete frames, as browsers do
                throw invalid(position - 1, "an unknown block type 0x\(String(introducer, radix: 16)) was found")
            }
        }
        guard stream.frameCount > 0 else { throw invalid(position, "the file holds no image") }
        return stream
    }

    /// A colour table as 256 RGBA8 values in memory order: the table's colours, black past its end, and alpha 0 for
    /// the transparent index.
    static func palette(_ table: [UInt8], transparent: Int?) -> [UInt32] {
        var palette = [UInt32](repeating: 0, count: 256)
        for entry in 0..<256 {
            var colour: UInt32 = entry == transparent ? 0 : 0xFF00_0000
            if entry * 3 + 2 < table.count {
                colour |=
                    UInt32(table[entry * 3]) | UInt32(table[entry * 3 + 1]) << 8 | UInt32(table[entry * 3 + 2]) << 16
            }
            palette[entry] = colour.littleEndian
        }
        return palette
    }
}

/// The variable-length-code LZW decoder of GIF (GIF89a Appendix F): codes LSB first, up to 12 bits, with clear and
/// end-of-information codes.
///
/// Every string a code stands for, except a single index, is the previous code's string plus one index, and the
/// decoder writes strings one after another: so each table entry is a range of the output already written (the
/// previous string's start, one index longer), and decoding a code copies that range forward, 8 bytes at a time.
enum LZW {
    /// How many bytes past its end the decoder may read from its data (which must be zero or any value).
    static let dataPadding = 4
    /// How many bytes past the output's end a copy may write.
    static let outputSlack = 8

    /// Decodes exactly `pixelCount` indices from `padded`, the LZW data followed by ``dataPadding`` bytes; missing
    /// data leaves zeros, extra data is ignored, invalid codes end the image (as browsers do).
    static func decode(padded: [UInt8], minimumCodeSize: Int, pixelCount: Int) -> [UInt8] {
        precondition(padded.count >= dataPadding)
        var output = [UInt8](repeating: 0, count: pixelCount + outputSlack)
        let table = UnsafeMutablePointer<Int>.allocate(capacity: 2 * 4096)
        defer { table.deallocate() }
        padded.withUnsafeBytes { input in
            output.withUnsafeMutableBufferPointer { buffer in
                decode(
                    input.baseAddress!, bitCount: (padded.count - dataPadding) * 8, minimumCodeSize: minimumCodeSize,
                    into: buffer.baseAddress!, count: pixelCount, starts: table, lengths: table + 4096)
            }
        }
        output.removeLast(outputSlack)
        return output
    }

    /// Decodes into `output` (`count` indices, plus ``outputSlack`` writable bytes after them); `starts` and
    /// `lengths` (4096 entries each) hold each code's string as a range of the output.
    static func decode(
        _ input: UnsafeRawPointer, bitCount: Int, minimumCodeSize: Int, into output: UnsafeMutablePointer<UInt8>,
        count pixelCount: Int, starts: UnsafeMutablePointer<Int>, lengths: UnsafeMutablePointer<Int>
    ) {
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var codeSize = minimumCodeSize + 1
        var mask = (1 << codeSize) - 1
        var next = clear + 2
        var previousStart = -1  // the previous string's start in the output; -1 right after a clear code
        var previousLength = 0
        var bitPosition = 0
        var written = 0
        while written < pixelCount {
            guard bitPosition + codeSize <= bitCount else { return }
            let word = UInt32(littleEndian: input.loadUnaligned(fromByteOffset: bitPosition >> 3, as: UInt32.self))
            let code = Int(truncatingIfNeeded: word >> UInt32(bitPosition & 7)) & mask
            bitPosition += codeSize
            let start: Int
            let length: Int
            if code < clear {
                output[written] = UInt8(truncatingIfNeeded: code)
                if previousStart >= 0 && next < 4096 {
                    starts[next] = previousStart
                    lengths[next] = previousLength + 1
                    next += 1
                }
                start = written
                length = 1
            } else if code > end && code < next {
                start = written
                length = lengths[code]
                copy(from: output + starts[code], to: output + written, count: min(length, pixelCount - written))
                if previousStart >= 0 && next < 4096 {
                    starts[next] = previousStart
                    lengths[next] = previousLength + 1
                    next += 1
                }
            } else if code == next && previousStart >= 0 && next < 4096 {
                // The previous string plus its own first index: a copy of it that runs one index into itself.
                length = previousLength + 1
                starts[next] = previousStart
                lengths[next] = length
                next += 1
                start = written
                let available = min(length, pixelCount - written)
                copy(from: output + previousStart, to: output + written, count: available)
                if available == length { output[written + length - 1] = output[previousStart] }
            } else if code == clear {
                codeSize = minimumCodeSize + 1
                mask = (1 << codeSize) - 1
                next = clear + 2
                previousStart = -1
                continue
            } else {
                return  // the end code, or an undefined code: the rest of the image stays at index 0
            }
            written = min(written + length, pixelCount)
            previousStart = start
            previousLength = length
            if next == 1 << codeSize && codeSize < 12 {
                codeSize += 1
                mask = (1 << codeSize) - 1
            }
        }
    }

    /// Copies `count` bytes forward 8 at a time (so up to 7 bytes past `count` are written). The source starts before
    /// the target; where they overlap, only a string's last byte can be read before it is written (see the caller).
    @inline(__always)
    static func copy(from source: UnsafeMutablePointer<UInt8>, to target: UnsafeMutablePointer<UInt8>, count: Int) {
        var offset = 0
        repeat {
            let chunk = UnsafeRawPointer(source + offset).loadUnaligned(as: UInt64.self)
            UnsafeMutableRawPointer(target + offset).storeBytes(of: chunk, as: UInt64.self)
            offset += 8
        } while offset < count
    }
}
