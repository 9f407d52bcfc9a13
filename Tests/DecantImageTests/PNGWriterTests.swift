import DecantCompression
import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// `PNGWriter`, `Image.pngData(frame:)` and the format's `ImageBodyEncoder`: files Pillow (libpng's and zlib's
/// reading) and Decant read back to the pixels they were made from, in the smallest lossless colour type; corpus
/// images decoded by Decant and written again; the frame, premultiplication and undecoded-image rules.
@Suite struct PNGWriterTests {
    /// What a test image's pixels are like, which decides the colour type written.
    enum Kind: String, Sendable {
        /// Opaque, R = G = B: greyscale (0).
        case grey
        /// R = G = B with random alpha, more than 256 colours: greyscale with alpha (4).
        case greyAlpha
        /// At most 16 colours, some translucent: indexed colour (3).
        case palette
        /// Opaque, many colours: truecolour (2).
        case opaque
        /// Random alpha, many colours: truecolour with alpha (6).
        case alpha

        /// The colour type the writer chooses for an image of this kind with enough pixels.
        var colourType: UInt8 {
            switch self {
            case .grey: 0
            case .greyAlpha: 4
            case .palette: 3
            case .opaque: 2
            case .alpha: 6
            }
        }
    }

    /// A test image: its size, kind and seed.
    struct Case: Sendable, CustomTestStringConvertible {
        let width: Int
        let height: Int
        let kind: Kind
        let seed: UInt64
        var testDescription: String { "\(kind) \(width)×\(height)" }

        /// Smooth gradients with noise (what filters and matches work on), shaped by the kind.
        var pixels: [UInt8] {
            var generator = SplitMix64(state: seed)
            var pixels = [UInt8](repeating: 0, count: width * height * 4)
            let colours: [[UInt8]] = (0..<16).map { _ in
                [
                    UInt8.random(in: 0...255, using: &generator), UInt8.random(in: 0...255, using: &generator),
                    UInt8.random(in: 0...255, using: &generator),
                    [0, 128, 255, 255][Int.random(in: 0..<4, using: &generator)],
                ]
            }
            for y in 0..<height {
                for x in 0..<width {
                    let index = (y * width + x) * 4
                    let noise = Int.random(in: 0..<9, using: &generator)
                    var pixel = [
                        UInt8(truncatingIfNeeded: x * 3 + noise), UInt8(truncatingIfNeeded: y * 5 + x),
                        UInt8(truncatingIfNeeded: (x ^ y) + noise), UInt8.random(in: 0...255, using: &generator),
                    ]
                    switch kind {
                    case .grey: pixel = [pixel[0], pixel[0], pixel[0], 255]
                    case .greyAlpha: pixel = [pixel[1], pixel[1], pixel[1], pixel[3]]
                    case .palette: pixel = colours[(x / 3 + y / 2 + noise / 4) % colours.count]
                    case .opaque: pixel[3] = 255
                    case .alpha: break
                    }
                    pixels.replaceSubrange(index..<(index + 4), with: pixel)
                }
            }
            return pixels
        }
    }

    static let cases: [Case] = [
        Case(width: 1, height: 1, kind: .opaque, seed: 1),
        Case(width: 1, height: 1, kind: .alpha, seed: 2),
        Case(width: 1, height: 1, kind: .grey, seed: 3),
        Case(width: 7, height: 5, kind: .opaque, seed: 4),
        Case(width: 33, height: 17, kind: .alpha, seed: 5),
        Case(width: 2000, height: 1, kind: .opaque, seed: 6),
        Case(width: 1, height: 1500, kind: .alpha, seed: 7),
        Case(width: 3000, height: 2, kind: .palette, seed: 8),
        Case(width: 300, height: 200, kind: .grey, seed: 9),
        Case(width: 257, height: 129, kind: .greyAlpha, seed: 10),
        Case(width: 120, height: 90, kind: .palette, seed: 11),
        Case(width: 300, height: 200, kind: .opaque, seed: 12),
        Case(width: 257, height: 129, kind: .alpha, seed: 13),
    ]

