import DecantCompression
import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// Builds small APNG files: the APNG chunks (`acTL`, `fcTL`, `fdAT`) on top of ``PNGBuilder``'s chunks and stored
/// zlib streams.
enum APNGBuilder {
    static let blue: [UInt8] = [0, 0, 255, 255]
    static let red: [UInt8] = [255, 0, 0, 255]
    static let green: [UInt8] = [0, 255, 0, 255]
    static let white: [UInt8] = [255, 255, 255, 255]
    static let clear: [UInt8] = [0, 0, 0, 0]

    static func acTL(frames: UInt32, plays: UInt32 = 0) -> [UInt8] {
        PNGBuilder.chunk("acTL", PNGBuilder.bigEndian(frames) + PNGBuilder.bigEndian(plays))
    }

    /// An `fcTL` chunk; `delay` is (numerator, denominator), `dispose` and `blend` the raw operation codes.
    static func fcTL(
        _ sequence: UInt32, width: UInt32, height: UInt32, x: UInt32 = 0, y: UInt32 = 0,
        delay: (UInt16, UInt16) = (1, 10), dispose: UInt8 = 0, blend: UInt8 = 0
    ) -> [UInt8] {
        let fields = [sequence, width, height, x, y].flatMap(PNGBuilder.bigEndian)
        let timing = [UInt8(delay.0 >> 8), UInt8(delay.0 & 0xFF), UInt8(delay.1 >> 8), UInt8(delay.1 & 0xFF)]
        return PNGBuilder.chunk("fcTL", fields + timing + [dispose, blend])
    }

    static func fdAT(_ sequence: UInt32, _ data: [UInt8]) -> [UInt8] {
        PNGBuilder.chunk("fdAT", PNGBuilder.bigEndian(sequence) + data)
    }

    /// RGBA8 rows of 4-byte pixels, each row with filter 0 (None), or 1 (Sub) when `sub`.
    static func rows(_ pixels: [[UInt8]], width: Int, sub: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        for row in stride(from: 0, to: pixels.count, by: width) {
            let raw = pixels[row..<(row + width)].flatMap { $0 }
            out.append(sub ? 1 : 0)
            for index in raw.indices {
                out.append(sub && index >= 4 ? raw[index] &- raw[index - 4] : raw[index])
            }
        }
        return out
    }

    /// The stored-zlib image data of `pixels` (RGBA8, row-major).
    static func data(_ pixels: [[UInt8]], width: Int, sub: Bool = false) -> [UInt8] {
        PNGBuilder.storedZlib(rows(pixels, width: width, sub: sub))
    }

    /// Rows of `width` by `height` samples of `depth` bits (at most 8), each with filter 0, Adam7-interlaced (PNG
    /// §8.2) when `interlaced`.
    static func packedRows(width: Int, height: Int, depth: Int, samples: [UInt8], interlaced: Bool) -> [UInt8] {
        let passes =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var out: [UInt8] = []
        for (x0, y0, dx, dy) in passes {
            let passWidth = (width - x0 + dx - 1) / dx
            guard passWidth > 0 else { continue }
            for y in stride(from: y0, to: height, by: dy) {
                out.append(0)
                var packed = [UInt8](repeating: 0, count: (passWidth * depth + 7) / 8)
                for index in 0..<passWidth {
                    let bit = index * depth
                    packed[bit / 8] |= samples[y * width + x0 + index * dx] << UInt8(8 - depth - bit % 8)
                }
                out += packed
            }
        }
        return out
    }

    static func png(
        width: Int, height: Int, depth: UInt8 = 8, colorType: UInt8 = 6, interlace: UInt8 = 0,
        chunks: [[UInt8]]
    ) -> [UInt8] {
        PNGDecoder.signature
            + PNGBuilder.header(
                width: UInt32(width), height: UInt32(height), depth: depth, colorType: colorType, interlace: interlace)
            + chunks.flatMap { $0 } + PNGBuilder.chunk("IEND", [])
    }

