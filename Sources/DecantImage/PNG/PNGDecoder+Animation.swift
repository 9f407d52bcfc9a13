import DecantCore

/// APNG: the animation chunks of PNG Third Edition (`acTL`, `fcTL`, `fdAT`; formerly Mozilla's APNG 1.0).
///
/// A PNG is animated when an `acTL` chunk comes before its first `IDAT`; otherwise any `fcTL` and `fdAT` chunks are
/// ignored, as a decoder without APNG support would. Each frame's data is decoded like `IDAT` (the image's colour
/// type, bit depth, palette, `tRNS` and interlacing, at the frame's own size), converted to RGBA8 (16-bit sources
/// too: ``Image/samples16`` is the default image's only), and drawn onto a canvas of the image's size that starts
/// transparent black. The default image is frame 0 when an `fcTL` precedes `IDAT`, and not part of the animation
/// otherwise; ``Image/pixels`` is the default image either way.
///
/// Rules this decoder chooses where the specification leaves room:
/// - A broken animation costs the animation, never the image. Sequence numbers out of order (they run from 0 across
///   `fcTL` and `fdAT`), an `fcTL` count other than `num_frames`, a frame without `fdAT` data, an `fdAT` before
///   `IDAT` or without an `fcTL`, a region outside the canvas, an unknown `dispose_op` or `blend_op`, the default
///   image's `fcTL` not covering the whole canvas from (0, 0), a second `acTL`, a wrong length or CRC in any of the
///   three chunks, or frame data that does not inflate to the frame's size: the image decodes as a still PNG, its
///   default image only, with ``Image/frames`` empty and ``Image/frameCount`` 1. That is the specification's advice
///   ("discard all subsequent frames, stop the animation, and revert to displaying the default image") and what
///   Chrome and Firefox show. Errors of the PNG itself (a damaged critical chunk, a truncated body) still fail.
/// - ``ImageLimits/maxFrames`` is checked against `num_frames` when `acTL` is read, with `inflate` on or off, and
///   ``ImageLimits/maxTotalBytes`` against the default image plus one RGBA8 canvas per frame, before any frame is
///   kept: passing either throws `limitExceeded`, like a GIF with too many frames, rather than quietly dropping the
///   animation.
/// - With `inflate` off, ``Image/frameCount`` is `num_frames` when the chunks are sound (checked without inflating
///   anything); frame data that then fails to inflate makes ``Image/decoded()`` fall back to the still image.
/// - Every frame of a sound animation is in ``Image/frames``, even a single one (it may differ from the default
///   image). A frame's ``Image/Frame/disposal`` is the disposal applied: `dispose_op` 2 on the first frame is
///   reported as ``Image/Frame/Disposal/background``, as the specification says to treat it.
/// - `blend_op` 1 (over) composites in straight alpha with the specification's formula: `a = Fa + Ba(1 - Fa)` and
///   `C = (Fc Fa + Bc Ba (1 - Fa)) / a`, computed exactly in integers and rounded to nearest (halves up); a fully
///   transparent frame pixel leaves the canvas as it was.
/// - With `premultipliedAlpha`, each frame's canvas is premultiplied after compositing, which is done in straight
///   alpha.
extension PNGDecoder {
    /// One frame as an `fcTL` chunk describes it, with its `fdAT` data.
    struct FrameControl {
        var x: Int, y: Int, width: Int, height: Int
        /// `delay_num / delay_den` seconds (a denominator of 0 meaning 100).
        var delay: Double
        /// The disposal applied after the frame: `dispose_op` 0, 1, 2 (the first frame's 2 as 1).
        var disposal: Image.Frame.Disposal
        /// Whether `blend_op` is 1 (over) rather than 0 (source).
        var blendsOver: Bool
        /// Whether this frame's data is the default image's `IDAT` (its `fcTL` came before `IDAT`).
        var usesDefaultImage: Bool
        /// The frame's zlib stream: its `fdAT` chunks' data joined (kept only when decoding pixels).
        var data: [UInt8] = []
        /// How many `fdAT` chunks the frame has.
        var dataChunks = 0
    }

