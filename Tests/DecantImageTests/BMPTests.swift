import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// bmpsuite 2.8: `g/` must match the reference PNGs, `b/` must fail or degrade without crashing, `q/` never crash.
@Suite struct BMPTests {
    static func entries() throws -> [[String: Any]] {
        guard let url = Corpora.url("images/bmpsuite/index.json") else { return [] }
        return try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [[String: Any]]
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func goodFilesMatchTheirReferences() throws {
        var passed = 0
        var failed: [String] = []
        for entry in try Self.entries() where (entry["file"] as! String).hasPrefix("g/") {
            let file = entry["file"] as! String
            guard let url = Corpora.url("images/bmpsuite/" + file) else {
                failed.append("\(file): listed in index.json but missing")
                continue
            }
            do {
                let image = try ImageDecoder.decode(Data(contentsOf: url), options: ImageDecodingOptions())
                // Any listed reference may match (pal8nonsquare has a stretched "-v" and an as-stored "-e" one).
                let references = entry["reference_png"] as! [String]
                var differences: [String] = []
                for referencePath in references {
                    let reference = try ImageDecoder.decode(
                        Data(contentsOf: Corpora.url("images/bmpsuite/" + referencePath)!),
                        options: ImageDecodingOptions())
                    if image.width == reference.width && image.height == reference.height
                        && image.pixels == reference.pixels
                    {
                        differences = []
                        break
                    }
                    let differing = zip(image.pixels, reference.pixels).filter { $0 != $1 }.count
                    differences.append("\(differing) samples differ from \(referencePath)")
                }
                if differences.isEmpty {
                    passed += 1
                } else {
                    failed.append("\(file): " + differences.joined(separator: "; "))
                }
            } catch {
                failed.append("\(file): \(error)")
            }
        }
        print("bmpsuite g: \(passed) passed, \(failed.count) failed")
        for failure in failed { print("  " + failure) }
        #expect(failed.isEmpty)
        #expect(passed > 0, "no bmpsuite g/ file was read (index.json missing?)")
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func badAndQuestionableFilesNeverCrash() throws {
        var outcomes: [String: Int] = [:]
        var failed: [String] = []
        for file in Corpora.files(under: "images/bmpsuite", extension: "bmp")
        where !Corpora.relativePath(of: file).contains("/g/") {
            if let problem = decodeProblem(try Data(contentsOf: file)) { failed.append("\(file): \(problem)") }
            do {
                _ = try ImageDecoder.decode(Data(contentsOf: file), options: ImageDecodingOptions())
                outcomes["decoded", default: 0] += 1
            } catch {
                outcomes[(error as? SerializationError).map { "\($0.code)" } ?? "other", default: 0] += 1
            }
        }
        let count = outcomes.values.reduce(0, +)
        print("bmpsuite b/q: \(count - failed.count) passed (no crash), \(failed.count) failed; outcomes \(outcomes)")
        #expect(failed.isEmpty, "\(failed)")
        // The count found in the corpus when this test was written: fewer means files went missing.
        #expect(count >= 64, "expected at least 64 bmpsuite b/ and q/ files, found \(count)")
    }

    /// FuzzBMP: an icon file (reserved 0, type 1) handed to the BMP decoder decoded as a bitmap of another size
    /// than the icon decoder's. Without the `BM` signature it is not a bitmap file.
    @Test func bodyWithoutTheBMSignatureIsRejected() throws {
        let icon: [UInt8] = [
            0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x1e, 0x34, 0x00, 0x00, 0x00, 0x28, 0x00, 0x00, 0x00,
            0x02, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x01, 0x00, 0x08, 0x00, 0x01, 0x00, 0x00, 0x00, 0x5b, 0x24,
            0x20, 0x00, 0x00, 0x00, 0x00, 0x41, 0x00, 0x00, 0x20, 0x47, 0x13, 0x00, 0x00, 0x00, 0xff, 0x00, 0x00, 0x02,
        ]
        let error = #expect(throws: SerializationError.self) {
            try BMPDecoder.decode(Data(icon), options: ImageDecodingOptions())
        }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains("'BM'") == true)
        var bitmap = icon
        bitmap[0] = UInt8(ascii: "B")
        bitmap[1] = UInt8(ascii: "M")
        #expect(throws: Never.self) { try BMPDecoder.decode(Data(bitmap), options: ImageDecodingOptions()) }
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func seededMutationsNeverCrash() throws {
        let url = try #require(Corpora.url("images/bmpsuite/g/pal8rle.bmp"))
        let sources =
            [[UInt8](try Data(contentsOf: url))]
            + (Corpora.url("images/bmpsuite/g/rgb16bfdef.bmp").map { [[UInt8](try! Data(contentsOf: $0))] } ?? [])
        var generator = SplitMix64(state: 0xB3)
        for round in 0..<1000 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 2..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
        }
    }