    /// A 3×2 RGBA animation of four frames, one per disposal and a blend, the default image being frame 0:
    /// 0. all blue (`IDAT`), dispose none;
    /// 1. red 2×1 at (1, 1), dispose background;
    /// 2. green 1×1 at (0, 0), dispose previous;
    /// 3. 1×2 at (2, 0), transparent over white, blend over, its data split over two `fdAT` chunks.
    ///
    /// `sequences` are the eight sequence numbers in file order; `frame1` the second frame's region; `frames`
    /// acTL's num_frames.
    static func disposals(
        sequences: [UInt32] = Array(0...7), frame1: (x: UInt32, y: UInt32, width: UInt32) = (1, 1, 2),
        frames: UInt32 = 4
    ) -> [UInt8] {
        let s = sequences
        let last = data([clear, white], width: 1)
        let half = last.count / 2
        return png(
            width: 3, height: 2,
            chunks: [
                acTL(frames: frames, plays: 1),
                fcTL(s[0], width: 3, height: 2, delay: (1, 0)),
                PNGBuilder.chunk("IDAT", data(Array(repeating: blue, count: 6), width: 3)),
                fcTL(s[1], width: frame1.width, height: 1, x: frame1.x, y: frame1.y, delay: (3, 100), dispose: 1),
                fdAT(s[2], data(Array(repeating: red, count: Int(frame1.width)), width: Int(frame1.width))),
                fcTL(s[3], width: 1, height: 1, delay: (1, 1), dispose: 2),
                fdAT(s[4], data([green], width: 1)),
                fcTL(s[5], width: 1, height: 2, x: 2, delay: (0, 1), blend: 1),
                fdAT(s[6], Array(last[..<half])),
                fdAT(s[7], Array(last[half...])),
            ])
    }

    /// A 4×1 RGBA image whose default image (opaque grey) is not part of its three-frame animation:
    /// 0. four pixels of varied alpha, blend source;
    /// 1. four pixels of varied alpha, blend over (rows filtered with Sub);
    /// 2. the same four pixels, blend source.
    static let blending: [UInt8] = {
        let base: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 0], [10, 20, 30, 64]]
        let top: [[UInt8]] = [[0, 0, 255, 128], [255, 255, 255, 64], [200, 100, 50, 128], [0, 0, 0, 0]]
        return png(
            width: 4, height: 1,
            chunks: [
                acTL(frames: 3),
                PNGBuilder.chunk("IDAT", data(Array(repeating: [128, 128, 128, 255], count: 4), width: 4)),
                fcTL(0, width: 4, height: 1),
                fdAT(1, data(base, width: 4)),
                fcTL(2, width: 4, height: 1, blend: 1),
                fdAT(3, data(top, width: 4, sub: true)),
                fcTL(4, width: 4, height: 1),
                fdAT(5, data(top, width: 4)),
            ])
    }()

    /// A 3×3 2-bit indexed image (palette black, red, green, blue; `tRNS` makes green half and blue fully
    /// transparent), Adam7-interlaced or not: the default image is frame 0, and frame 1, 2×2 at (1, 1), is drawn over
    /// it.
    static func indexed(interlaced: Bool) -> [UInt8] {
        let palette = PNGBuilder.chunk("PLTE", [0, 0, 0, 255, 0, 0, 0, 255, 0, 0, 0, 255])
        let transparency = PNGBuilder.chunk("tRNS", [255, 255, 128, 0])
        func data(width: Int, height: Int, _ samples: [UInt8]) -> [UInt8] {
            PNGBuilder.storedZlib(
                packedRows(width: width, height: height, depth: 2, samples: samples, interlaced: interlaced))
        }
        return png(
            width: 3, height: 3, depth: 2, colorType: 3, interlace: interlaced ? 1 : 0,
            chunks: [
                palette, transparency, acTL(frames: 2),
                fcTL(0, width: 3, height: 3),
                PNGBuilder.chunk("IDAT", data(width: 3, height: 3, [0, 1, 2, 3, 2, 1, 0, 1, 2])),
                fcTL(1, width: 2, height: 2, x: 1, y: 1, blend: 1),
                fdAT(2, data(width: 2, height: 2, [1, 3, 3, 0])),
            ])
    }

    /// A 2×1 RGBA animation whose frame 0 (red, both pixels) says dispose previous, which on the first frame means
    /// background; frame 1 is green at (1, 0). Frame 0 is the default image, or a frame after a grey default image.
    static func firstFramePrevious(defaultImageIsFrame0: Bool) -> [UInt8] {
        let frame0 = [fcTL(0, width: 2, height: 1, dispose: 2)]
        let still = PNGBuilder.chunk(
            "IDAT",
            data(defaultImageIsFrame0 ? [red, red] : [[128, 128, 128, 255]] + [[128, 128, 128, 255]], width: 2))
        let sequence: UInt32 = defaultImageIsFrame0 ? 1 : 2
        return png(
            width: 2, height: 1,
            chunks: [acTL(frames: 2)]
                + (defaultImageIsFrame0 ? frame0 + [still] : [still] + frame0 + [fdAT(1, data([red, red], width: 2))])
                + [fcTL(sequence, width: 1, height: 1, x: 1), fdAT(sequence + 1, data([green], width: 1))])
    }

    /// A 2×1 16-bit RGB image, the default image frame 0: (0x1234, 0x5678, 0x9ABC), (0xFFFF, 0, 0x0101); frame 1 is
    /// (0x8080, 0x7F7F, 0) at (1, 0).
    static let sixteenBit: [UInt8] = {
        let still: [UInt8] = [0, 0x12, 0x34, 0x56, 0x78, 0x9A, 0xBC, 0xFF, 0xFF, 0, 0, 0x01, 0x01]
        return png(
            width: 2, height: 1, depth: 16, colorType: 2,
            chunks: [
                acTL(frames: 2),
                fcTL(0, width: 2, height: 1),
                PNGBuilder.chunk("IDAT", PNGBuilder.storedZlib(still)),
                fcTL(1, width: 1, height: 1, x: 1),
                fdAT(2, PNGBuilder.storedZlib([0, 0x80, 0x80, 0x7F, 0x7F, 0, 0])),
            ])
    }()
}