    /// What the APNG chunks say, gathered while the chunks are walked.
    struct Animation {
        /// `num_frames` from an `acTL` before `IDAT`; `nil` when there is none, so the PNG is a still image.
        var declaredFrames: Int?
        /// `num_plays`: how many times the animation plays, 0 meaning forever.
        var plays = 0
        /// The frames, in order.
        var frames: [FrameControl] = []
        /// The sequence number the next `fcTL` or `fdAT` must have.
        var nextSequence: UInt32 = 0
        /// Why the animation is ignored, and the offset of the chunk that showed it; `nil` while it is sound.
        var problem: (offset: Int, reason: String)?

        /// The number of frames when the PNG is an animation whose chunks are sound, else `nil`.
        var soundFrameCount: Int? { problem == nil ? declaredFrames : nil }

        /// Marks the animation broken (the first reason is kept) and drops its frames.
        mutating func fail(at offset: Int, _ reason: String) {
            guard problem == nil else { return }
            problem = (offset, reason)
            frames = []
        }

        /// Reads an `fcTL` chunk; `canvas` is the image's header.
        mutating func readFrameControl(
            _ body: UnsafeRawBufferPointer, at offset: Int, canvas: Header, afterImageData: Bool
        ) {
            // After IDAT without an acTL before it, the PNG is not animated: its APNG chunks are ignored.
            guard problem == nil, declaredFrames != nil || !afterImageData else { return }
            guard body.count == 26 else { return fail(at: offset, "an fcTL chunk is \(body.count) bytes, not 26") }
            guard readSequence(body, at: offset, chunk: "fcTL") else { return }
            let width = Int(readUInt32(body, 4))
            let height = Int(readUInt32(body, 8))
            let x = Int(readUInt32(body, 12))
            let y = Int(readUInt32(body, 16))
            let numerator = Int(body[20]) << 8 | Int(body[21])
            let denominator = Int(body[22]) << 8 | Int(body[23])
            let index = frames.count
            guard width > 0, height > 0, x + width <= canvas.width, y + height <= canvas.height else {
                return fail(
                    at: offset,
                    "frame \(index)'s region, \(width)×\(height) at (\(x), \(y)), is not inside the "
                        + "\(canvas.width)×\(canvas.height) canvas")
            }
            guard body[24] <= 2 else { return fail(at: offset, "frame \(index)'s dispose_op \(body[24]) is not 0-2") }
            guard body[25] <= 1 else { return fail(at: offset, "frame \(index)'s blend_op \(body[25]) is not 0 or 1") }
            if let declaredFrames, index >= declaredFrames {
                return fail(at: offset, "there are more fcTL chunks than acTL's num_frames, \(declaredFrames)")
            }
            if afterImageData {
                if let last = frames.last, !last.usesDefaultImage, last.dataChunks == 0 {
                    return fail(at: offset, "frame \(index - 1) has no fdAT chunk")
                }
            } else {
                guard index == 0 else { return fail(at: offset, "there are two fcTL chunks before IDAT") }
                guard x == 0, y == 0, width == canvas.width, height == canvas.height else {
                    return fail(at: offset, "the default image's fcTL does not cover the canvas from (0, 0)")
                }
            }
            let disposals: [Image.Frame.Disposal] = [.none, .background, index == 0 ? .background : .previous]
            frames.append(
                FrameControl(
                    x: x, y: y, width: width, height: height,
                    delay: Double(numerator) / Double(denominator == 0 ? 100 : denominator),
                    disposal: disposals[Int(body[24])], blendsOver: body[25] == 1, usesDefaultImage: !afterImageData))
        }

        /// Reads an `fdAT` chunk, keeping its data when `keepingImageData`.
        mutating func readFrameData(
            _ body: UnsafeRawBufferPointer, at offset: Int, afterImageData: Bool, keepingImageData: Bool
        ) {
            guard problem == nil, declaredFrames != nil || !afterImageData else { return }
            guard afterImageData else { return fail(at: offset, "an fdAT chunk comes before IDAT") }
            guard body.count >= 4 else { return fail(at: offset, "an fdAT chunk is shorter than its sequence number") }
            guard readSequence(body, at: offset, chunk: "fdAT") else { return }
            guard let last = frames.last, !last.usesDefaultImage else {
                return fail(at: offset, "an fdAT chunk has no fcTL before it")
            }
            frames[frames.count - 1].dataChunks += 1
            if keepingImageData { frames[frames.count - 1].data.append(contentsOf: body[4...]) }
        }

