import DecantCompression
import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// The TIFF decoder against libtiff (through Pillow): fixtures `tiff_fixtures.py` generated, with Pillow's RGBA8
/// decoding of each stored beside it as a PNG; the image-tiff corpus against Pillow's CRC-32s; then hostile input.
@Suite struct TIFFTests {
    /// `Fixtures/tiff`, beside this file.
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/tiff")

    /// The fixture names (without `.tiff`), sorted.
    static let fixtureNames: [String] =
        ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? [])
        .filter { $0.hasSuffix(".tiff") }.map { String($0.dropLast(5)) }.sorted()

    /// Decodes `data` as the image serializer would.
    static func decode(
        _ data: Data, options: ImageDecodingOptions = ImageDecodingOptions()
    ) throws(SerializationError) -> Image {
        try ImageDecoder.decode(data, options: options)
    }

    /// The fixture `name` (without `.tiff`).
    static func fixture(_ name: String) throws -> Data {
        try Data(contentsOf: fixtures.appendingPathComponent(name + ".tiff"))
    }

    /// Applying an orientation to a file of pages of different sizes turns each page on its own: the 12×14 second
    /// page of `multipage_lzw` becomes 14×12, each pixel where a 90° clockwise turn puts it.
    @Test func orientingTurnsEachPageAtItsOwnSize() throws {
        var image = try Self.decode(Self.fixture("multipage_lzw"))
        #expect(image.frames.count == 3)
        #expect(image.pixelSize(ofFrame: 1) == (12, 14))
        image.metadata.exifOrientation = 6
        let turned = image.oriented()
        #expect(turned.width == 10 && turned.height == 20)
        #expect(turned.pixelSize(ofFrame: 1) == (14, 12))
        let page = image.frames[1].pixels
        let turnedPage = turned.frames[1].pixels
        #expect(turnedPage.count == page.count)
        for y in 0..<12 {
            for x in 0..<14 {
                // Rotating 90° clockwise: the new (x, y) shows the stored (y, 13 - x).
                let stored = (((13 - x) * 12) + y) * 4
                let shown = (y * 14 + x) * 4
                #expect(turnedPage[shown..<(shown + 4)] == page[stored..<(stored + 4)], "(\(x), \(y))")
            }
        }
    }

    @Test func fixturesArePresent() {
        #expect(Self.fixtureNames.count >= 20, "run Tests/DecantImageTests/tiff_fixtures.py")
    }

    /// Every fixture decodes to exactly Pillow's RGBA8 (its PNG beside it), every page of the multipage ones.
    @Test(arguments: fixtureNames)
    func fixtureMatchesPillow(name: String) throws {
        let image = try Self.decode(Self.fixture(name))
        #expect(image.format == .tiff)
        var pages = [image.pixels]
        if image.frameCount > 1 { pages = image.frames.map(\.pixels) }
        for (index, pixels) in pages.enumerated() {
            let suffix = index == 0 ? "" : "_page\(index)"
            let url = Self.fixtures.appendingPathComponent(name + suffix + ".png")
            let reference = try Self.decode(Data(contentsOf: url))
            #expect(pixels.count == reference.pixels.count, "\(name) page \(index)")
            let mismatches = zip(pixels, reference.pixels).filter { $0 != $1 }.count
            #expect(mismatches == 0 && pixels == reference.pixels, "\(name) page \(index): \(mismatches) bytes differ")
        }
    }

    @Test func readsMetadataAndPages() throws {
        let metadata = try Self.decode(Self.fixture("gray8_metadata")).metadata
        #expect(metadata.exifOrientation == 6)
        #expect(metadata.pixelsPerMeter?.x == 11811 && metadata.pixelsPerMeter?.y == 5906)
        #expect(metadata.colorType == .grayscale && metadata.bitDepth == 8)
        let rgba = try Self.decode(Self.fixture("rgba8_lzw")).metadata
        #expect(rgba.colorType == .rgba && rgba.hasTransparency)
        #expect(try Self.decode(Self.fixture("palette8_lzw")).metadata.colorType == .indexed)
        let pages = try Self.decode(Self.fixture("multipage_lzw"))
        #expect(pages.frameCount == 3 && pages.frames.count == 3)
        #expect(pages.frames.map(\.width) == [20, 12, 20] && pages.frames.map(\.height) == [10, 14, 10])
        #expect(pages.frames.allSatisfy { $0.pixels.count == $0.width * $0.height * 4 })
        #expect(pages.pixels == pages.frames[0].pixels)
    }

    @Test func withoutInflateReadsOnlyTheHeader() throws {
        let image = try Self.decode(Self.fixture("multipage_lzw"), options: ImageDecodingOptions(inflate: false))
        #expect(!image.isDecoded && image.pixels.isEmpty)
        #expect(image.width == 20 && image.height == 10 && image.frameCount == 3 && image.format == .tiff)
        #expect(try image.decoded().pixels.count == 20 * 10 * 4)
    }

    /// A classic little-endian TIFF: header, then one IFD of `entries` (tag, type, count, value) at offset 8.
    static func tiff(_ entries: [(Int, Int, Int, Int)], next: Int = 0, trailing: [UInt8] = []) -> [UInt8] {
        func le(_ value: Int, _ size: Int) -> [UInt8] {
            (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        var bytes: [UInt8] = [0x49, 0x49, 0x2A, 0] + le(8, 4) + le(entries.count, 2)
        for (tag, type, count, value) in entries { bytes += le(tag, 2) + le(type, 2) + le(count, 4) + le(value, 4) }
        return bytes + le(next, 4) + trailing
    }

    /// Deflate strips that inflate to more or fewer bytes than their rows: the rows keep what fits and the rest is
    /// ignored, whether a strip is inflated in place (the first three, which have room after them) or through a
    /// buffer (the last); a strip that falls short is an error naming it, as libtiff's "Not enough data" is in
    /// Pillow. Strips compressed by Python's `zlib`.
    @Test(.enabled(if: Python.isAvailable, "needs python3"), arguments: [(5, 3), (0, 0), (-3, 2), (4, -8), (40, 40)])
    func deflateStripsOfTheWrongSize(extra: (first: Int, last: Int)) throws {
        // An 8×8 grey image, four strips of two rows; the samples are 0, 4, ..., 252.
        let samples = (0..<64).map { UInt8($0 * 4) }
        let extras = [extra.first, 0, 0, extra.last]
        let raw = (0..<4).map { index in
            let rows = samples[(16 * index)..<(16 * index + 16)]
            let more = extras[index]
            return more >= 0 ? Array(rows) + [UInt8](repeating: 0xAB, count: more) : Array(rows.dropLast(-more))
        }
        let streams = try raw.map { plain in
            [UInt8](
                try Python.run(
                    "import sys, zlib; sys.stdout.buffer.write(zlib.compress(bytes.fromhex(sys.argv[1])))",
                    [plain.map { String(format: "%02x", $0) }.joined()]))
        }
        // After the directory: the strip offsets and byte counts (four SHORTs each), then the strips.
        let tables = 8 + 2 + 12 * 9 + 4
        var offsets: [Int] = []
        var position = tables + 16
        for stream in streams {
            offsets.append(position)
            position += stream.count
        }
        func shorts(_ values: [Int]) -> [UInt8] { values.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] } }
        let bytes = Self.tiff(
            [
                (256, 3, 1, 8), (257, 3, 1, 8), (258, 3, 1, 8), (259, 3, 1, 8), (262, 3, 1, 1),
                (273, 3, 4, tables), (277, 3, 1, 1), (278, 3, 1, 2), (279, 3, 4, tables + 8),
            ], trailing: shorts(offsets) + shorts(streams.map(\.count)) + streams.flatMap { $0 })
        if let short = extras.firstIndex(where: { $0 < 0 }) {
            let error = try #require(throws: SerializationError.self) { try Self.decode(Data(bytes)) }
            #expect(error.code == .invalidBody, "\(error)")
            #expect(error.message.contains("strip \(short) is short"), "\(error)")
            #expect(error.message.contains("\(16 + extras[short]) of the 16 bytes"), "\(error)")
            return
        }
        let image = try Self.decode(Data(bytes))
        let expected = (0..<4).flatMap { index in raw[index].prefix(16) }
        #expect(image.pixels == expected.flatMap { [$0, $0, $0, 255] })
    }

    /// Uncompressed RGB8 strips whose byte counts are short (10, where the rows need 24) are read whole from their
    /// offsets, as Pillow reads them: both strips start at the same offset, so both give the 10 samples then 14 bytes
    /// EE (Pillow's `tobytes()` on this file: `6465…6d` then `ee` × 14, twice). The pixel memory of this path is not
    /// initialised before the strips are decoded into it, so every byte must come from a strip.
    @Test func shortByteCountsOfUncompressedStripsAreReadWhole() throws {
        let directory = 8 + 2 + 12 * 9 + 4
        let samples = (0..<10).map { UInt8(100 + $0) }
        let bytes = Self.tiff(
            [
                (256, 3, 1, 4), (257, 3, 1, 4), (258, 3, 1, 8), (259, 3, 1, 1), (262, 3, 1, 2),
                (273, 3, 2, directory | directory << 16), (277, 3, 1, 3), (278, 3, 1, 2), (279, 3, 2, 10),
            ], trailing: samples + [UInt8](repeating: 0xEE, count: 20))
        let image = try Self.decode(Data(bytes))
        let strip = samples + [UInt8](repeating: 0xEE, count: 14)
        let expected = strip + strip
        let rgba: [UInt8] = stride(from: 0, to: 48, by: 3).flatMap {
            [expected[$0], expected[$0 + 1], expected[$0 + 2], 255]
        }
        #expect(image.pixels == rgba)
    }

    /// A 4×4 grey image in one strip whose byte count is 0, 10 or 16 (the rows need 16), uncompressed or PackBits,
    /// and bodies that hold all of the strip or only part of it. Each outcome is Pillow's on the same file (checked
    /// with Pillow 13: `Image.open(...).load()`): an uncompressed strip is read whole whatever its byte count (an error
    /// when the body ends first, "image file is truncated"); PackBits data that ends early, as its byte count or the
    /// body cuts it, is an error ("Not enough data for scanline 0"), and a byte count of 0 lets it run to the end of
    /// the body (libtiff estimates it).
    @Test(arguments: [
        // (compression, byte count, bytes of data in the body, Pillow's outcome: nil for an image, or the error)
        (1, 0, 16, nil), (1, 10, 16, nil), (1, 16, 16, nil),
        (1, 16, 10, SerializationError.Code.truncatedBody), (1, 0, 10, .truncatedBody),
        (32773, 17, 17, nil), (32773, 0, 17, nil), (32773, 10, 17, .invalidBody), (32773, 17, 11, .truncatedBody),
    ])
    func shortStripsAreErrorsAsInPillow(
        compression: Int, byteCount: Int, present: Int, outcome: SerializationError.Code?
    ) throws {
        let samples = (0..<16).map { UInt8(10 + $0) }
        // PackBits: one literal run of 16 bytes (header 15), 17 bytes in all (TIFF 6.0 §9).
        let data = compression == 1 ? samples : [15] + samples
        let directory = 8 + 2 + 12 * 9 + 4
        let bytes = Self.tiff(
            [
                (256, 3, 1, 4), (257, 3, 1, 4), (258, 3, 1, 8), (259, 3, 1, compression), (262, 3, 1, 1),
                (273, 4, 1, directory), (277, 3, 1, 1), (278, 3, 1, 4), (279, 4, 1, byteCount),
            ], trailing: Array(data.prefix(present)))
        guard let outcome else {
            let image = try Self.decode(Data(bytes))
            #expect(image.pixels == samples.flatMap { [$0, $0, $0, 255] })
            return
        }
        let error = try #require(throws: SerializationError.self) { try Self.decode(Data(bytes)) }
        #expect(error.code == outcome, "\(error)")
        #expect(error.message.contains("strip 0") && error.message.contains("of the 16 bytes"), "\(error)")
    }

    /// A PackBits strip whose literal run stops after 10 of its 16 bytes (its byte count says 11, and the body ends
    /// there): Pillow fails ("Not enough data for scanline 0"); Decant names the strip and the counts.
    @Test func aPackBitsStripThatEndsEarlyIsInvalid() throws {
        let samples = (0..<10).map { UInt8(10 + $0) }
        let directory = 8 + 2 + 12 * 9 + 4
        let bytes = Self.tiff(
            [
                (256, 3, 1, 4), (257, 3, 1, 4), (258, 3, 1, 8), (259, 3, 1, 32773), (262, 3, 1, 1),
                (273, 4, 1, directory), (277, 3, 1, 1), (278, 3, 1, 4), (279, 4, 1, 11),
            ], trailing: [9] + samples)
        let error = try #require(throws: SerializationError.self) { try Self.decode(Data(bytes)) }
        #expect(error.code == .invalidBody)
        #expect(error.message.contains("strip 0 is short: its 11 bytes at offset \(directory) decode to 10 of the 16"))
    }

    /// A strip of a megabyte of random bytes, LZW, Deflate or PackBits compressed, in a valid 1024×1024 RGB directory:
    /// it ends fast, in an image or an error the data explains (never a crash or a hang).
    @Test(arguments: [5, 8, 32773])
    func aMegabyteOfGarbageAsAStrip(compression: Int) throws {
        var generator = SplitMix64(state: UInt64(compression))
        let garbage = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let data = 8 + 2 + 12 * 9 + 4
        let bytes = Self.tiff(
            [
                (256, 3, 1, 1024), (257, 3, 1, 1024), (258, 3, 1, 8), (259, 3, 1, compression), (262, 3, 1, 2),
                (273, 4, 1, data), (277, 3, 1, 3), (278, 3, 1, 1024), (279, 4, 1, garbage.count),
            ], trailing: garbage)
        do {
            let image = try Self.decode(Data(bytes))
            #expect(compression != 8, "random bytes are no zlib stream")
            #expect(image.width == 1024 && image.height == 1024)
        } catch {
            #expect(error.code == .invalidBody)
            // Random PackBits runs decode to about 2 of the 3 MB the rows need: a short strip (Pillow: "Not enough
            // data").
            let cause = compression == 8 ? "cannot be inflated" : compression == 5 ? "LZW" : "strip 0 is short"
            #expect(error.message.contains(cause), "\(error)")
        }
    }

    /// A Deflate strip of a few kilobytes that inflates to 50 MB, in a 16×16 image, is stopped at what the strip can
    /// hold (plus 64 KiB), fast. The stream is Python's `zlib` on 50 MB of zeros.
    @Test(.enabled(if: Python.isAvailable, "needs python3"))
    func aDeflateStripThatClaimsFiftyMegabytesIsStopped() throws {
        let stream = [UInt8](
            try Python.run("import sys, zlib; sys.stdout.buffer.write(zlib.compress(bytes(50_000_000), 9))"))
        #expect(stream.count < 100_000)
        let data = 8 + 2 + 12 * 9 + 4
        let bytes = Self.tiff(
            [
                (256, 3, 1, 16), (257, 3, 1, 16), (258, 3, 1, 8), (259, 3, 1, 8), (262, 3, 1, 2),
                (273, 4, 1, data), (277, 3, 1, 3), (278, 3, 1, 16), (279, 4, 1, stream.count),
            ], trailing: stream)
        #expect { _ = try Self.decode(Data(bytes)) } throws: { error in
            (error as? SerializationError)?.code == .limitExceeded
        }
    }

    /// Small bodies that claim gigabytes, loop or stop short end in an error, quickly.
    @Test
    func hostileHeadersThrow() {
        let strip = 8 + 2 + 12 * 8 + 4
        let cases: [(String, [UInt8], SerializationError.Code)] = [
            (
                "huge size", Self.tiff([(256, 4, 1, 1 << 30), (257, 4, 1, 1 << 30), (273, 4, 1, 8), (279, 4, 1, 1)]),
                .limitExceeded
            ),
            (
                "bomb", Self.tiff([(256, 4, 1, 9000), (257, 4, 1, 9000), (273, 4, 1, 8), (279, 4, 1, 0x7FFF_FFFF)]),
                .limitExceeded
            ),
            (
                "loop", Self.tiff([(256, 4, 1, 1), (257, 4, 1, 1), (273, 4, 1, 8), (279, 4, 1, 1)], next: 8),
                .invalidBody
            ),
            ("entry count at EOF", [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 0xFF, 0xFF], .truncatedBody),
            ("IFD past the end", [0x49, 0x49, 0x2A, 0, 0xFF, 0xFF, 0xFF, 0x7F], .truncatedBody),
            ("no strips", Self.tiff([(256, 4, 1, 4), (257, 4, 1, 4)]), .invalidBody),
            (
                "huge tiles",
                Self.tiff([
                    (256, 4, 1, 4), (257, 4, 1, 4000), (322, 4, 1, 1 << 20), (323, 4, 1, 1 << 20),
                    (324, 4, 1, strip), (325, 4, 1, 1),
                ]), .limitExceeded
            ),
            (
                "CCITT", Self.tiff([(256, 4, 1, 4), (257, 4, 1, 4), (259, 3, 1, 4), (273, 4, 1, 8), (279, 4, 1, 1)]),
                .unsupportedFeature
            ),
            (
                "strip counts",
                Self.tiff([
                    (256, 4, 1, 4), (257, 4, 1, 100_000), (278, 4, 1, 1), (273, 4, 1, 8),
                    (279, 4, 1, 1),
                ]), .invalidBody
            ),
        ]
        for (name, bytes, code) in cases {
            #expect("\(name)") { _ = try Self.decode(Data(bytes)) } throws: { error in
                (error as? SerializationError)?.code == code
            }
        }
    }

    /// A megabyte of garbage after a valid header ends in an error, never a crash or a hang.
    @Test
    func garbageAfterTheHeaderThrows() {
        var generator = SystemRandomNumberGenerator()
        let garbage = (0..<(1 << 20)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        for header in [[0x49, 0x49, 0x2A, 0, 8, 0, 0, 0], [0x4D, 0x4D, 0, 0x2A, 0, 0, 0, 8]] as [[UInt8]] {
            #expect(decodeProblem(Data(header + garbage)) == nil)
        }
    }

    /// Every truncation of a fixture gives an error or an image.
    @Test(arguments: ["rgb8_tiff_lzw", "rgb8_tiled_mm", "rgb8_jpeg", "multipage_lzw", "rgb8_bigtiff"])
    func everyTruncationThrowsOrDecodes(name: String) throws {
        let data = try Self.fixture(name)
        var failed: [String] = []
        for length in stride(from: 0, to: data.count, by: max(1, data.count / 200)) {
            if let problem = decodeProblem(data.prefix(length)) { failed.append("\(length) bytes: \(problem)") }
        }
        #expect(failed.isEmpty, "\(failed)")
    }

    @Test(arguments: ["rgb8_tiff_lzw", "rgb8_packbits", "rgb8_tiff_adobe_deflate", "float32_deflate_predictor"])
    func corruptBytesGiveAnErrorOrAnImage(name: String) throws {
        let original = [UInt8](try Self.fixture(name))
        var generator = SystemRandomNumberGenerator()
        var failed: [String] = []
        for _ in 0..<200 {
            var bytes = original
            for _ in 0..<4 { bytes[Int.random(in: 8..<bytes.count, using: &generator)] = .random(in: 0...255) }
            if let problem = decodeProblem(Data(bytes)) { failed.append(problem) }
        }
        #expect(failed.isEmpty, "\(failed)")
    }

}