/// APNG (PNG Third Edition `acTL`, `fcTL`, `fdAT`): frames composited with each disposal and blend, offsets,
/// palettes, interlacing and 16-bit sources, the rule that a broken animation leaves the default image, limits and the
/// lazy path. Expected pixels come from Pillow 13's APNG reader (`ImageSequence`) on the same bytes (each fixture's
/// CRC-32 is checked, so the bytes are the ones Pillow read), or from the specification's formula computed exactly
/// in Python where Pillow departs from it (noted at each test); the image-rs and WPT renderings are compared by
/// ``ImageCorpusTests``.
@Suite struct APNGTests {
    typealias B = APNGBuilder

    /// A frame's pixels, timing, disposal and rectangle, as they are compared.
    struct FrameSummary: Equatable, CustomStringConvertible {
        var pixels: [[UInt8]]
        var delay: Double
        var disposal: Image.Frame.Disposal
        var rect: [Int]

        init(_ frame: Image.Frame) {
            pixels = stride(from: 0, to: frame.pixels.count, by: 4).map { Array(frame.pixels[$0..<($0 + 4)]) }
            delay = frame.delay
            disposal = frame.disposal
            rect = [frame.x, frame.y, frame.width, frame.height]
        }

        init(_ pixels: [[UInt8]], _ delay: Double, _ disposal: Image.Frame.Disposal, _ rect: [Int]) {
            self.pixels = pixels
            self.delay = delay
            self.disposal = disposal
            self.rect = rect
        }

        var description: String { "\(pixels) \(delay)s \(disposal) \(rect)" }
    }

    static func decode(_ bytes: [UInt8], _ options: ImageDecodingOptions = ImageDecodingOptions()) throws -> Image {
        try ImageDecoder.decode(Data(bytes), options: options)
    }

    /// What the chunks say, for the reason an animation was set aside.
    static func parse(_ bytes: [UInt8]) throws -> PNGDecoder.Parsed {
        try bytes.withUnsafeBytes { try PNGDecoder.parse($0, keepingImageData: true, limits: ImageLimits()) }
    }

    @Test func compositesEachDisposalAndOffsetsLikePillow() throws {
        let bytes = B.disposals()
        #expect(Checksum.crc32(bytes) == 0xE2F4_BE85)
        let image = try Self.decode(bytes)
        #expect(image.frameCount == 4)
        #expect(image.pixels == Array(repeating: B.blue, count: 6).flatMap { $0 })
        let (blue, red, green, white, clear) = (B.blue, B.red, B.green, B.white, B.clear)
        // Pillow: frame 1's region is cleared after it (background), frame 2's restored (previous), and frame 3's
        // transparent pixel leaves the canvas alone (over).
        let expected = [
            FrameSummary([blue, blue, blue, blue, blue, blue], 0.01, .none, [0, 0, 3, 2]),
            FrameSummary([blue, blue, blue, blue, red, red], 0.03, .background, [1, 1, 2, 1]),
            FrameSummary([green, blue, blue, blue, clear, clear], 1, .previous, [0, 0, 1, 1]),
            FrameSummary([blue, blue, blue, blue, clear, white], 0, .none, [2, 0, 1, 2]),
        ]
        #expect(image.frames.map(FrameSummary.init) == expected)
    }