        /// Checks the chunk's sequence number against the one expected, and counts it.
        mutating func readSequence(_ body: UnsafeRawBufferPointer, at offset: Int, chunk: String) -> Bool {
            let sequence = readUInt32(body, 0)
            guard sequence == nextSequence else {
                fail(at: offset, "an \(chunk) chunk has sequence number \(sequence) where \(nextSequence) is next")
                return false
            }
            nextSequence += 1
            return true
        }

        /// Checks what can only be checked at `IEND`: the frame count and the last frame's data.
        mutating func finish(at offset: Int) {
            guard let declaredFrames else {
                frames = []
                return
            }
            guard problem == nil else { return }
            guard frames.count == declaredFrames else {
                return fail(
                    at: offset, "acTL declares \(declaredFrames) frames but there are \(frames.count) fcTL chunks")
            }
            if let last = frames.last, !last.usesDefaultImage, last.dataChunks == 0 {
                fail(at: offset, "frame \(frames.count - 1) has no fdAT chunk")
            }
        }
    }

    /// Reads an `acTL` chunk and checks ``ImageLimits`` against its frame count before any frame is kept.
    static func readAnimationControl(
        _ body: UnsafeRawBufferPointer, at offset: Int, into parsed: inout Parsed, afterImageData: Bool,
        limits: ImageLimits, keepingImageData: Bool, bodySize: Int
    ) throws(SerializationError) {
        guard parsed.animation.problem == nil else { return }
        guard parsed.animation.declaredFrames == nil else {
            return parsed.animation.fail(at: offset, "there is a second acTL chunk")
        }
        // An acTL after IDAT does not make the PNG an animation: ignored, as the chunks that follow it.
        guard !afterImageData else { return }
        guard body.count == 8 else { return parsed.animation.fail(at: offset, "the acTL chunk is not 8 bytes") }
        let frames = Int(readUInt32(body, 0))
        guard frames > 0 && frames <= 0x7FFF_FFFF else {
            return parsed.animation.fail(at: offset, "acTL's num_frames, \(frames), is not 1 to 2^31-1")
        }
        let header = parsed.header
        do throws(SerializationError) {
            try limits.check(width: header.width, height: header.height, frames: frames, bytesPerPixel: 0)
            if keepingImageData {
                let pixels = header.width * header.height
                let (produced, overflow0) = pixels.multipliedReportingOverflow(by: frames)
                try limits.checkProduced(
                    overflow0 ? Int.max : produced, "\(frames) frames of \(header.width)×\(header.height)",
                    format: .png, bodySize: bodySize)
                let perPixel = header.decodingBytesPerPixel(keepingImageData: true)
                let (canvases, overflow) = frames.multipliedReportingOverflow(by: 4)
                let (total, overflow2) = pixels.multipliedReportingOverflow(by: perPixel + canvases)
                guard !overflow, !overflow2, total <= limits.maxTotalBytes else {
                    throw SerializationError(
                        code: .limitExceeded,
                        message: "Decoding the animated PNG would take more than the limit of "
                            + "\(limits.maxTotalBytes) bytes: its \(frames) frames are \(header.width)×"
                            + "\(header.height) RGBA8 canvases, besides the default image; raise maxTotalBytes if "
                            + "the image is trusted.")
                }
            }
        } catch {
            var error = error
            error.offset = offset
            throw error
        }
        parsed.animation.declaredFrames = frames
        parsed.animation.plays = Int(readUInt32(body, 4))
    }

    /// The animation's frames composited onto the canvas (PNG Third Edition, `fcTL` `dispose_op` and `blend_op`),
    /// or `nil` when the PNG is not animated or its animation is broken (see the rules above).
    /// `defaultImage` is the decoded `IDAT`, RGBA8.
    static func decodeFrames(_ parsed: Parsed, defaultImage: [UInt8]) -> [Image.Frame]? {
        guard parsed.animation.soundFrameCount != nil else { return nil }
        let width = parsed.header.width
        let converter = RowConverter(parsed: parsed)
        var canvas = [UInt8](repeating: 0, count: width * parsed.header.height * 4)
        var saved: [UInt8] = []
        var result: [Image.Frame] = []
        result.reserveCapacity(parsed.animation.frames.count)
        for frame in parsed.animation.frames {
            var pixels = defaultImage
            if !frame.usesDefaultImage {
                var header = parsed.header
                header.width = frame.width
                header.height = frame.height
                let count = frame.width * frame.height * 4
                // decodeImageData writes every pixel, or throws.
                pixels = [UInt8](unsafeUninitializedCapacity: count) { _, initialized in initialized = count }
                do {
                    try pixels.withUnsafeMutableBufferPointer { (buffer) throws(SerializationError) in
                        try decodeImageData(
                            frame.data, header: header, converter: converter, naming: "fdAT",
                            into: buffer.baseAddress!, wide: nil)
                    }
                } catch {
                    return nil
                }
            }
            if frame.disposal == .previous { saved = copyRegion(of: frame, from: canvas, canvasWidth: width) }
            draw(pixels, frame, onto: &canvas, canvasWidth: width)
            result.append(
                Image.Frame(
                    pixels: canvas, delay: frame.delay, disposal: frame.disposal, x: frame.x, y: frame.y,
                    width: frame.width, height: frame.height))
            switch frame.disposal {
            case .background:
                let cleared = [UInt8](repeating: 0, count: frame.width * frame.height * 4)
                draw(cleared, frame, onto: &canvas, canvasWidth: width, blendingOver: false)
            case .previous:
                draw(saved, frame, onto: &canvas, canvasWidth: width, blendingOver: false)
            case .none, .unspecified:
                break
            }
        }
        return result
    }

