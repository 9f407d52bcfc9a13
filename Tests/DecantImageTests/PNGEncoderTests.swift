import DecantCompression
import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// `Image.pngData(frame:)` and its deflate compressor: files Pillow reads back to the pixels they were made from,
/// zlib streams Python's `zlib` inflates to the original bytes, and the frame and premultiplication rules.
@Suite struct PNGEncoderTests {
    /// A test image: its name, size and seed; opaque or with random alpha.
    struct Case: Sendable, CustomTestStringConvertible {
        let name: String
        let width: Int
        let height: Int
        let opaque: Bool
        let seed: UInt64
        var testDescription: String { "\(name) \(width)×\(height)" }

        /// Smooth gradients with noise (what filters and matches work on), and random alpha unless opaque.
        var pixels: [UInt8] {
            var generator = SplitMix64(state: seed)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    let noise = Int.random(in: 0..<(seed % 3 == 0 ? 1 : 9), using: &generator)
                    pixels[index] = UInt8(truncatingIfNeeded: x * 3 + noise)
                    pixels[index + 1] = UInt8(truncatingIfNeeded: y * 5 + x)
                    pixels[index + 2] = UInt8(truncatingIfNeeded: (x ^ y) + noise)
                    pixels[index + 3] = opaque ? 255 : UInt8.random(in: 0...255, using: &generator)
                }
            }
            return pixels
        }
    }

    static let cases: [Case] = [
        Case(name: "one pixel", width: 1, height: 1, opaque: true, seed: 1),
        Case(name: "one transparent pixel", width: 1, height: 1, opaque: false, seed: 2),
        Case(name: "odd opaque", width: 7, height: 5, opaque: true, seed: 3),
        Case(name: "odd alpha", width: 33, height: 17, opaque: false, seed: 4),
        Case(name: "one row", width: 1000, height: 1, opaque: true, seed: 5),
        Case(name: "one column", width: 1, height: 700, opaque: false, seed: 6),
        Case(name: "smooth", width: 300, height: 200, opaque: true, seed: 9),
        Case(name: "noisy alpha", width: 257, height: 129, opaque: false, seed: 10),
    ]

    /// Whether `python3` with Pillow is on this machine.
    static let hasPillow = Python.has("PIL")

    /// Whether `python3` is on this machine (its standard library has `zlib`).
    static let hasPython = Python.isAvailable

    /// Runs `python3 -c script` with `arguments` and returns its standard output; throws when it fails.
    @discardableResult
    static func python(_ script: String, _ arguments: [String] = []) throws -> Data {
        try Python.run(script, arguments)
    }

    static func temporaryURL(_ suffix: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("decant-png-\(UUID().uuidString)\(suffix)")
    }

    @Test(arguments: cases)
    func decantReadsBackThePixels(_ testCase: Case) throws {
        let pixels = testCase.pixels
        let image = Image(width: testCase.width, height: testCase.height, pixels: pixels, format: .png)
        let file = try image.pngData()
        let decoded = try PNGDecoder.decode(file, options: ImageDecodingOptions())
        #expect(decoded.width == testCase.width && decoded.height == testCase.height)
        #expect(decoded.pixels == pixels)
        // Opaque images are written without an alpha channel (colour type 2), others with one (6): IHDR byte 25.
        #expect(file[25] == (testCase.opaque ? 2 : 6))
    }

    /// Pillow (libpng's and zlib's reading) gets the same RGBA bytes from the file.
    @Test(.enabled(if: hasPillow, "needs python3 with Pillow"), arguments: cases)
    func pillowReadsBackThePixels(_ testCase: Case) throws {
        let pixels = testCase.pixels
        let image = Image(width: testCase.width, height: testCase.height, pixels: pixels, format: .png)
        let url = Self.temporaryURL(".png")
        defer { try? FileManager.default.removeItem(at: url) }
        try image.pngData().write(to: url)
        let rgba = try Self.python(
            "import sys; from PIL import Image; image = Image.open(sys.argv[1]); image.load(); "
                + "sys.stdout.buffer.write(image.convert('RGBA').tobytes())", [url.path])
        #expect(Array(rgba) == pixels)
    }

    /// A frame of an animation is written with its full canvas; a frame that does not exist is an error that says
    /// how many there are.
    @Test func framesAreWrittenByIndex() throws {
        let gif = GIFTests.animation(
            width: 2, height: 2,
            frames: [
                GIFTests.TestFrame(x: 0, y: 0, width: 2, height: 2, indices: [0, 0, 0, 0], disposal: 1),
                GIFTests.TestFrame(x: 1, y: 1, width: 1, height: 1, indices: [2], disposal: 1),
            ])
        let image = try GIFDecoder.decode(Data(gif), options: ImageDecodingOptions())
        let second = try PNGDecoder.decode(image.pngData(frame: 1), options: ImageDecodingOptions())
        #expect(second.pixels == image.frames[1].pixels)
        #expect(second.pixels != image.frames[0].pixels)
        #expect(try PNGDecoder.decode(image.pngData(), options: ImageDecodingOptions()).pixels == image.pixels)
        let error = #expect(throws: SerializationError.self) { try image.pngData(frame: 2) }
        #expect(error?.code == .invalidOption)
        #expect(error?.message.contains("2 animation frames") == true)
    }

    /// Premultiplied pixels are written with straight alpha, as PNG stores them.
    @Test func premultipliedPixelsAreWrittenStraight() throws {
        let straight: [UInt8] = [200, 100, 50, 128, 255, 255, 255, 255, 10, 20, 30, 0, 255, 0, 0, 51]
        var image = Image(width: 2, height: 2, pixels: straight, format: .png)
        image.premultiply()
        let decoded = try PNGDecoder.decode(image.pngData(), options: ImageDecodingOptions())
        for (index, (written, original)) in zip(decoded.pixels, straight).enumerated() where straight[index | 3] != 0 {
            // Premultiplying to 8 bits loses up to 255 / (2 * alpha) per sample; alpha itself is exact.
            let tolerance = index % 4 == 3 ? 0 : 255 / (2 * Int(straight[index | 3])) + 1
            #expect(abs(Int(written) - Int(original)) <= tolerance, "sample \(index)")
        }
    }

    /// An image read without its pixels (`inflate` off) is decoded before it is written.
    @Test func undecodedImagesAreDecodedFirst() throws {
        let pixels = Self.cases[3].pixels
        let source = try Image(width: 33, height: 17, pixels: pixels, format: .png).pngData()
        var options = ImageDecodingOptions()
        options.inflate = false
        let lazy = try PNGDecoder.decode(source, options: options)
        #expect(!lazy.isDecoded)
        #expect(try PNGDecoder.decode(lazy.pngData(), options: ImageDecodingOptions()).pixels == pixels)
    }
}