/// The image-tiff corpus: every file Pillow decodes matches Pillow's RGBA8 CRC-32 (first page), the others decode
/// or fail cleanly; the fuzz inputs never crash or hang.
@Suite struct TIFFCorpusTests {
    /// The image-tiff crate's test data.
    static let imageTIFF = "images/image-tiff"

    /// Files (relative to ``imageTIFF``) whose Pillow reference Decant does not match, with the verified reason.
    static let exceptions: [String: String] = [
        "tests/images/big_g4.tif": ccitt, "tests/images/fax4.tiff": ccitt,
        "tests/images/imagemagick_group4.tiff": ccitt, "tests/images/seq/seq-1c-1b-fax3-71f6a21a.tiff": ccitt,
        "tests/images/seq/seq-1c-1b-fax3-fillbits-71f6a21a.tiff": ccitt,
        "tests/images/seq/seq-1c-1b-fax3-lsb-71f6a21a.tiff": ccitt, "tests/libtiffpic/fax2d.tif": ccitt,
        "tests/libtiffpic/g3test.tif": ccitt,
        "tests/images/int16_zstd.tif": "Zstandard compression (50000) is not decoded: unsupportedFeature",
        "tests/libtiffpic/smallliz.tif": oldJPEG, "tests/libtiffpic/zackthecat.tif": oldJPEG,
        "tests/images/hpredict-1c-12b.tiff":
            "the horizontal predictor on 12-bit samples is not decoded (libtiff's predictor takes 8, 16, 32 and 64 "
            + "bits only; Pillow's output here is the raw differences): unsupportedFeature",
        "tests/images/seq/seq-4c-8b-rgba-50969cda.tiff":
            "ExtraSamples says associated alpha, which Decant divides out; Pillow, given a per-sample SampleFormat, "
            + "opens it as straight RGBA and leaves the colours premultiplied",
        "tests/libtiffpic/depth/flower-rgb-planar-16.tif": pillowPlanar16,
        "tests/libtiffpic/depth/flower-separated-planar-16.tif": pillowPlanar16,
    ]

