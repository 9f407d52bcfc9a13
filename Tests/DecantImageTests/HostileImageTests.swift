import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// Bodies built to cost far more than they weigh: a few bytes claiming a gigabyte canvas, pixel data that is not
/// there, and a megabyte of garbage behind each format's signature. Each must end in an error or an image, before
/// anything large is allocated, within the default limits.
@Suite struct HostileImageTests {
    static func decode(_ bytes: [UInt8], _ options: ImageDecodingOptions = ImageDecodingOptions()) throws -> Image {
        try ImageDecoder.decode(Data(bytes), options: options)
    }

    /// The error `body` throws; fails the test when it succeeds or throws something else.
    static func error(_ body: () throws -> Image) -> SerializationError? {
        do {
            let image = try body()
            Issue.record("decoded a \(image.width)×\(image.height) image")
            return nil
        } catch let error as SerializationError {
            return error
        } catch {
            Issue.record("threw \(error)")
            return nil
        }
    }

    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }

    // MARK: - Few bytes, huge claims

    /// 35 bytes: a 10000×10000 logical screen holding one 1×1 frame would need a 400 MB canvas.
    @Test func gifScreenFarLargerThanItsBody() throws {
        let screen =
            Array("GIF89a".utf8) + Self.le16(10_000) + Self.le16(10_000) + [0x80, 0, 0] + [0, 0, 0, 255, 255, 255]
        let frame: [UInt8] = [0x2C] + Self.le16(0) + Self.le16(0) + Self.le16(1) + Self.le16(1) + [0]
        let data: [UInt8] = [2, 2, 0x44, 0x01, 0]  // LZW: clear, index 0, end (3-bit codes); the block terminator
        let bytes = screen + frame + data + [0x3B]
        let error = try #require(Self.error { try Self.decode(bytes) })
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxPixelsPerByte") && error.message.contains("10000×10000"))
        // Size and frame count alone cost nothing and are still answered.
        let lazy = try Self.decode(bytes, ImageDecodingOptions(inflate: false))
        #expect(lazy.width == 10_000 && lazy.height == 10_000 && !lazy.isDecoded)
        // A small screen with the same frame decodes.
        var small = bytes
        small[6] = 2
        small[7] = 0
        small[8] = 2
        small[9] = 0
        let image = try Self.decode(small)
        #expect(image.width == 2 && image.pixels.count == 16)
    }

    /// A 1-bit PNG of 10⁸ pixels compresses to about 12 KB (deflate's best ratio is about 1,032:1, eight pixels a
    /// byte); its header alone is refused, before any image data is read.
    @Test func bilevelPNGOfAHundredMillionPixels() throws {
        let bytes = PNGBuilder.png(width: 10_000, height: 10_000, depth: 1, colorType: 0, rows: [0])
        let error = try #require(Self.error { try Self.decode(bytes) })
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxPixelsPerByte"))
    }

    /// The budget is the ratio times the body size, never below 4096×4096 pixels.
    @Test func pixelBudgetGrowsWithTheBody() {
        let limits = ImageLimits()
        #expect(limits.pixelBudget(bodySize: 12_000) == 4096 * 4096)
        #expect(limits.pixelBudget(bodySize: 1 << 20) == 1 << 30)
        #expect(ImageLimits(maxPixelsPerByte: 10).pixelBudget(bodySize: 1 << 30) == 10 << 30)
        #expect(ImageLimits(maxPixelsPerByte: .max).pixelBudget(bodySize: 2) == .max)
    }

    /// 15 animation frames of 5000×5000: 375 million pixels of canvases from a few hundred bytes.
    @Test func animatedPNGWithManyHugeFrames() throws {
        let control = PNGBuilder.chunk("acTL", PNGBuilder.bigEndian(15) + PNGBuilder.bigEndian(0))
        let header = PNGBuilder.header(width: 5000, height: 5000, depth: 1, colorType: 0)
        let bytes = PNGDecoder.signature + header + control + PNGBuilder.chunk("IEND", [])
        var options = ImageDecodingOptions()
        options.limits.maxPixelsPerByte = 1_000_000  // past the single canvas's check, so that acTL's is the one hit
        let error = try #require(Self.error { try Self.decode(bytes, options) })
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxPixelsPerByte") && error.message.contains("15 frames"))
    }

    /// 118 bytes: a 40-byte header claiming 10000×10000 24-bit pixels, then 64 bytes of them.
    @Test func bmpClaimingFarMorePixelsThanItHolds() throws {
        let bytes = [UInt8](
            BMPTests.bmp(width: 10_000, height: 10_000, bitsPerPixel: 24, pixels: [UInt8](repeating: 7, count: 64)))
        #expect(bytes.count == 118)
        let error = try #require(Self.error { try Self.decode(bytes) })
        #expect(error.code == .limitExceeded && error.message.contains("maxPixelsPerByte"))
        // Within the pixel budget, the missing rows are the error, named with what was needed and what is there.
        let small = [UInt8](
            BMPTests.bmp(width: 100, height: 100, bitsPerPixel: 24, pixels: [UInt8](repeating: 7, count: 64)))
        let short = try #require(Self.error { try Self.decode(small) })
        #expect(short.code == .truncatedBody)
        #expect(short.message.contains("needs 30000 bytes") && short.message.contains("holds 64"))
        // Only the last row's padding may be missing: 3 pixels of 24 bits are 9 bytes, padded to 12.
        let unpadded = BMPTests.bmp(width: 3, height: 2, bitsPerPixel: 24, pixels: [UInt8](repeating: 9, count: 21))
        #expect(try ImageDecoder.decode(unpadded, options: ImageDecodingOptions()).pixels.count == 24)
    }

    /// Compression 4 and 5 under a Windows header embed a JPEG or a PNG file: unsupported, not read as RLE24.
    @Test(arguments: [(UInt32(4), "JPEG"), (UInt32(5), "PNG")])
    func bmpWithAnEmbeddedFileIsUnsupported(compression: UInt32, embedded: String) throws {
        let bytes = [UInt8](
            BMPTests.bmp(width: 4, height: 4, bitsPerPixel: 24, compression: compression, pixels: [0xFF, 0xD8, 0, 0]))
        let error = try #require(Self.error { try Self.decode(bytes) })
        #expect(error.code == .unsupportedFeature)
        #expect(error.message.contains("BI_\(embedded)"))
    }

    /// An icon entry whose run-length DIB claims 5000×5000 pixels in about a kilobyte.
    @Test func iconEntryClaimingAHugeRunLengthBitmap() throws {
        var dib = BMPTests.le32(40) + BMPTests.le32(5000) + BMPTests.le32(10_000) + Self.le16(1) + Self.le16(8)
        dib += BMPTests.le32(1) + [UInt8](repeating: 0, count: 20)
        dib += [UInt8](repeating: 0, count: 1024) + [0, 1]  // the palette, then an end-of-bitmap code
        let directory: [UInt8] = [0, 0, 1, 0, 1, 0] + [0, 0, 0, 0] + Self.le16(1) + Self.le16(8)
        let bytes = directory + BMPTests.le32(UInt32(dib.count)) + BMPTests.le32(22) + dib
        let error = try #require(Self.error { try Self.decode(bytes) })
        #expect(error.code == .limitExceeded && error.message.contains("maxPixelsPerByte"))
    }

    // MARK: - A megabyte of garbage

    /// Each decoder, given its signature and then a megabyte of seeded random bytes, ends in an error or an image
    /// whose pixels match its size.
    @Test(arguments: ["png", "gif", "bmp", "ico", "none"])
    func megabyteOfGarbageBehindEachSignature(_ format: String) throws {
        let signatures: [String: [UInt8]] = [
            "png": PNGDecoder.signature, "gif": Array("GIF89a".utf8), "bmp": Array("BM".utf8),
            "ico": [0, 0, 1, 0, 1, 0], "none": [],
        ]
        for seed in UInt64(1)...4 {
            var generator = SplitMix64(state: seed)
            let garbage = (0..<(1 << 20)).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
            do {
                let image = try Self.decode(try #require(signatures[format]) + garbage)
                #expect(image.pixels.count == image.width * image.height * 4)
            } catch is SerializationError {
                // The expected outcome for almost every seed.
            }
        }
    }
}