    /// The RGBA8 pixels of `frame`'s region of `canvas`, row by row.
    static func copyRegion(of frame: FrameControl, from canvas: [UInt8], canvasWidth: Int) -> [UInt8] {
        var region: [UInt8] = []
        region.reserveCapacity(frame.width * frame.height * 4)
        for row in frame.y..<(frame.y + frame.height) {
            let start = (row * canvasWidth + frame.x) * 4
            region.append(contentsOf: canvas[start..<(start + frame.width * 4)])
        }
        return region
    }

    /// Draws `pixels`, RGBA8 of `frame`'s size, into its region of `canvas`: replacing the region, or compositing
    /// over it when `blendingOver` (by default, the frame's `blend_op`).
    static func draw(
        _ pixels: [UInt8], _ frame: FrameControl, onto canvas: inout [UInt8], canvasWidth: Int,
        blendingOver: Bool? = nil
    ) {
        let over = blendingOver ?? frame.blendsOver
        let rowBytes = frame.width * 4
        pixels.withUnsafeBufferPointer { source in
            canvas.withUnsafeMutableBufferPointer { target in
                for row in 0..<frame.height {
                    let from = source.baseAddress! + row * rowBytes
                    let to = target.baseAddress! + ((frame.y + row) * canvasWidth + frame.x) * 4
                    if over {
                        blendOver(from, onto: to, count: frame.width)
                    } else {
                        to.update(from: from, count: rowBytes)
                    }
                }
            }
        }
    }

    /// Composites `count` RGBA8 pixels over those at `target`, in straight alpha: with foreground alpha `f` and
    /// background alpha `b` (0-255), the result's alpha is `(255 f + (255 - f) b) / 255` and each colour
    /// `(255 f F + (255 - f) b B) / (255 f + (255 - f) b)`, both rounded to nearest, halves up.
    @inline(__always)
    static func blendOver(_ source: UnsafePointer<UInt8>, onto target: UnsafeMutablePointer<UInt8>, count: Int) {
        for pixel in 0..<count {
            let from = source + pixel * 4
            let to = target + pixel * 4
            let alpha = UInt32(from[3])
            if alpha == 255 || (alpha != 0 && to[3] == 0) {
                // Opaque, or over a transparent pixel: the formula gives the frame's pixel exactly.
                to.update(from: from, count: 4)
            } else if alpha != 0 {
                let foreground = 255 * alpha
                let background = (255 - alpha) * UInt32(to[3])
                let total = foreground + background  // at most 65025, so the sums below fit in 32 bits
                for channel in 0..<3 {
                    let weighted = UInt32(from[channel]) * foreground + UInt32(to[channel]) * background
                    to[channel] = UInt8(truncatingIfNeeded: (2 * weighted + total) / (2 * total))
                }
                to[3] = UInt8(truncatingIfNeeded: (2 * total + 255) / 510)
            }
        }
    }

    /// `frame` with its canvas premultiplied by alpha, rounded as ``Image/pixels`` are.
    static func premultiplied(_ frame: Image.Frame) -> Image.Frame {
        var canvas = Image(width: frame.pixels.count / 4, height: 1, pixels: frame.pixels, format: .png)
        canvas.premultiply()
        var frame = frame
        frame.pixels = canvas.pixels
        return frame
    }
}
