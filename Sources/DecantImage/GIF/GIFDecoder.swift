import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A GIF decoder (GIF87a and GIF89a, CompuServe's "Graphics Interchange Format" specification, version 89a): LZW
/// image data, interlacing, global and local colour tables, transparency, and every frame composited with its
/// disposal method.
enum GIFDecoder {
    /// One frame as stored: its rectangle, RGBA pixels of that rectangle (transparent index → alpha 0), and its
    /// graphic control values.
    struct RawFrame {
        var x: Int, y: Int, width: Int, height: Int
        var rgba: [UInt8]
        var transparentIndex: Int?
        var delay: Double
        var disposal: Image.Frame.Disposal
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

    static func decode(_ data: Data, options: ImageDecodingOptions) throws(SerializationError) -> Image {
        let bytes = [UInt8](data)
        let stream = try parse(bytes, decodingPixels: options.inflate, limits: options.limits)
        var metadata = Image.Metadata()
        metadata.colorType = .indexed
        metadata.bitDepth = 8
        metadata.isInterlaced = stream.isInterlaced
        metadata.hasTransparency = stream.hasTransparency
        guard options.inflate else {
            var image = Image(
                undecoded: stream.width, height: stream.height, format: .gif, metadata: metadata, source: data,
                options: options)
            image.frameCount = stream.frameCount
            return image
        }
        let frames = composite(stream)
        var image = Image(
            width: stream.width, height: stream.height, pixels: frames.first?.pixels ?? [], format: .gif,
            scale: options.imageScale, metadata: metadata)
        image.frameCount = frames.count
        if frames.count > 1 { image.frames = frames }
        return image
    }

    /// Draws each frame onto the canvas (GIF89a §23: disposal methods 1-3), starting from a transparent canvas.
    static func composite(_ stream: Stream) -> [Image.Frame] {
        let width = stream.width
        let height = stream.height
        var canvas = [UInt8](repeating: 0, count: width * height * 4)
        var result: [Image.Frame] = []
        result.reserveCapacity(stream.frames.count)
        for frame in stream.frames {
            let saved = frame.disposal == .previous ? canvas : nil
            let right = min(width, frame.x + frame.width)
            let bottom = min(height, frame.y + frame.height)
            if frame.x < right && frame.y < bottom {
                canvas.withUnsafeMutableBufferPointer { target in
                    frame.rgba.withUnsafeBufferPointer { source in
                        for row in frame.y..<bottom {
                            var from = (row - frame.y) * frame.width * 4
                            var to = (row * width + frame.x) * 4
                            for _ in frame.x..<right {
                                if source[from + 3] != 0 || frame.transparentIndex == nil {
                                    target[to] = source[from]
                                    target[to + 1] = source[from + 1]
                                    target[to + 2] = source[from + 2]
                                    target[to + 3] = source[from + 3]
                                }
                                from += 4
                                to += 4
                            }
                        }
                    }
                }
            }
            result.append(
                Image.Frame(
                    pixels: canvas, delay: frame.delay, disposal: frame.disposal, x: frame.x, y: frame.y,
                    width: frame.width, height: frame.height))
            switch frame.disposal {
            case .background:
                if frame.x < right && frame.y < bottom {
                    for row in frame.y..<bottom {
                        let start = (row * width + frame.x) * 4
                        for index in start..<(start + (right - frame.x) * 4) { canvas[index] = 0 }
                    }
                }
            case .previous:
                if let saved { canvas = saved }
            case .none, .unspecified:
                break
            }
        }
        return result
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
                try limits.check(
                    width: width, height: height, frames: stream.frameCount,
                    bytesPerPixel: decodingPixels ? 8 : 0)
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
                var data: [UInt8] = []
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
                var indices = LZW.decode(data, minimumCodeSize: minimumCodeSize, pixelCount: frameWidth * frameHeight)
                if interlaced { indices = deinterlace(indices, width: frameWidth, height: frameHeight) }
                let rgba = colourize(indices, table: table, transparent: transparent)
                stream.frames.append(
                    RawFrame(
                        x: frameX, y: frameY, width: frameWidth, height: frameHeight, rgba: rgba,
                        transparentIndex: transparent, delay: delay, disposal: disposal))
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

    /// RGBA for palette indices: the palette's colour, alpha 0 for the transparent index (and black for indices
    /// past the table's end).
    static func colourize(_ indices: [UInt8], table: [UInt8], transparent: Int?) -> [UInt8] {
        var palette = [UInt8](repeating: 0, count: 256 * 4)
        for entry in 0..<256 {
            if entry * 3 + 2 < table.count {
                palette[entry * 4] = table[entry * 3]
                palette[entry * 4 + 1] = table[entry * 3 + 1]
                palette[entry * 4 + 2] = table[entry * 3 + 2]
            }
            palette[entry * 4 + 3] = entry == transparent ? 0 : 255
        }
        return [UInt8](unsafeUninitializedCapacity: indices.count * 4) { buffer, count in
            palette.withUnsafeBytes { colours in
                indices.withUnsafeBufferPointer { source in
                    let target = UnsafeMutableRawPointer(buffer.baseAddress!)
                    for pixel in 0..<source.count {
                        let colour = colours.load(fromByteOffset: Int(source[pixel]) * 4, as: UInt32.self)
                        target.storeBytes(of: colour, toByteOffset: pixel * 4, as: UInt32.self)
                    }
                }
            }
            count = indices.count * 4
        }
    }

    /// Reorders rows from the four interlace passes (GIF89a Appendix E) to top-to-bottom order.
    static func deinterlace(_ indices: [UInt8], width: Int, height: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: indices.count)
        var sourceRow = 0
        for (start, step) in [(0, 8), (4, 8), (2, 4), (1, 2)] {
            var row = start
            while row < height {
                let source = sourceRow * width
                let target = row * width
                for column in 0..<width { result[target + column] = indices[source + column] }
                sourceRow += 1
                row += step
            }
        }
        return result
    }
}

/// The variable-length-code LZW decoder of GIF (GIF89a Appendix F): codes LSB first, up to 12 bits, with clear and
/// end-of-information codes.
enum LZW {
    /// Decodes exactly `pixelCount` indices; missing data leaves zeros, extra data is ignored, invalid codes end the
    /// image (as browsers do).
    static func decode(_ data: [UInt8], minimumCodeSize: Int, pixelCount: Int) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: pixelCount)
        let clear = 1 << minimumCodeSize
        let tables = UnsafeMutableRawPointer.allocate(byteCount: 4096 * 16, alignment: 8)
        defer { tables.deallocate() }
        let lengths = tables.bindMemory(to: Int.self, capacity: 4096)
        let prefix = (tables + 4096 * 8).bindMemory(to: Int16.self, capacity: 4096)
        let suffix = (tables + 4096 * 12).bindMemory(to: UInt8.self, capacity: 4096)
        let first = (tables + 4096 * 14).bindMemory(to: UInt8.self, capacity: 4096)
        lengths.initialize(repeating: 0, count: 4096)
        prefix.initialize(repeating: -1, count: 4096)
        suffix.initialize(repeating: 0, count: 4096)
        first.initialize(repeating: 0, count: 4096)
        for code in 0..<min(clear, 4096) {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = UInt8(truncatingIfNeeded: code)
            lengths[code] = 1
        }
        output.withUnsafeMutableBufferPointer { buffer in
            decode(
                data, minimumCodeSize: minimumCodeSize, into: buffer, lengths: lengths, prefix: prefix,
                suffix: suffix, first: first)
        }
        return output
    }

    static func decode(
        _ data: [UInt8], minimumCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>,
        lengths: UnsafeMutablePointer<Int>, prefix: UnsafeMutablePointer<Int16>, suffix: UnsafeMutablePointer<UInt8>,
        first: UnsafeMutablePointer<UInt8>
    ) {
        let pixelCount = output.count
        let clear = 1 << minimumCodeSize
        let end = clear + 1
        var codeSize = minimumCodeSize + 1
        var next = clear + 2
        var previous = -1
        var bitBuffer = 0
        var bitCount = 0
        var position = 0
        var written = 0
        while written < pixelCount {
            while bitCount < codeSize {
                guard position < data.count else { return }
                bitBuffer |= Int(data[position]) << bitCount
                position += 1
                bitCount += 8
            }
            let code = bitBuffer & ((1 << codeSize) - 1)
            bitBuffer >>= codeSize
            bitCount -= codeSize
            if code == clear {
                codeSize = minimumCodeSize + 1
                next = clear + 2
                previous = -1
                continue
            }
            if code == end { return }
            var entry: Int
            if code < next && (code < clear || code > end) {
                entry = code
                if previous >= 0 && next < 4096 {
                    prefix[next] = Int16(previous)
                    suffix[next] = first[code]
                    first[next] = first[previous]
                    lengths[next] = lengths[previous] + 1
                    next += 1
                }
            } else if code == next && previous >= 0 && next < 4096 {
                prefix[next] = Int16(previous)
                suffix[next] = first[previous]
                first[next] = first[previous]
                lengths[next] = lengths[previous] + 1
                next += 1
                entry = code
            } else {
                return  // an undefined code: the rest of the image stays at index 0
            }
            // Write the string of `entry` backwards from its end.
            let length = lengths[entry]
            var index = min(written + length, pixelCount) - 1
            var skip = written + length - pixelCount
            var cursor = entry
            while cursor >= 0 {
                if skip > 0 {
                    skip -= 1
                } else {
                    output[index] = suffix[cursor]
                    index -= 1
                }
                cursor = Int(prefix[cursor])
            }
            written = min(written + length, pixelCount)
            previous = entry
            if next == 1 << codeSize && codeSize < 12 { codeSize += 1 }
        }
    }
}