    @Test func blendOverFollowsTheSpecificationAndSourceReplaces() throws {
        let bytes = B.blending
        #expect(Checksum.crc32(bytes) == 0x7D55_451F)
        let image = try Self.decode(bytes)
        // The default image is not part of the animation: three frames, and the pixels stay grey.
        #expect(image.frameCount == 3)
        #expect(image.pixels == Array(repeating: [128, 128, 128, 255], count: 4).flatMap { $0 })
        let frames = image.frames.map { FrameSummary($0).pixels }
        #expect(frames.count == 3)
        #expect(frames.first == [[255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 0], [10, 20, 30, 64]])
        // Over, by the specification's OVER in straight alpha, computed exactly in Python (fractions) and rounded;
        // Pillow's Image.alpha_composite gives the same. Pillow's APNG reader differs: it pastes the frame with its
        // alpha as the mask, which gives alpha 191 for the first pixel (half-transparent blue over opaque red).
        #expect(
            frames.dropFirst().first == [
                [127, 0, 128, 255], [102, 255, 102, 160], [200, 100, 50, 128], [10, 20, 30, 64],
            ])
        // Source replaces the region, alpha and all (Pillow agrees).
        #expect(frames.last == [[0, 0, 255, 128], [255, 255, 255, 64], [200, 100, 50, 128], [0, 0, 0, 0]])
    }

    /// Foreground, background and their OVER composite, from the specification's formula computed exactly in Python
    /// (fractions) and rounded to nearest. Pillow's Image.alpha_composite agrees with 99.5% of random pairs and is
    /// one off on the rest (its fixed-point arithmetic), as on the first row (218 for 219). The rows after the eighth
    /// are pairs where truncating instead of rounding would be wrong.
    static let overTable: [([UInt8], [UInt8], [UInt8])] = [
        ([76, 253, 167, 45], [155, 186, 128, 58], [117, 219, 147, 93]),
        ([0, 0, 255, 128], [255, 0, 0, 255], [127, 0, 128, 255]),
        ([255, 255, 255, 64], [0, 255, 0, 128], [102, 255, 102, 160]),
        ([200, 100, 50, 128], [0, 0, 255, 0], [200, 100, 50, 128]),
        ([0, 0, 0, 0], [10, 20, 30, 64], [10, 20, 30, 64]),
        ([9, 8, 7, 255], [1, 2, 3, 4], [9, 8, 7, 255]),
        ([255, 255, 255, 1], [0, 0, 0, 1], [128, 128, 128, 2]),
        ([1, 2, 3, 254], [250, 251, 252, 255], [2, 3, 4, 255]),
        ([231, 238, 231, 131], [97, 94, 243, 162], [181, 184, 236, 210]),
        ([95, 48, 228, 78], [72, 46, 21, 153], [82, 47, 109, 184]),
        ([202, 231, 80, 160], [7, 32, 30, 10], [198, 226, 79, 164]),
        ([97, 123, 15, 200], [237, 167, 225, 152], [117, 129, 45, 233]),
        ([100, 119, 150, 128], [2, 43, 234, 168], [61, 89, 183, 212]),
        ([142, 208, 42, 182], [130, 161, 117, 132], [140, 200, 55, 220]),
        ([147, 15, 35, 145], [55, 205, 55, 217], [111, 90, 43, 239]),
        ([148, 197, 34, 246], [8, 0, 109, 54], [147, 195, 35, 248]),
    ]

    @Test func blendOverRoundsTheExactFormulaToNearest() {
        let foreground = Self.overTable.flatMap(\.0)
        var canvas = Self.overTable.flatMap(\.1)
        foreground.withUnsafeBufferPointer { source in
            canvas.withUnsafeMutableBufferPointer { target in
                PNGDecoder.blendOver(source.baseAddress!, onto: target.baseAddress!, count: Self.overTable.count)
            }
        }
        for (index, row) in Self.overTable.enumerated() {
            #expect(Array(canvas[(index * 4)..<(index * 4 + 4)]) == row.2, "row \(index): \(row.0) over \(row.1)")
        }
    }

    @Test(arguments: [false, true])
    func indexedFramesUseThePaletteTransparencyAndInterlacing(interlaced: Bool) throws {
        let bytes = B.indexed(interlaced: interlaced)
        // Pillow 13 cannot decode an interlaced APNG frame (its decoder raises a TypeError), so its frames for the
        // non-interlaced file are expected of both: interlacing changes the encoding, not the pixels.
        if !interlaced { #expect(Checksum.crc32(bytes) == 0x2FBC_DDD0) }
        let image = try Self.decode(bytes)
        let (black, red, half, clear): ([UInt8], [UInt8], [UInt8], [UInt8]) =
            ([0, 0, 0, 255], [255, 0, 0, 255], [0, 255, 0, 128], [0, 0, 255, 0])
        #expect(
            image.frames.map { FrameSummary($0).pixels } == [
                [black, red, half, clear, half, red, black, red, half],
                [black, red, half, clear, red, red, black, red, black],
            ])
        #expect(image.frames.first?.pixels == image.pixels)
    }

    @Test func sixteenBitFramesAreRGBA8AndSamples16StayTheDefaultImage() throws {
        let bytes = B.sixteenBit
        #expect(Checksum.crc32(bytes) == 0xD113_84C1)
        let image = try Self.decode(bytes)
        // Pillow's frames; they equal round(v / 257) of each sample, the reduction PNGTests checks.
        #expect(
            image.frames.map { FrameSummary($0).pixels } == [
                [[18, 86, 154, 255], [255, 0, 1, 255]],
                [[18, 86, 154, 255], [128, 127, 0, 255]],
            ])
        #expect(image.samples16 == [0x1234, 0x5678, 0x9ABC, 0xFFFF, 0xFFFF, 0, 0x0101, 0xFFFF])
    }

    @Test(arguments: [true, false])
    func firstFrameDisposePreviousActsAsBackground(defaultImageIsFrame0: Bool) throws {
        let bytes = B.firstFramePrevious(defaultImageIsFrame0: defaultImageIsFrame0)
        #expect(Checksum.crc32(bytes) == (defaultImageIsFrame0 ? 0x68D8_BDFC : 0x2148_775C))
        let image = try Self.decode(bytes)
        // Pillow agrees when the default image is frame 0. When it is not, Pillow restores the default image (its
        // own frame 0), giving grey where the specification says the first frame's "previous" is "background":
        // transparent black.
        #expect(image.frames.map { FrameSummary($0).pixels } == [[B.red, B.red], [B.clear, B.green]])
        #expect(image.frames.first?.disposal == .background)
    }

    @Test func premultipliedAlphaAppliesToFramesAfterCompositing() throws {
        let image = try Self.decode(B.blending, ImageDecodingOptions(premultipliedAlpha: true))
        #expect(image.isPremultiplied)
        // The straight composite above, premultiplied (Pillow's RGBA to RGBa conversion gives the same).
        #expect(
            FrameSummary(image.frames[1]).pixels == [
                [127, 0, 128, 255], [64, 160, 64, 160], [100, 50, 25, 128], [3, 5, 8, 64],
            ])
    }

    /// A broken animation: its name, its bytes, and the reason the decoder gives for setting the animation aside
    /// (`nil` when the chunks are sound but a frame's data is not).
    struct BrokenCase: Sendable, CustomTestStringConvertible {
        var name: String
        var bytes: [UInt8]
        var reason: String?
        var testDescription: String { name }
    }

    static let idat = PNGBuilder.chunk("IDAT", B.data([B.blue, B.blue], width: 2))
    static let frame = B.data([B.red, B.red], width: 2)

    /// `bytes` with the CRC of the first `type` chunk changed.
    static func corruptingCRC(of type: String, in bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        var position = 8
        while true {
            let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            if String(decoding: bytes[(position + 4)..<(position + 8)], as: UTF8.self) == type {
                bytes[position + 8 + length] ^= 0xFF
                return bytes
            }
            position += 12 + length
        }
    }

    /// `bytes` with the CRC of every complete chunk recomputed.
    static func repairingCRCs(_ bytes: [UInt8]) -> [UInt8] {
        var bytes = bytes
        var position = 8
        while position + 12 <= bytes.count {
            let length = bytes[position..<(position + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard length <= bytes.count - position - 12 else { break }
            let crc = Checksum.crc32(Array(bytes[(position + 4)..<(position + 8 + length)]))
            bytes.replaceSubrange((position + 8 + length)..<(position + 12 + length), with: PNGBuilder.bigEndian(crc))
            position += 12 + length
        }
        return bytes
    }

    static let brokenCases: [BrokenCase] = [
        BrokenCase(
            name: "sequence numbers out of order", bytes: B.disposals(sequences: [0, 1, 2, 4, 3, 5, 6, 7]),
            reason: "fcTL chunk has sequence number 4 where 3 is next"),
        BrokenCase(
            name: "a repeated sequence number", bytes: B.disposals(sequences: [0, 1, 2, 3, 3, 4, 5, 6]),
            reason: "fdAT chunk has sequence number 3 where 4 is next"),
        BrokenCase(
            name: "sequence numbers not starting at 0", bytes: B.disposals(sequences: Array(1...8)),
            reason: "sequence number 1 where 0 is next"),
        BrokenCase(
            name: "a frame past the right edge", bytes: B.disposals(frame1: (2, 1, 2)),
            reason: "frame 1's region, 2×1 at (2, 1), is not inside the 3×2 canvas"),
        BrokenCase(
            name: "a frame below the canvas", bytes: B.disposals(frame1: (0, 2, 1)),
            reason: "frame 1's region, 1×1 at (0, 2), is not inside"),
        BrokenCase(
            name: "more fcTL chunks than num_frames", bytes: B.disposals(frames: 3),
            reason: "more fcTL chunks than acTL's num_frames, 3"),
        BrokenCase(
            name: "fewer fcTL chunks than num_frames", bytes: B.disposals(frames: 5),
            reason: "acTL declares 5 frames but there are 4 fcTL chunks"),
        BrokenCase(name: "num_frames 0", bytes: B.disposals(frames: 0), reason: "num_frames, 0, is not 1"),
        BrokenCase(
            name: "a damaged fdAT CRC", bytes: corruptingCRC(of: "fdAT", in: B.disposals()),
            reason: "the CRC of an fdAT chunk is wrong"),
        BrokenCase(
            name: "a damaged fcTL CRC", bytes: corruptingCRC(of: "fcTL", in: B.disposals()),
            reason: "the CRC of an fcTL chunk is wrong"),
        BrokenCase(
            name: "an fdAT before IDAT",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [B.acTL(frames: 1), B.fcTL(0, width: 2, height: 1), B.fdAT(1, frame), idat]),
            reason: "an fdAT chunk comes before IDAT"),
        BrokenCase(
            name: "the default image's fcTL smaller than the canvas",
            bytes: B.png(width: 2, height: 1, chunks: [B.acTL(frames: 1), B.fcTL(0, width: 1, height: 1), idat]),
            reason: "the default image's fcTL does not cover the canvas"),
        BrokenCase(
            name: "two fcTL chunks before IDAT",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [B.acTL(frames: 2), B.fcTL(0, width: 2, height: 1), B.fcTL(1, width: 2, height: 1), idat]),
            reason: "two fcTL chunks before IDAT"),
        BrokenCase(
            name: "dispose_op 3",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [B.acTL(frames: 1), idat, B.fcTL(0, width: 2, height: 1, dispose: 3), B.fdAT(1, frame)]),
            reason: "dispose_op 3 is not 0-2"),
        BrokenCase(
            name: "blend_op 2",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [B.acTL(frames: 1), idat, B.fcTL(0, width: 2, height: 1, blend: 2), B.fdAT(1, frame)]),
            reason: "blend_op 2 is not 0 or 1"),
        BrokenCase(
            name: "an fcTL of 25 bytes",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [
                    B.acTL(frames: 1), idat,
                    PNGBuilder.chunk("fcTL", Array(B.fcTL(0, width: 2, height: 1)[8..<33])), B.fdAT(1, frame),
                ]),
            reason: "an fcTL chunk is 25 bytes, not 26"),
        BrokenCase(
            name: "a frame without fdAT",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [
                    B.acTL(frames: 2), idat, B.fcTL(0, width: 2, height: 1), B.fcTL(1, width: 2, height: 1),
                    B.fdAT(2, frame),
                ]),
            reason: "frame 0 has no fdAT chunk"),
        BrokenCase(
            name: "a last frame without fdAT",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [
                    B.acTL(frames: 2), idat, B.fcTL(0, width: 2, height: 1), B.fdAT(1, frame),
                    B.fcTL(2, width: 2, height: 1),
                ]),
            reason: "frame 1 has no fdAT chunk"),
        BrokenCase(
            name: "an fdAT without fcTL",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [B.acTL(frames: 1), idat, B.fdAT(0, frame), B.fcTL(1, width: 2, height: 1)]),
            reason: "an fdAT chunk has no fcTL before it"),
        BrokenCase(
            name: "an fdAT after the default image's frame",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [B.acTL(frames: 1), B.fcTL(0, width: 2, height: 1), idat, B.fdAT(1, frame)]),
            reason: "an fdAT chunk has no fcTL before it"),
        BrokenCase(
            name: "a second acTL",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [B.acTL(frames: 1), B.acTL(frames: 1), idat, B.fcTL(0, width: 2, height: 1), B.fdAT(1, frame)]),
            reason: "there is a second acTL chunk"),
        BrokenCase(
            name: "frame data one pixel short",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [B.acTL(frames: 1), idat, B.fcTL(0, width: 2, height: 1), B.fdAT(1, B.data([B.red], width: 1))]),
            reason: nil),
        BrokenCase(
            name: "frame data that is not zlib",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [B.acTL(frames: 1), idat, B.fcTL(0, width: 2, height: 1), B.fdAT(1, [1, 2, 3])]),
            reason: nil),
        BrokenCase(
            name: "a frame row with filter type 5",
            bytes: B.png(
                width: 2, height: 1,
                chunks: [
                    B.acTL(frames: 1), idat, B.fcTL(0, width: 2, height: 1),
                    B.fdAT(1, PNGBuilder.storedZlib([5] + B.red + B.red)),
                ]),
            reason: nil),
    ]

    @Test(arguments: brokenCases)
    func brokenAnimationsLeaveTheDefaultImage(_ broken: BrokenCase) throws {
        let image = try Self.decode(broken.bytes)
        #expect(image.frames.isEmpty)
        #expect(image.frameCount == 1)
        #expect(image.pixels == Array(repeating: B.blue, count: image.width * image.height).flatMap { $0 })
        let problem = try Self.parse(broken.bytes).animation.problem
        if let reason = broken.reason {
            #expect(problem?.reason.contains(reason) == true, "\(String(describing: problem))")
            // The lazy path sees the same chunks: a still image.
            #expect(try Self.decode(broken.bytes, ImageDecodingOptions(inflate: false)).frameCount == 1)
        } else {
            // Sound chunks, unsound data: only decoding the frame finds it.
            #expect(problem == nil)
        }
    }

    @Test func withoutAnACTLBeforeIDATTheAnimationChunksAreIgnored() throws {
        let frames: [[UInt8]] = [Self.idat, B.acTL(frames: 1), B.fcTL(0, width: 2, height: 1), B.fdAT(1, Self.frame)]
        for chunks in [frames, Array(frames[0...0] + frames[2...])] {
            let image = try Self.decode(B.png(width: 2, height: 1, chunks: chunks))
            #expect(image.frames.isEmpty && image.frameCount == 1)
            #expect(image.pixels == B.blue + B.blue)
            #expect(try Self.parse(B.png(width: 2, height: 1, chunks: chunks)).animation.problem == nil)
        }
    }

    @Test func aDamagedIDATStillFailsTheImage() throws {
        let error = try #require(throws: SerializationError.self) {
            try Self.decode(Self.corruptingCRC(of: "IDAT", in: B.disposals()))
        }
        #expect(error.code == .invalidBody)
    }

    @Test func frameLimitIsCheckedFromACTLWithInflateOnOrOff() throws {
        let bytes = B.disposals()
        for inflate in [true, false] {
            let options = ImageDecodingOptions(inflate: inflate, limits: ImageLimits(maxFrames: 3))
            let error = try #require(throws: SerializationError.self) { try Self.decode(bytes, options) }
            #expect(error.code == .limitExceeded)
            #expect(error.message.contains("4 frames") && error.message.contains("raise maxFrames"))
            #expect(error.offset == 33)  // the acTL chunk, after the signature and IHDR
        }
        let image = try Self.decode(bytes, ImageDecodingOptions(limits: ImageLimits(maxFrames: 4)))
        #expect(image.frames.count == 4)
    }

    @Test func totalBytesLimitCountsEveryFrameCanvas() throws {
        // 3×2 pixels: the default image takes 8 bytes a pixel (RGBA8 and the inflated RGBA8 rows), the 4 frames 4
        // bytes a pixel each: 6 × (8 + 16) = 144 bytes.
        let bytes = B.disposals()
        let error = try #require(throws: SerializationError.self) {
            try Self.decode(bytes, ImageDecodingOptions(limits: ImageLimits(maxTotalBytes: 143)))
        }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("4 frames") && error.message.contains("raise maxTotalBytes"))
        #expect(try Self.decode(bytes, ImageDecodingOptions(limits: ImageLimits(maxTotalBytes: 144))).frames.count == 4)
        // With inflate off nothing is allocated, so only the frame count is checked.
        let lazy = try Self.decode(bytes, ImageDecodingOptions(inflate: false, limits: ImageLimits(maxTotalBytes: 143)))
        #expect(lazy.frameCount == 4)
    }

    @Test func aHugeFrameCountFailsAtOnce() throws {
        let bytes = B.png(width: 2, height: 1, chunks: [B.acTL(frames: 0x7FFF_FFFF), Self.idat])
        let error = try #require(throws: SerializationError.self) { try Self.decode(bytes) }
        #expect(error.code == .limitExceeded)
    }

    @Test func inflateOffReportsTheFrameCountAndDecodesOnDemand() throws {
        for bytes in [B.disposals(), B.blending] {
            let lazy = try Self.decode(bytes, ImageDecodingOptions(inflate: false))
            let eager = try Self.decode(bytes)
            #expect(!lazy.isDecoded && lazy.pixels.isEmpty && lazy.frames.isEmpty)
            #expect(lazy.frameCount == eager.frameCount)
            let decoded = try lazy.decoded()
            #expect(decoded.frameCount == eager.frameCount)
            #expect(decoded.frames.map(FrameSummary.init) == eager.frames.map(FrameSummary.init))
        }
        // Frame data that does not inflate is found only when decoding: the lazy count is what the chunks say.
        let unsound = Self.brokenCases.first { $0.reason == nil }!.bytes
        #expect(try Self.decode(unsound, ImageDecodingOptions(inflate: false)).frameCount == 1)
        let twoFrames = B.png(
            width: 2, height: 1,
            chunks: [
                B.acTL(frames: 2), B.fcTL(0, width: 2, height: 1), Self.idat, B.fcTL(1, width: 2, height: 1),
                B.fdAT(2, [1, 2, 3]),
            ])
        let lazy = try Self.decode(twoFrames, ImageDecodingOptions(inflate: false))
        #expect(lazy.frameCount == 2)
        let decoded = try lazy.decoded()
        #expect(decoded.frameCount == 1 && decoded.frames.isEmpty)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func ballHasTwentyFramesOfItsDelay() throws {
        let url = try #require(Corpora.url("images/image-rs/tests/images/png/apng/ball.png"))
        let image = try ImageDecoder.decode(Data(contentsOf: url), options: ImageDecodingOptions())
        #expect(image.frameCount == 20 && image.frames.count == 20)
        #expect(image.frames.allSatisfy { $0.delay == 0.075 })
        #expect(image.frames.first?.pixels == image.pixels)
        #expect(image.frames.map(\.disposal).prefix(3) == [.background, .background, .none])
    }

    @Test func mutationsAndTruncationsNeverCrash() throws {
        var sources = [B.disposals(), B.blending, B.indexed(interlaced: true), B.sixteenBit]
        if let url = Corpora.url("images/image-rs/tests/images/png/apng/ball.png") {
            sources.append([UInt8](try Data(contentsOf: url)))
        }
        var generator = SplitMix64(state: 0x4150_4E47)
        for round in 0..<1500 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 8..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if round % 5 == 0 { bytes = Array(bytes.prefix(Int.random(in: 8...bytes.count, using: &generator))) }
            // Every other round, the chunks' CRCs are repaired, so that the mutation reaches the APNG fields.
            if round % 2 == 0 { bytes = Self.repairingCRCs(bytes) }
            guard let image = try? Self.decode(bytes) else { continue }
            #expect(image.frames.isEmpty || image.frames.count == image.frameCount)
            for frame in image.frames where frame.pixels.count != image.pixels.count {
                Issue.record("round \(round): a frame of \(frame.pixels.count) bytes")
            }
        }
    }
}