    /// Why the 16-bit planar files differ: verified by decoding them with Pillow, whose tiles read each 16-bit plane
    /// with an 8-bit raw mode ('R', 'G', 'B'), scrambling the pixels; Decant's output is exactly Pillow's
    /// decoding of the same picture stored chunky (flower-rgb-contig-16.tif, flower-separated-contig-16.tif).
    static let pillowPlanar16 =
        "Pillow misreads 16-bit planes (8-bit raw mode per plane); Decant's CRC-32 equals Pillow's for the chunky "
        + "file of the same picture"

    /// CCITT fax compressions are not decoded.
    static let ccitt = "CCITT fax compression (3 or 4) is not decoded: unsupportedFeature"
    /// Old-style JPEG is not decoded.
    static let oldJPEG = "old-style JPEG compression (6) is not decoded: unsupportedFeature"

    /// For corpus files whose Pillow RGBA is not Decant's documented sample mapping (16-bit, 12-bit and 32-bit grey,
    /// signed and floating-point samples), the CRC-32 of Pillow's decoded samples mapped as Decant documents,
    /// written by `tiff_fixtures.py`.
    static let mapped: [String: UInt32] = {
        let url = TIFFTests.fixtures.appendingPathComponent("corpus_mapped.json")
        guard let data = try? Data(contentsOf: url),
            let json = try? JSONSerialization.jsonObject(with: data) as? [String: Int]
        else { return [:] }
        return json.mapValues { UInt32($0) }
    }()

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func filesMatchPillow() throws {
        let references = try ImageCorpusTests.pillowReferences(in: Self.imageTIFF)
        var passed = 0
        var failed: [String] = []
        var excepted: [String] = []
        for (path, reference) in references.sorted(by: { $0.key < $1.key }) {
            guard path.hasSuffix(".tif") || path.hasSuffix(".tiff"), !path.contains("fuzz_images") else { continue }
            let url = try #require(Corpora.url(Self.imageTIFF + "/" + path))
            let data = try Data(contentsOf: url)
            var problem: String?
            do {
                let image = try TIFFTests.decode(data)
                let crc = Checksum.crc32(image.pixels)
                let expected = Self.mapped[path] ?? reference.crc
                if crc != expected || image.width != reference.width || image.height != reference.height {
                    problem =
                        "\(image.width)×\(image.height) CRC-32 \(crc), Pillow's \(reference.width)×"
                        + "\(reference.height) \(expected)"
                }
            } catch {
                problem = "[\(error.code)] \(error.message)"
            }
            if let problem {
                if let reason = Self.exceptions[path] {
                    excepted.append("\(path): \(problem) (exception: \(reason))")
                } else {
                    failed.append("\(path): \(problem)")
                }
            } else {
                passed += 1
            }
        }
        print("image-tiff vs Pillow: \(passed) passed, \(failed.count) failed, \(excepted.count) known exceptions")
        for failure in failed { print("  " + failure) }
        for exception in excepted { print("  known exception: " + exception) }
        #expect(failed.isEmpty)
        #expect(passed > 0)
    }

