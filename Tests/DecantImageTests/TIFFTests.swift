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
}

/// The image-tiff corpus: every file Pillow decodes matches Pillow's RGBA8 CRC-32 (first page), the others decode
/// or fail cleanly; the fuzz inputs never crash or hang.
@Suite struct TIFFCorpusTests {
    /// The image-tiff crate's test data.
    static let imageTIFF = "images/image-tiff"

    /// Files (relative to ``imageTIFF``) whose Pillow reference Decant does not match, with the verified reason.
    static let exceptions: [String: String] = [:]

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"), .timeLimit(.minutes(2)))
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
                if crc != reference.crc || image.width != reference.width || image.height != reference.height {
                    problem = "\(image.width)×\(image.height) CRC-32 \(crc), Pillow's \(reference.width)×"
                        + "\(reference.height) \(reference.crc)"
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
}
