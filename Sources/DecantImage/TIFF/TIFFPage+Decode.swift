import DecantCompression
import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decoding a page: each strip or tile decompressed (TIFF 6.0 §9, §13, §15), its predictor undone (§14), its rows
/// placed in the image's planes, then the planes converted to RGBA8.
extension TIFFPage {
    /// The page's RGBA8 pixels, `width * height * 4` bytes.
    func decode() throws(SerializationError) -> [UInt8] {
        try checkWork()
        if compression == 7 {
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            try decodeJPEG(into: &pixels)
            return pixels
        }
        if photometric == 6 {
            var pixels = [UInt8](repeating: 255, count: width * height * 4)
            try decodeYCbCr(into: &pixels)
            return pixels
        }
        let count = width * height
        if bitsPerSample == 8 && samplesPerPixel == 3 && photometric == 2 && sampleFormat == 1 && !isPlanar {
            // Chunky RGB8: the samples are decoded into the last three quarters of the pixel buffer and spread
            // forward to RGBA in place (pixel i is written at 4i, read from count + 3i, never ahead of the reads).
            // Not initialised: strips write every byte of their rows (zeros where the data falls short, or an error),
            // so the samples fill the last three quarters, and the spread writes every pixel. Tiles, which write only
            // their visible columns, start from initialised memory.
            var pixels =
                isTiled
                ? [UInt8](repeating: 255, count: count * 4)
                : [UInt8](unsafeUninitializedCapacity: count * 4) { _, initialized in initialized = count * 4 }
            _ = try decodeSamples(into: &pixels, at: count)
            pixels.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress, buffer.count == count * 4 else { return }
                // Four pixels at a time: twelve bytes read as a word and a half-word, sixteen written as two words
                // (a group's writes end before the next group's samples begin). Then one pixel at a time: four bytes
                // read (the pixel and the next one's red) and written with alpha set, for every pixel but the last,
                // whose fourth byte would be past the buffer.
                let raw = UnsafeMutableRawPointer(base)
                var index = 0
                while index + 4 <= count - 1 {
                    let low = UInt64(
                        littleEndian: raw.loadUnaligned(fromByteOffset: count + 3 * index, as: UInt64.self))
                    let high = UInt64(
                        UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: count + 3 * index + 8, as: UInt32.self)))
                    let opaque: UInt64 = 0xFF00_0000_FF00_0000
                    let first = (low & 0xFF_FFFF) | (low & 0xFFFF_FF00_0000) << 8
                    let second = (low >> 48) | (high & 0xFF) << 16 | (high & 0xFFFF_FF00) << 24
                    raw.storeBytes(of: (first | opaque).littleEndian, toByteOffset: 4 * index, as: UInt64.self)
                    raw.storeBytes(of: (second | opaque).littleEndian, toByteOffset: 4 * index + 8, as: UInt64.self)
                    index += 4
                }
                while index < count - 1 {
                    let rgb = UInt32(
                        littleEndian: raw.loadUnaligned(fromByteOffset: count + 3 * index, as: UInt32.self))
                    raw.storeBytes(of: (rgb | 0xFF00_0000).littleEndian, toByteOffset: 4 * index, as: UInt32.self)
                    index += 1
                }
                if count > 0 {
                    let source = base + count + 3 * (count - 1)
                    let red = source[0], green = source[1], blue = source[2]
                    let target = base + 4 * (count - 1)
                    target[0] = red
                    target[1] = green
                    target[2] = blue
                    target[3] = 255
                }
            }
            return pixels
        }
        let (raw, planeRowBytes) = try decodeSamples()
        var pixels = [UInt8](repeating: 255, count: count * 4)
        convert(raw, planeRowBytes: planeRowBytes, into: &pixels)
        return pixels
    }

    /// Throws `limitExceeded` when the page's strips or tiles hold more pixels than the body may decode to: the
    /// work of decoding every chunk is bounded like the pixels it produces.
    func checkWork() throws(SerializationError) {
        let limits = decoder.options.limits
        let planes = isPlanar ? samplesPerPixel : 1
        let chunksPerPlane = chunksAcross * chunksDown
        let (chunkArea, overflow1) = chunkWidth.multipliedReportingOverflow(by: chunkHeight)
        let (allChunks, overflow2) = chunkArea.multipliedReportingOverflow(by: chunksPerPlane * planes)
        guard !overflow1, !overflow2 else {
            throw SerializationError(
                code: .limitExceeded, message: "The TIFF image's strips or tiles would hold too many pixels.")
        }
        try limits.checkProduced(
            allChunks, "\(chunksPerPlane * planes) strips or tiles of \(chunkWidth)×\(chunkHeight)", format: .tiff,
            bodySize: decoder.bytes.count)
    }

    /// The page's samples as stored, decompressed and with the predictor undone: for each plane (one, or one per
    /// sample when planar), `height` rows of `planeRowBytes` bytes, in the file's byte order (TIFF 6.0 §2 "Image
    /// data", §19 "PlanarConfiguration").
    func decodeSamples() throws(SerializationError) -> (raw: [UInt8], planeRowBytes: Int) {
        let planeSamples = isPlanar ? 1 : samplesPerPixel
        let planeRowBytes = (width * bitsPerSample * planeSamples + 7) / 8
        let (planeBytes, overflow) = planeRowBytes.multipliedReportingOverflow(
            by: height * (isPlanar ? samplesPerPixel : 1))
        guard !overflow, planeBytes <= decoder.options.limits.maxTotalBytes else {
            throw SerializationError(
                code: .limitExceeded,
                message: "Decoding the \(width)×\(height) TIFF image would take more than the limit of "
                    + "\(decoder.options.limits.maxTotalBytes) bytes; raise maxTotalBytes if the image is trusted.")
        }
        var raw = [UInt8](repeating: 0, count: planeBytes)
        _ = try decodeSamples(into: &raw, at: 0)
        return (raw, planeRowBytes)
    }

    /// Decodes the samples as ``decodeSamples()`` does into `raw` from `origin`, which the caller sized to hold them;
    /// returns the bytes per row of a plane.
    func decodeSamples(into raw: inout [UInt8], at origin: Int) throws(SerializationError) -> Int {
        try checkWork()
        let limits = decoder.options.limits
        let planes = isPlanar ? samplesPerPixel : 1
        let chunksPerPlane = chunksAcross * chunksDown
        let planeSamples = isPlanar ? 1 : samplesPerPixel
        let bitsPerPixel = bitsPerSample * planeSamples
        let planeRowBytes = (width * bitsPerPixel + 7) / 8
        let chunkRowBytes = (chunkWidth * bitsPerPixel + 7) / 8
        let (planeBytes, overflow3) = planeRowBytes.multipliedReportingOverflow(by: height * planes)
        let (chunkBytes, overflow4) = chunkRowBytes.multipliedReportingOverflow(by: chunkHeight)
        // The planes, one chunk, the pixels, and the row of samples the conversion keeps (8 bytes per sample).
        let rowBuffer = width * samplesPerPixel * 8
        guard !overflow3, !overflow4, planeBytes + chunkBytes + width * height * 4 + rowBuffer <= limits.maxTotalBytes
        else {
            throw SerializationError(
                code: .limitExceeded,
                message: "Decoding the \(width)×\(height) TIFF image would take more than the limit of "
                    + "\(limits.maxTotalBytes) bytes (its samples and pixels); raise maxTotalBytes if the image is "
                    + "trusted.")
        }
        guard origin >= 0, origin <= raw.count - planeBytes else {
            throw SerializationError(code: .limitExceeded, message: "The TIFF image's samples do not fit their buffer.")
        }
        // Strips are decoded in place; only tiles need a buffer of their own.
        var chunk = [UInt8](repeating: 0, count: isTiled ? chunkBytes : 0)
        var lzw = compression == 5 ? LZWDecoder() : nil
        for plane in 0..<planes {
            for down in 0..<chunksDown {
                let top = down * chunkHeight
                let rows = isTiled ? chunkHeight : min(chunkHeight, height - top)
                for across in 0..<chunksAcross {
                    let index = plane * chunksPerPlane + down * chunksAcross + across
                    let needed = chunkRowBytes * rows
                    if !isTiled {
                        // A strip's rows are whole rows of the plane: decoded in place.
                        let base = origin + plane * planeRowBytes * height + top * planeRowBytes
                        try decompress(index, into: &raw, at: base, count: needed, lzw: &lzw)
                        try undoPredictor(&raw, at: base, rows: rows, rowBytes: chunkRowBytes, samples: planeSamples)
                        continue
                    }
                    try decompress(index, into: &chunk, at: 0, count: needed, lzw: &lzw)
                    try undoPredictor(&chunk, at: 0, rows: rows, rowBytes: chunkRowBytes, samples: planeSamples)
                    let left = across * chunkWidth
                    let columns = min(chunkWidth, width - left)
                    let visibleRows = min(rows, height - top)
                    place(
                        chunk, rows: visibleRows, rowBytes: chunkRowBytes, into: &raw,
                        at: origin + plane * planeRowBytes * height + top * planeRowBytes, planeRowBytes: planeRowBytes,
                        left: left, columns: columns, bitsPerPixel: bitsPerPixel)
                }
            }
        }
        return planeRowBytes
    }

    /// Copies the first `rows` rows of a decoded chunk into the plane at `start`, columns `left..<left + columns`.
    func place(
        _ chunk: [UInt8], rows: Int, rowBytes: Int, into raw: inout [UInt8], at start: Int, planeRowBytes: Int,
        left: Int, columns: Int, bitsPerPixel: Int
    ) {
        guard rows > 0, columns > 0 else { return }
        chunk.withUnsafeBufferPointer { chunk in
            raw.withUnsafeMutableBufferPointer { raw in
                guard let source = chunk.baseAddress, let target = raw.baseAddress else { return }
                if bitsPerPixel % 8 == 0 {
                    let bytes = columns * bitsPerPixel / 8
                    let skip = left * bitsPerPixel / 8
                    for row in 0..<rows {
                        (target + start + row * planeRowBytes + skip).update(
                            from: source + row * rowBytes, count: bytes)
                    }
                } else {
                    // Sub-byte pixels: copy bit by bit (tiles of bilevel or 2- and 4-bit images only).
                    let bits = columns * bitsPerPixel
                    let skip = left * bitsPerPixel
                    for row in 0..<rows {
                        let from = source + row * rowBytes
                        let to = target + start + row * planeRowBytes
                        for bit in 0..<bits {
                            let value = (from[bit >> 3] >> (7 - UInt8(bit & 7))) & 1
                            let at = skip + bit
                            let mask = UInt8(0x80) >> UInt8(at & 7)
                            if value != 0 { to[at >> 3] |= mask } else { to[at >> 3] &= ~mask }
                        }
                    }
                }
            }
        }
    }

    /// Decompresses chunk `index` into the `count` bytes of `output` from `base` (TIFF 6.0 §9 PackBits, §13 LZW,
    /// technote "Deflate"; the caller has checked `base + count <= output.count`).
    ///
    /// As libtiff and Pillow read them: an uncompressed chunk is the `count` bytes at its offset whatever its byte
    /// count says, and a byte count of 0 (unknown) lets a compressed chunk's data run to the end of the body.
    ///
    /// - Throws: `truncatedBody` when the chunk's bytes run past the end of the body and the data there falls short
    ///   of `count` bytes, `invalidBody` when the data its byte count gives decodes to fewer than `count` bytes.
    func decompress(
        _ index: Int, into output: inout [UInt8], at base: Int, count: Int, lzw: inout LZWDecoder?
    ) throws(SerializationError) {
        guard base >= 0, count >= 0, base <= output.count - count else {
            // Callers size their buffers for every chunk; every byte of `output[base..<base + count]` is written below.
            throw SerializationError(code: .limitExceeded, message: "The TIFF image's samples do not fit their buffer.")
        }
        let bytes = decoder.bytes
        let offset = offsets[index]
        let given = index < byteCounts.count ? byteCounts[index] : 0
        // Uncompressed data is the chunk's rows; compressed data runs to the end of the body when its size is unknown.
        let declared = compression == 1 ? count : (given > 0 ? given : bytes.count - offset)
        guard offset >= 0, offset <= bytes.count, declared >= 0 else {
            throw TIFFDecoder.truncated(bytes.count, "strip or tile \(index), which starts at offset \(offset)")
        }
        let end = offset + min(declared, bytes.count - offset)
        var produced = 0
        switch compression {
        case 1:
            produced = min(count, end - offset)
            output.withUnsafeMutableBufferPointer { out in
                guard let target = out.baseAddress, let source = bytes.baseAddress else { return }
                (target + base).update(from: source + offset, count: produced)
            }
        case 32773:
            produced = PackBits.decode(bytes, from: offset, to: end, into: &output, at: base, count: count)
        case 5:
            if lzw == nil { lzw = LZWDecoder() }
            produced = try lzw!.decode(bytes, from: offset, to: end, into: &output, at: base, count: count)
        default:
            do throws(SerializationError) {
                produced = try inflate(bytes, from: offset, to: end, into: &output, at: base, count: count)
            } catch {
                var error = error
                error.message =
                    "The TIFF strip or tile \(index) at offset \(offset) cannot be inflated. " + error.message
                throw error
            }
        }
        if produced < count {
            let kind = isTiled ? "tile" : "strip"
            if declared > bytes.count - offset || compression != 1 && given <= 0 {
                throw SerializationError(
                    code: .truncatedBody,
                    message: "The TIFF image ends in the middle of \(kind) \(index): the \(bytes.count - offset) "
                        + "bytes from its offset \(offset) to the end of the body give \(produced) of the \(count) "
                        + "bytes its rows need; the body was probably cut off in transit.",
                    offset: bytes.count)
            }
            throw SerializationError(
                code: .invalidBody,
                message: "The TIFF image's \(kind) \(index) is short: its \(declared) bytes at offset \(offset) "
                    + "decode to \(produced) of the \(count) bytes its rows need (a wrong byte count, or "
                    + "compressed data that ends early). The file is damaged; re-encode it.",
                offset: offset)
        }
        if reversedBits {
            for index in base..<(base + count) { output[index] = Self.reversed[Int(output[index])] }
        }
    }

    /// Inflates the zlib stream `bytes[start..<end]` (TIFF technote "Deflate") into `output[base..<base + count]`;
    /// returns how many bytes it produced (a stream may hold more than `count`: the rest is ignored).
    ///
    /// Straight into `output` when the bytes after the chunk can take the decoder's overrun (every strip but the
    /// last: the next strip writes over them); otherwise, or when the stream holds more than `count` bytes, through a
    /// buffer of its own.
    func inflate(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into output: inout [UInt8], at base: Int,
        count: Int
    ) throws(SerializationError) -> Int {
        let stream = UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end]))
        if base + count + OutputBuffer.slack <= output.count {
            let direct: Int? = try output.withUnsafeMutableBufferPointer { (buffer) throws(SerializationError) in
                var lent = OutputBuffer(lending: buffer.baseAddress! + base, size: count)
                do throws(InflateError) {
                    _ = try Inflate.zlib(stream, into: &lent)
                    return lent.count
                } catch {
                    // Full, and more to come: decoded again below, keeping what fits.
                    guard error.code == .invalidBody && lent.count == count else { throw SerializationError(error) }
                    return nil
                }
            }
            if let direct { return direct }
        }
        do throws(InflateError) {
            var inflated = try OutputBuffer(growableUpTo: count + (1 << 16), hint: count)
            defer { inflated.deallocate() }
            _ = try Inflate.zlib(stream, into: &inflated)
            let produced = min(count, inflated.count)
            output.withUnsafeMutableBufferPointer { out in
                (out.baseAddress! + base).update(from: inflated.base, count: produced)
            }
            return produced
        } catch {
            throw SerializationError(error)
        }
    }

    /// Each byte with its bits in reverse order, for FillOrder 2 (TIFF 6.0 §8).
    static let reversed: [UInt8] = (0..<256).map { value in
        var result: UInt8 = 0
        for bit in 0..<8 where value & (1 << bit) != 0 { result |= 0x80 >> UInt8(bit) }
        return result
    }

    /// Undoes the horizontal predictor (TIFF 6.0 §14) or the floating-point predictor (Adobe technote 3) on
    /// `rows` rows of `rowBytes` bytes each from `base`.
    func undoPredictor(
        _ chunk: inout [UInt8], at base: Int, rows: Int, rowBytes: Int, samples: Int
    ) throws(SerializationError) {
        guard predictor != 1, base >= 0, base + rows * rowBytes <= chunk.count else { return }
        let little = decoder.littleEndian
        let sampleBytes = bitsPerSample / 8
        let rowSamples = chunkWidth * samples
        var scratch = predictor == 3 ? [UInt8](repeating: 0, count: rowBytes) : []
        chunk.withUnsafeMutableBufferPointer { chunk in
            scratch.withUnsafeMutableBufferPointer { scratch in
                guard let start = chunk.baseAddress else { return }
                for row in 0..<rows {
                    let line = start + base + row * rowBytes
                    if predictor == 2 {
                        switch sampleBytes {
                        case 1 where samples == 3 && rowSamples >= 3:
                            // RGB: the running sums stay in registers.
                            var red = line[0], green = line[1], blue = line[2]
                            var index = 3
                            while index &+ 2 < rowSamples {
                                red &+= line[index]
                                green &+= line[index &+ 1]
                                blue &+= line[index &+ 2]
                                line[index] = red
                                line[index &+ 1] = green
                                line[index &+ 2] = blue
                                index &+= 3
                            }
                        case 1:
                            var index = samples
                            while index < rowSamples {
                                line[index] &+= line[index &- samples]
                                index &+= 1
                            }
                        default:
                            var index = samples
                            while index < rowSamples {
                                let sum =
                                    Self.read(line, index, sampleBytes, little)
                                    &+ Self.read(line, index - samples, sampleBytes, little)
                                Self.write(sum, line, index, sampleBytes, little)
                                index += 1
                            }
                        }
                    } else {
                        // Bytes are differenced across the row, the samples stored as planes of their bytes,
                        // the most significant first.
                        let count = rowSamples * sampleBytes
                        guard count <= rowBytes, let temp = scratch.baseAddress else { return }
                        var index = samples
                        while index < count {
                            line[index] &+= line[index - samples]
                            index += 1
                        }
                        temp.update(from: line, count: count)
                        for sample in 0..<rowSamples {
                            for byte in 0..<sampleBytes {
                                let significance = sampleBytes - 1 - byte
                                let target = little ? significance : byte
                                line[sample * sampleBytes + target] = temp[byte * rowSamples + sample]
                            }
                        }
                    }
                }
            }
        }
    }

    /// The `size`-byte unsigned sample `index` of `line`.
    @inline(__always)
    static func read(_ line: UnsafeMutablePointer<UInt8>, _ index: Int, _ size: Int, _ little: Bool) -> UInt32 {
        var value: UInt32 = 0
        for byte in 0..<size {
            value = value << 8 | UInt32(line[index * size + (little ? size - 1 - byte : byte)])
        }
        return value
    }

    /// Stores `value` as the `size`-byte sample `index` of `line`.
    @inline(__always)
    static func write(_ value: UInt32, _ line: UnsafeMutablePointer<UInt8>, _ index: Int, _ size: Int, _ little: Bool) {
        for byte in 0..<size {
            let shift = UInt32(8 * (little ? byte : size - 1 - byte))
            line[index * size + byte] = UInt8(truncatingIfNeeded: value >> shift)
        }
    }
}

/// PackBits run-length decoding (TIFF 6.0 §9).
enum PackBits {
    /// Decodes `bytes[start..<end]` into `output` from `base`, at most `count` bytes; returns how many were produced.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into output: inout [UInt8], at base: Int,
        count: Int
    ) -> Int {
        var position = start
        var produced = 0
        while position < end && produced < count {
            let header = Int(Int8(bitPattern: bytes[position]))
            position += 1
            if header >= 0 {
                let length = min(header + 1, end - position, count - produced)
                for index in 0..<length { output[base + produced + index] = bytes[position + index] }
                produced += length
                position += header + 1
            } else if header != -128 {
                guard position < end else { break }
                let length = min(1 - header, count - produced)
                let value = bytes[position]
                for index in 0..<length { output[base + produced + index] = value }
                produced += length
                position += 1
            }
        }
        return produced
    }
}