    /// All of image-tiff's fuzz inputs (crashes, hangs, out-of-memory and out-of-range panics in other decoders)
    /// end in an error or an image.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func fuzzImagesNeverCrashOrHang() throws {
        let files = Corpora.files(under: Self.imageTIFF + "/tests/fuzz_images", where: { _ in true })
        var outcomes: [String: Int] = [:]
        var failed: [String] = []
        for file in files {
            let data = try Data(contentsOf: file)
            let outcome = decodeOutcome(data)
            if let problem = decodeProblem(data) { failed.append("\(file.lastPathComponent): \(problem)") }
            outcomes[
                outcome.hasPrefix("decoded") ? "decoded" : String(outcome.prefix(while: { $0 != "]" })) + "]",
                default: 0] += 1
        }
        print(
            "image-tiff fuzz_images: \(files.count - failed.count) passed (no crash or hang), \(failed.count) failed; "
                + "outcomes \(outcomes)")
        #expect(failed.isEmpty, "\(failed)")
        #expect(files.count == 130)
    }

    /// Every other TIFF of the corpus (those Pillow cannot decode included) decodes or fails cleanly.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func everyFileDecodesOrFailsCleanly() throws {
        let files = Corpora.files(under: Self.imageTIFF, extensions: ["tif", "tiff"])
        var outcomes: [String: Int] = [:]
        var failed: [String] = []
        for file in files where !file.path.contains("fuzz_images") {
            let data = try Data(contentsOf: file)
            let outcome = decodeOutcome(data)
            if let problem = decodeProblem(data) { failed.append("\(Corpora.relativePath(of: file)): \(problem)") }
            print("image-tiff: \(Corpora.relativePath(of: file)): \(outcome)")
            outcomes[
                outcome.hasPrefix("decoded") ? "decoded" : String(outcome.prefix(while: { $0 != "]" })) + "]",
                default: 0] += 1
        }
        let count = outcomes.values.reduce(0, +)
        print(
            "image-tiff all files: \(count - failed.count) passed (no crash), \(failed.count) failed; outcomes \(outcomes)"
        )
        #expect(failed.isEmpty, "\(failed)")
        #expect(!files.isEmpty)
    }

    /// Sample sums that differ from image-tiff's, with the verified reason.
    static let sampleSumExceptions: [String: String] = [
        "images/planar-rgb-u8.tif":
            "image-tiff sums only the first plane of a planar image: its 15417630 is the red plane's sum in Pillow's "
            + "decoding, and Decant's 39528948 is the sum of all three planes there",
        "images/miniswhite-1c-12b.tiff":
            "image-tiff inverts WhiteIsZero samples: its 18565 is 8 × 4095 − 14195, Decant's stored sum",
        "images/miniswhite-1c-6b.tiff":
            "image-tiff inverts WhiteIsZero samples: its 2124 is 12 packed bytes × 255 − 936, Decant's stored sum",
    ]

    /// image-tiff's own tests: the sum of every native sample of the first page (`expected_sample_sums.json`), for
    /// the files Decant decodes without JPEG; floating-point sums within 1e-3 relative.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func nativeSampleSumsMatchImageTIFF() throws {
        let url = try #require(Corpora.url(Self.imageTIFF + "/expected_sample_sums.json"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [String: Any])
        let cases = try #require(json["cases"] as? [[String: Any]])
        var passed = 0
        var failed: [String] = []
        var skipped: [String] = []
        for item in cases {
            let file = try #require(item["file"] as? String)
            let text = try #require(item["expected_sum_of_all_samples"] as? String)
            let expected = try #require(Double(text))
            let data = try Data(contentsOf: try #require(Corpora.url(Self.imageTIFF + "/tests/" + file)))
            do {
                let sum = try TIFFDecoder.nativeSampleSum(data, options: ImageDecodingOptions())
                if abs(sum - expected) <= max(1e-3 * abs(expected), 1e-6) {
                    passed += 1
                } else if let reason = Self.sampleSumExceptions[file] {
                    print("  known exception: \(file): \(sum), image-tiff's \(expected) (\(reason))")
                } else {
                    failed.append("\(file): \(sum), image-tiff's \(expected)")
                }
            } catch {
                skipped.append("\(file): [\(error.code)]")
            }
        }
        print(
            "image-tiff sample sums: \(passed) passed, \(failed.count) failed, \(Self.sampleSumExceptions.count) "
                + "known exceptions, \(skipped.count) not decoded (unsupported)")
        for failure in failed { print("  " + failure) }
        for skip in skipped { print("  not decoded: " + skip) }
        #expect(failed.isEmpty)
        #expect(passed > 0)
    }

    /// The planar 16-bit exceptions hold: Decant's decoding of each planar file equals Pillow's of the chunky file of
    /// the same picture.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func planar16FilesEqualPillowsChunkyDecoding() throws {
        let references = try ImageCorpusTests.pillowReferences(in: Self.imageTIFF)
        for kind in ["rgb", "separated"] {
            let planar = "tests/libtiffpic/depth/flower-\(kind)-planar-16.tif"
            let chunky = try #require(references["tests/libtiffpic/depth/flower-\(kind)-contig-16.tif"])
            let data = try Data(contentsOf: try #require(Corpora.url(Self.imageTIFF + "/" + planar)))
            #expect(Checksum.crc32(try TIFFTests.decode(data).pixels) == chunky.crc, "\(planar)")
        }
    }
}