    // MARK: - Hand-built files

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    static func le32(_ value: UInt32) -> [UInt8] {
        [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 24)]
    }

    /// A BMP file: the file header, an info header of `infoSize` bytes (the 40-byte fields, then `masks` from byte 40,
    /// then zeros), `extra` (a palette or separate bit masks) and the pixel data.
    static func bmp(
        infoSize: Int = 40, width: Int, height: Int, bitsPerPixel: Int, compression: UInt32 = 0,
        masks: [UInt32] = [], extra: [UInt8] = [], pixels: [UInt8]
    ) -> Data {
        var info = le32(UInt32(infoSize)) + le32(UInt32(width)) + le32(UInt32(bitPattern: Int32(height)))
        info += le16(1) + le16(bitsPerPixel) + le32(compression) + le32(UInt32(pixels.count))
        info += le32(2835) + le32(2835) + le32(0) + le32(0)
        info += masks.flatMap(le32)
        info += [UInt8](repeating: 0, count: infoSize - info.count)
        let offset = 14 + info.count + extra.count
        let header = [0x42, 0x4D] + le32(UInt32(offset + pixels.count)) + le32(0) + le32(UInt32(offset))
        return Data(header + info + extra + pixels)
    }

    /// `(red, green, blue, alpha)` pixels as RGBA8 bytes, top row first.
    static func rgba(_ pixels: [(Int, Int, Int, Int)]) -> [UInt8] {
        pixels.flatMap { [UInt8($0.0), UInt8($0.1), UInt8($0.2), UInt8($0.3)] }
    }

    /// Decodes `file` under bmpsuite and compares `channels` (0 red … 3 alpha) with bmpsuite's own reference PNG, the
    /// top 8 bits of its samples when it has 16; `nil` when they match.
    static func bmpsuiteMismatch(
        _ file: String, reference: String, channels: Set<Int> = [0, 1, 2, 3]
    ) throws -> String? {
        let image = try ImageDecoder.decode(
            Data(contentsOf: try #require(Corpora.url("images/bmpsuite/" + file))), options: ImageDecodingOptions())
        let expected = try ImageDecoder.decode(
            Data(contentsOf: try #require(Corpora.url("images/bmpsuite/reference_html/" + reference))),
            options: ImageDecodingOptions())
        guard image.width == expected.width && image.height == expected.height else {
            return "\(file): \(image.width)×\(image.height), \(reference) \(expected.width)×\(expected.height)"
        }
        let samples = expected.samples16.map { $0.map { UInt8($0 >> 8) } } ?? expected.pixels
        let differing = image.pixels.indices.filter {
            channels.contains($0 % 4) && image.pixels[$0] != samples[$0]
        }
        guard let first = differing.first else { return nil }
        return "\(file): \(differing.count) samples differ from \(reference), the first at pixel \(first / 4): "
            + "\(image.pixels[first / 4 * 4..<first / 4 * 4 + 4]), reference \(samples[first / 4 * 4..<first / 4 * 4 + 4])"
    }

    /// Decodes image-rs's `images/bmp/images/<name>` and compares it with its reference PNG; `nil` when they match.
    static func imageRSMismatch(_ name: String) throws -> String? {
        let directory = "images/image-rs/tests/"
        let image = try ImageDecoder.decode(
            Data(contentsOf: try #require(Corpora.url(directory + "images/bmp/images/" + name))),
            options: ImageDecodingOptions())
        let expected = try ImageDecoder.decode(
            Data(contentsOf: try #require(Corpora.url(directory + "reference/bmp/images/\(name).png"))),
            options: ImageDecodingOptions())
        guard image.width == expected.width && image.height == expected.height else { return "\(name): size" }
        let differing = zip(image.pixels, expected.pixels).filter { $0 != $1 }.count
        return differing == 0 ? nil : "\(name): \(differing) samples differ from image-rs's reference"
    }

    /// 2 bits per pixel (Windows CE): four pixels a byte, the first in the high bits, rows padded to 4 bytes.
    @Test func twoBitPixelsIndexTheirPalette() throws {
        // Palette entries are B, G, R, 0; colours chosen so no two channels match.
        let palette: [UInt8] = [0x10, 0x20, 0x30, 0, 0x40, 0x50, 0x60, 0, 0x70, 0x80, 0x90, 0, 0xA0, 0xB0, 0xC0, 0]
        let colours = [
            (0x30, 0x20, 0x10, 255), (0x60, 0x50, 0x40, 255), (0x90, 0x80, 0x70, 255), (0xC0, 0xB0, 0xA0, 255),
        ]
        // 5×2, bottom-up. Bottom row 3 2 1 0 1: 0b11_10_01_00, 0b01_000000. Top row 0 1 2 3 0: 0b00_01_10_11, 0.
        let pixels: [UInt8] = [0xE4, 0x40, 0, 0, 0x1B, 0x00, 0, 0]
        let image = try BMPDecoder.decode(
            Self.bmp(width: 5, height: 2, bitsPerPixel: 2, extra: palette, pixels: pixels),
            options: ImageDecodingOptions())
        #expect(image.width == 5 && image.height == 2)
        #expect(image.pixels == Self.rgba([0, 1, 2, 3, 0, 3, 2, 1, 0, 1].map { colours[$0] }))
        #expect(image.metadata.bitDepth == 2 && image.metadata.colorType == .indexed)
    }

    /// bmpsuite's 2-bit files against their references.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func twoBitBmpsuiteFilesMatchTheirReferences() throws {
        #expect(try Self.bmpsuiteMismatch("q/pal2.bmp", reference: "pal2.png") == nil)
        #expect(try Self.bmpsuiteMismatch("q/pal2color.bmp", reference: "pal2color.png") == nil)
    }

    /// 32-bit BI_RGB: a V4 or V5 header's alpha mask 0xFF000000 makes the top byte alpha (Chrome, image-rs); other
    /// headers and masks leave the image opaque, and so does a V4+ alpha channel that is zero everywhere (Chrome).
    @Test func v4HeaderAlphaMaskAppliesToThirtyTwoBitRGB() throws {
        // Two pixels, B G R A in the file.
        let pixels: [UInt8] = [0x10, 0x20, 0x30, 0x80, 0x40, 0x50, 0x60, 0xFF]
        let zeroAlpha: [UInt8] = [0x10, 0x20, 0x30, 0, 0x40, 0x50, 0x60, 0]
        let rgbMasks: [UInt32] = [0x00FF_0000, 0x0000_FF00, 0x0000_00FF]
        func decode(_ infoSize: Int, alphaMask: UInt32, _ pixels: [UInt8]) throws -> [UInt8] {
            let masks = infoSize >= 56 ? rgbMasks + [alphaMask] : []
            return try BMPDecoder.decode(
                Self.bmp(infoSize: infoSize, width: 2, height: 1, bitsPerPixel: 32, masks: masks, pixels: pixels),
                options: ImageDecodingOptions()
            ).pixels
        }
        let withAlpha = Self.rgba([(0x30, 0x20, 0x10, 0x80), (0x60, 0x50, 0x40, 0xFF)])
        let opaque = Self.rgba([(0x30, 0x20, 0x10, 0xFF), (0x60, 0x50, 0x40, 0xFF)])
        #expect(try decode(108, alphaMask: 0xFF00_0000, pixels) == withAlpha)
        #expect(try decode(124, alphaMask: 0xFF00_0000, pixels) == withAlpha)
        #expect(try decode(40, alphaMask: 0, pixels) == opaque)  // no alpha mask in the header
        #expect(try decode(56, alphaMask: 0xFF00_0000, pixels) == opaque)  // V3: BI_RGB masks are ignored
        #expect(try decode(124, alphaMask: 0, pixels) == opaque)
        #expect(try decode(124, alphaMask: 0x8000_0000, pixels) == opaque)  // image-rs lenient/..._BadMask.bmp
        #expect(try decode(124, alphaMask: 0xFF00_0000, zeroAlpha) == opaque)  // Chrome: unused alpha
        // A V4+ bit-field image with zero alpha everywhere is opaque too; a V3 one keeps its alpha (image-rs's
        // V3_A1_R5_G5_B5.bmp reference is transparent).
        func bitfields(_ infoSize: Int) throws -> [UInt8] {
            try BMPDecoder.decode(
                Self.bmp(
                    infoSize: infoSize, width: 2, height: 1, bitsPerPixel: 32, compression: 3,
                    masks: rgbMasks + [0xFF00_0000], pixels: zeroAlpha), options: ImageDecodingOptions()
            ).pixels
        }
        #expect(try bitfields(108) == opaque)
        #expect(try bitfields(56) == Self.rgba([(0x30, 0x20, 0x10, 0), (0x60, 0x50, 0x40, 0)]))
    }

    /// Bit-field channels wider than 8 bits keep their top 8 bits (Chrome, image-rs, bmpsuite's references);
    /// narrower ones are still scaled to 0...255 with rounding.
    @Test func wideChannelsKeepTheirTopEightBits() throws {
        // 11-11-10 bits: red 199 (0b000_1100_0111: top 8 bits 24; rounding 199 × 255 / 2047 would give 25), green
        // 2047 (255), blue 7 (0b00_0000_0111: top 8 bits 1; rounding would give 2).
        let masks: [UInt32] = [0xFFE0_0000, 0x001F_FC00, 0x0000_03FF]
        let wide = UInt32(199) << 21 | UInt32(2047) << 10 | 7
        let image = try BMPDecoder.decode(
            Self.bmp(
                width: 1, height: 1, bitsPerPixel: 32, compression: 3, extra: masks.flatMap(Self.le32),
                pixels: Self.le32(wide)),
            options: ImageDecodingOptions())
        #expect(image.pixels == [24, 255, 1, 255])
        // 5-5-5 bits: red 3 scales to 25 (3 × 255 / 31 = 24.7), green 31 to 255, blue 1 to 8 (8.2).
        let narrow = 3 << 10 | 31 << 5 | 1
        let rgb16 = try BMPDecoder.decode(
            Self.bmp(width: 1, height: 1, bitsPerPixel: 16, pixels: Self.le16(narrow) + [0, 0]),
            options: ImageDecodingOptions())
        #expect(rgb16.pixels == [25, 255, 8, 255])
    }

    /// Wide channels in bmpsuite's and image-rs's files against their references.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func wideChannelFilesMatchTheirReferences() throws {
        // bmpsuite's 16-bit references, whose top 8 bits are the wide channels' (its 8-bit rgb24.png, the reference
        // for rgb32-111110.bmp, is the ideal picture, which neither rounding nor truncation reproduces), and
        // image-rs's references. rgba32-61754.png's green is 17 bits wide; its 5-bit blue is bit-replicated (3 → 24)
        // where Decant and image-rs round (3 → 25), so only green is compared.
        var mismatches = [
            try Self.bmpsuiteMismatch("q/rgba32-81284.bmp", reference: "rgba32-81284.png"),
            try Self.bmpsuiteMismatch("q/rgb32-7187.bmp", reference: "rgb32-7187.png"),
            try Self.bmpsuiteMismatch("q/rgba32-61754.bmp", reference: "rgba32-61754.png", channels: [1]),
        ]
        mismatches += [try Self.imageRSMismatch("rgb32-111110.bmp"), try Self.imageRSMismatch("rgba32-61754.bmp")]
        #expect(mismatches.compactMap { $0 } == [])
    }

    /// OS/2 2.x RLE24 (compression 4 with 24 bits per pixel): a count and one B, G, R pixel per run, absolute runs of
    /// 3-byte pixels padded to 16 bits, and RLE8's end-of-line, delta and end-of-bitmap escapes; pixels the stream
    /// skips, and rows after the data ends, stay transparent.
    @Test func os2RLE24Decodes() throws {
        let stream: [UInt8] = [
            2, 1, 2, 3,  // bottom row: 2 × (R 3, G 2, B 1)
            0, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0,  // absolute: 3 pixels, 9 bytes padded to 10
            0, 0,  // end of line
            0, 2, 3, 0,  // delta: 3 right
            5, 13, 14, 15,  // 5 × (R 15, G 14, B 13), clipped to the 2 pixels left in the row
            0, 0,  // end of line
            0, 4, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27,  // absolute: 4 pixels, 12 bytes, no padding
            0, 1,  // end of bitmap
        ]
        func decode(_ stream: [UInt8]) throws -> Image {
            try BMPDecoder.decode(
                Self.bmp(infoSize: 64, width: 5, height: 3, bitsPerPixel: 24, compression: 4, pixels: stream),
                options: ImageDecodingOptions())
        }
        let clear = (0, 0, 0, 0)
        let top = [(18, 17, 16, 255), (21, 20, 19, 255), (24, 23, 22, 255), (27, 26, 25, 255), clear]
        let middle = [clear, clear, clear, (15, 14, 13, 255), (15, 14, 13, 255)]
        let bottom = [(3, 2, 1, 255), (3, 2, 1, 255), (6, 5, 4, 255), (9, 8, 7, 255), (12, 11, 10, 255)]
        let image = try decode(stream)
        #expect(image.width == 5 && image.height == 3)
        #expect(image.pixels == Self.rgba(top + middle + bottom))
        #expect(image.metadata.bitDepth == 24 && image.metadata.colorType == .rgb)
        // Cut inside the last absolute run: its row stays transparent. Cut inside the clipped run: so do its pixels.
        let empty = [(Int, Int, Int, Int)](repeating: clear, count: 5)
        #expect(try decode(Array(stream[..<40])).pixels == Self.rgba(empty + middle + bottom))
        #expect(try decode(Array(stream[..<24])).pixels == Self.rgba(empty + empty + bottom))
    }

    /// bmpsuite's OS/2 RLE24 file against its reference.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func os2RLE24BmpsuiteFileMatchesItsReference() throws {
        #expect(try Self.bmpsuiteMismatch("q/rgb24rle24.bmp", reference: "pal8.png") == nil)
    }
}