    /// Whether `python3` with Pillow is on this machine.
    static let hasPillow = Python.has("PIL")

    static func temporaryURL(_ suffix: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("decant-png-\(UUID().uuidString)\(suffix)")
    }

    /// Pillow opens each PNG file and converts it to RGBA; returns, per file, whether those bytes equal the pixels.
    static func pillowMatches(_ files: [(png: Data, pixels: [UInt8])]) throws -> [Bool] {
        let directory = temporaryURL("")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (index, file) in files.enumerated() {
            try file.png.write(to: directory.appendingPathComponent("\(index).png"))
            try Data(file.pixels).write(to: directory.appendingPathComponent("\(index).rgba"))
        }
        let output = try Python.run(
            """
            import sys, os
            from PIL import Image
            directory, count = sys.argv[1], int(sys.argv[2])
            for index in range(count):
                image = Image.open(os.path.join(directory, f'{index}.png'))
                image.load()
                expected = open(os.path.join(directory, f'{index}.rgba'), 'rb').read()
                print('1' if image.convert('RGBA').tobytes() == expected else '0')
            """, [directory.path, String(files.count)])
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map { $0 == "1" }
    }

    @Test(arguments: cases)
    func decantReadsBackThePixels(_ testCase: Case) throws {
        let pixels = testCase.pixels
        let image = Image(width: testCase.width, height: testCase.height, pixels: pixels, format: .png)
        let file = try PNGWriter().write(image)
        let decoded = try PNGDecoder.decode(file, options: ImageDecodingOptions())
        #expect(decoded.width == testCase.width && decoded.height == testCase.height)
        #expect(decoded.pixels == pixels)
        // The colour type is IHDR's tenth byte (file offset 25); tiny images skip the palette, whose table costs more.
        if testCase.width * testCase.height > 1000 { #expect(file[25] == testCase.kind.colourType) }
        // Without the palette, a palette image is written in direct colour.
        let direct = try PNGWriter(options: PNGWritingOptions(allowsPalette: false)).write(image)
        #expect(direct[25] != 3)
        #expect(try PNGDecoder.decode(direct, options: ImageDecodingOptions()).pixels == pixels)
    }

    /// Pillow gets the same RGBA bytes from every file, with and without the palette.
    @Test(.enabled(if: hasPillow, "needs python3 with Pillow"))
    func pillowReadsBackThePixels() throws {
        var files: [(png: Data, pixels: [UInt8])] = []
        for testCase in Self.cases {
            let pixels = testCase.pixels
            let image = Image(width: testCase.width, height: testCase.height, pixels: pixels, format: .png)
            files.append((try PNGWriter().write(image), pixels))
            files.append((try PNGWriter(options: PNGWritingOptions(allowsPalette: false)).write(image), pixels))
        }
        let matches = try Self.pillowMatches(files)
        #expect(matches.count == files.count)
        for (index, match) in matches.enumerated() {
            #expect(match, "\(Self.cases[index / 2].testDescription), palette \(index % 2 == 0 ? "allowed" : "off")")
        }
    }

    /// The corpora's PngSuite, bmpsuite, GIF and JPEG files, decoded by Decant and written again: Pillow and Decant
    /// read the written file back to the pixels Decant decoded.
    @Test(
        .enabled(if: hasPillow && Corpora.isAvailable, "needs python3 with Pillow and ../shared/corpora"),
        arguments: ["pngsuite", "bmpsuite", "gif", "jpeg"])
    func corpusImagesAreWrittenLosslessly(_ corpus: String) throws {
        let urls: [URL]
        switch corpus {
        case "pngsuite": urls = Corpora.files(under: "images/pngsuite", extension: "png")
        case "bmpsuite": urls = Corpora.files(under: "images/bmpsuite/g", extension: "bmp")
        case "gif": urls = Corpora.files(under: "images", extension: "gif")
        default: urls = Corpora.files(under: "images", extensions: ["jpg", "jpeg"])
        }
        var files: [(png: Data, pixels: [UInt8])] = []
        var names: [String] = []
        for url in urls {
            // Files made to be rejected are not this test's business.
            guard let image = try? ImageDecoder.decode(Data(contentsOf: url), options: ImageDecodingOptions()),
                image.width * image.height <= 4_000_000
            else { continue }
            let png = try PNGWriter().write(image)
            var straight = image.pixels
            if image.isPremultiplied { PNGWriter.unpremultiply(&straight) }
            #expect(try PNGDecoder.decode(png, options: ImageDecodingOptions()).pixels == straight, "\(url.path)")
            files.append((png, straight))
            names.append(Corpora.relativePath(of: url))
        }
        #expect(files.count >= 20, "\(corpus): only \(files.count) images decoded")
        let matches = try Self.pillowMatches(files)
        #expect(matches.count == files.count)
        for (name, match) in zip(names, matches) { #expect(match, "\(name)") }
    }

    // MARK: - The body encoder

    /// The registry writes an image as image/png (by type and by negotiation) and reads it back.
    @Test func registryWritesPNG() throws {
        let pixels = Self.cases[4].pixels
        let image = Image(width: 33, height: 17, pixels: pixels, format: .gif)
        let registry = SerializerRegistry().installing(.image)
        let body = try registry.encode(image, as: "image/png")
        #expect(body.contentType == "image/png")
        #expect(body.serializerID == "image")
        #expect(Array(body.body.prefix(8)) == PNGWriter.signature)
        let again = try #require(try registry.serialize(body.response()).value as? Image)
        #expect(again.pixels == pixels)
        #expect(again.format == .png)
        for accept in ["image/*", "*/*", "image/png, image/webp;q=0.5"] {
            let negotiated = try registry.encode(image, accepting: AcceptHeader(parsing: accept))
            #expect(negotiated.contentType == "image/png", "Accept: \(accept)")
        }
    }

    /// Other image types, images without pixels and other values are clear errors.
    @Test func whatCannotBeWritten() throws {
        let image = Image(width: 2, height: 1, pixels: [1, 2, 3, 255, 4, 5, 6, 255], format: .jpeg)
        let registry = SerializerRegistry().installing(.image)
        let jpeg = #expect(throws: SerializationError.self) { try registry.encode(image, as: "image/jpeg") }
        #expect(jpeg?.code == .noSerializer)
        #expect(jpeg?.message.contains("'image' reads it but writes only image/png") == true, "\(jpeg?.message ?? "")")
        var options = ImageDecodingOptions()
        options.inflate = false
        let lazy = try PNGDecoder.decode(PNGWriter().write(image), options: options)
        let undecoded = #expect(throws: SerializationError.self) { try registry.encode(lazy, as: "image/png") }
        #expect(undecoded?.code == .encodingFailed)
        #expect(undecoded?.message.contains("inflate") == true)
        #expect(undecoded?.mediaType == "image/png")
        var wrongSize = image
        wrongSize.pixels.removeLast(4)
        let sizeError = #expect(throws: SerializationError.self) { try PNGWriter().write(wrongSize) }
        #expect(sizeError?.code == .encodingFailed)
        let empty = Image(width: 0, height: 5, pixels: [], format: .png)
        #expect(throws: SerializationError.self) { try PNGWriter().write(empty) }
        let text = #expect(throws: SerializationError.self) {
            try ImageBodyEncoder().encode("text", as: "image/png", options: EncodingOptions())
        }
        #expect(text?.code == .unsupportedValue)
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
        let pixels = Self.cases[4].pixels
        let source = try Image(width: 33, height: 17, pixels: pixels, format: .png).pngData()
        var options = ImageDecodingOptions()
        options.inflate = false
        let lazy = try PNGDecoder.decode(source, options: options)
        #expect(!lazy.isDecoded)
        #expect(try PNGDecoder.decode(lazy.pngData(), options: ImageDecodingOptions()).pixels == pixels)
    }
}
