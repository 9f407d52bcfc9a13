import DecantCompression
import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// Third-party corpora with reference renderings: image-rs's test images (PNG, GIF, BMP, ICO) against its reference
/// PNGs, with Pillow's hashes as a second opinion, and golang.org/x/image's BMP and PNG pairs. References are decoded
/// with Decant's PNG decoder, which PngSuite verifies independently (``PNGSuiteTests``).
@Suite struct ImageCorpusTests {
    /// The image-rs corpus: `images/<format>/...` sources, `reference/<format>/...` renderings, `bad/`, `regression/`.
    static let imageRS = "images/image-rs/tests"
    /// golang.org/x/image's test data and the `index.json` that pairs sources with reference PNGs.
    static let golangImage = "images/golang-image"

    /// image-rs sources (relative to ``imageRS``) whose reference Decant is right not to match, with the reason.
    static let imageRSExceptions: [String: String] = [
        "images/bmp/images/pal4rletrns.bmp":
            "RLE4 delta codes leave pixels undefined; image-rs paints them opaque black (bmpsuite's alternative "
            + "pal4rletrns-b.png), Decant leaves them transparent, which is bmpsuite's first reference "
            + "(q/pal4rletrns.png, which Decant matches) and Chrome's rendering (Blink BMPImageReader::"
            + "ProcessRLEData leaves skipped pixels transparent); bmpsuite accepts either",
        "images/bmp/images/pal4rlecut.bmp":
            "delta, early end-of-line and end-of-bitmap codes leave pixels undefined; image-rs paints them opaque "
            + "black (bmpsuite's pal4rlecut-b.png), Decant leaves them transparent like bmpsuite's first reference "
            + "(q/pal4rlecut.png, which Decant matches but for the colour of its transparent pixels) and Chrome; bmpsuite accepts either",
    ]

    /// image-rs `bad/` files (relative to ``imageRS``) Decant decodes on purpose, with the reason.
    static let imageRSBadExceptions: [String: String] = [
        "bad/bmp/Bad_clrsUsed.bmp":
            "biClrUsed is 0xFF000006 in an 8-bit image; Decant clamps it to 1 << biBitCount and decodes, as Chrome "
            + "does (Blink BMPImageReader::ProcessInfoHeader: 'also do this for bitmaps that put too large a value "
            + "here'); image-rs and Pillow reject it"
    ]

    /// golang-image sources (relative to ``golangImage``) Decant is right not to match, with the reason.
    static let golangImageExceptions: [String: String] = [
        "testdata/bw-gopher_ccittGroup3.tiff": "CCITT Group 3 compression is not decoded: unsupportedFeature",
        "testdata/bw-gopher_ccittGroup4.tiff": "CCITT Group 4 compression is not decoded: unsupportedFeature",
    ]

    /// A decoded picture to compare: its size, RGBA8 pixels and, for 16-bit sources, RGBA16 samples.
    struct Rendering {
        var width: Int
        var height: Int
        var pixels: [UInt8]
        var samples16: [UInt16]?

        init(_ image: Image) {
            width = image.width
            height = image.height
            pixels = image.pixels
            samples16 = image.samples16
        }

        init(_ frame: Image.Frame, of image: Image) {
            width = image.width
            height = image.height
            pixels = frame.pixels
            samples16 = nil
        }

        /// Why this rendering differs from `reference`, or `nil` when it matches: the sizes, then the 16-bit samples
        /// when both have them, else the RGBA8 pixels.
        func mismatch(with reference: Rendering) -> String? {
            guard width == reference.width && height == reference.height else {
                return "\(width)×\(height), reference \(reference.width)×\(reference.height)"
            }
            if let samples16, let expected = reference.samples16 {
                return Self.describe(samples16, expected, width: width, bits: 16)
            }
            return Self.describe(pixels, reference.pixels, width: width, bits: 8)
        }

        /// How many samples differ and where the first differing pixel is, or `nil` when all are equal.
        static func describe<Sample: FixedWidthInteger>(
            _ actual: [Sample], _ expected: [Sample], width: Int, bits: Int
        ) -> String? {
            guard actual != expected else { return nil }
            guard actual.count == expected.count else {
                return "\(actual.count) \(bits)-bit samples, reference \(expected.count)"
            }
            let differing = zip(actual, expected).filter { $0 != $1 }.count
            let first = actual.indices.first { actual[$0] != expected[$0] }! / 4
            let got = actual[first * 4..<first * 4 + 4].map { "\($0)" }.joined(separator: ",")
            let want = expected[first * 4..<first * 4 + 4].map { "\($0)" }.joined(separator: ",")
            return "\(differing) of \(actual.count) \(bits)-bit samples differ; first at (\(first % width), "
                + "\(first / width)): got \(got), reference \(want)"
        }
    }

    /// Pillow's CRC-32 of its RGBA8 output (first frame only) and size, by path relative to `folder`; files Pillow
    /// could not decode are left out.
    static func pillowReferences(in folder: String) throws -> [String: (crc: UInt32, width: Int, height: Int)] {
        guard let url = Corpora.url(folder + "/_pillow_reference/pillow_reference.json") else { return [:] }
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as! [String: Any]
        var references: [String: (crc: UInt32, width: Int, height: Int)] = [:]
        for file in json["files"] as! [[String: Any]] {
            guard file["pillow"] as? String == "ok", let crc = file["crc32_rgba"] as? Int else { continue }
            references[file["file"] as! String] = (UInt32(crc), file["width"] as! Int, file["height"] as! Int)
        }
        return references
    }

    /// Decodes the file at `url` with the default options.
    static func decode(_ url: URL) throws -> Image {
        try ImageDecoder.decode(Data(contentsOf: url), options: ImageDecodingOptions())
    }

    /// What comparing one image-rs source with its references found.
    struct Comparison {
        /// Every way Decant's decoding differs from a reference, or the error it threw.
        var problems: [String] = []
        /// Whether image-rs has no reference rendering of the source.
        var isUnreferenced = false
        /// Frame references that could not be compared because Decant returned no animation frames.
        var skippedFrames: [String] = []
        /// Decant's first frame: its CRC-32 and size, for the Pillow cross-check; `nil` when decoding failed.
        var firstFrame: (crc: UInt32, width: Int, height: Int)?
        /// The CRC-32 of the image-rs still reference's RGBA8 pixels, when there is such a reference.
        var referenceCRC: UInt32?
    }

    /// Compares the image-rs source `file` (at `relative`, as `images/<format>/...`) with
    /// `reference/<format>/<path>.png`, the still image or an animation's first frame, and with every
    /// `<path>.anim_NN.png`, frame NN (1-based) composited onto the canvas, as image-rs's `reference_images.rs` does.
    static func compareWithReferences(_ file: URL, relative: String) -> Comparison {
        var comparison = Comparison()
        let referenceBase = imageRS + "/reference/" + relative.dropFirst("images/".count)
        let name = file.lastPathComponent
        let frameReferences = Corpora.files(under: (referenceBase as NSString).deletingLastPathComponent) {
            $0.lastPathComponent.hasPrefix(name + ".anim_") && $0.pathExtension == "png"
        }
        let stillReference = Corpora.url(referenceBase + ".png")
        do {
            let image = try decode(file)
            comparison.firstFrame = (Checksum.crc32(image.pixels), image.width, image.height)
            if let stillReference {
                let reference = try decode(stillReference)
                comparison.referenceCRC = Checksum.crc32(reference.pixels)
                if let problem = Rendering(image).mismatch(with: Rendering(reference)) {
                    comparison.problems.append(problem)
                }
            } else if frameReferences.isEmpty {
                // image-rs keeps files it cannot decode in bad/, so every file under images/ must decode.
                comparison.isUnreferenced = true
            }
            for referenceURL in frameReferences {
                let suffix = referenceURL.lastPathComponent.dropFirst(name.count + ".anim_".count)
                let number = Int(suffix.prefix { $0.isNumber })!
                guard !image.frames.isEmpty else {
                    comparison.skippedFrames.append(referenceURL.lastPathComponent)
                    continue
                }
                guard number <= image.frames.count else {
                    comparison.problems.append("frame \(number): only \(image.frames.count) frames decoded")
                    continue
                }
                let reference = try decode(referenceURL)
                if let problem = Rendering(image.frames[number - 1], of: image).mismatch(with: Rendering(reference)) {
                    comparison.problems.append("frame \(number): \(problem)")
                }
            }
        } catch {
            comparison.problems.append("\(error)")
        }
        return comparison
    }

    /// image-rs: every PNG, GIF, BMP and ICO source under `images/` matches its reference renderings (see
    /// ``compareWithReferences(_:relative:)``); sources without a reference must decode. Pillow's CRC-32 of the first
    /// frame is a second opinion: disagreements are printed, never failed on by themselves (where the image-rs
    /// reference agrees with Pillow, Decant differing from it already fails the reference comparison).
    ///
    /// An APNG's frames are compared with its `.anim_NN` references; a file for which Decant returns no frames has its
    /// frame references reported as skipped.
    @Test(
        .enabled(if: Corpora.isAvailable, "needs ../shared/corpora"),
        arguments: ["png", "gif", "bmp", "ico"])
    func imageRSMatchesReferences(format: String) throws {
        let pillow = try Self.pillowReferences(in: "images/image-rs")
        var passed = 0
        var failed: [String] = []
        var excepted: [String] = []
        var unreferenced: [String] = []
        var skippedFrames: [String] = []
        var pillowAgreements = 0
        var pillowDisagreements: [String] = []
        let extensions: Set<String> = format == "ico" ? ["ico", "cur"] : [format]
        for file in Corpora.files(under: "\(Self.imageRS)/images/\(format)", extensions: extensions) {
            let relative = Corpora.relativePath(of: file).replacingOccurrences(of: Self.imageRS + "/", with: "")
            let comparison = Self.compareWithReferences(file, relative: relative)
            if comparison.isUnreferenced { unreferenced.append(relative) }
            skippedFrames += comparison.skippedFrames
            if let opinion = pillow["tests/" + relative], let ours = comparison.firstFrame {
                if ours == opinion {
                    pillowAgreements += 1
                } else {
                    let side = comparison.referenceCRC.map { $0 == opinion.crc ? "agrees with Pillow" : "does not" }
                    pillowDisagreements.append("\(relative) (the image-rs reference \(side ?? "is missing"))")
                }
            }
            if comparison.problems.isEmpty {
                passed += 1
            } else if let reason = Self.imageRSExceptions[relative] {
                excepted.append("\(relative): \(comparison.problems.joined(separator: "; ")) (exception: \(reason))")
            } else {
                failed.append("\(relative): " + comparison.problems.joined(separator: "; "))
            }
        }
        print("image-rs \(format): \(passed) passed, \(failed.count) failed")
        for failure in failed { print("  " + failure) }
        for exception in excepted { print("  known exception: " + exception) }
        if !unreferenced.isEmpty {
            print("  \(unreferenced.count) without a reference, decoded: " + unreferenced.joined(separator: ", "))
        }
        if !skippedFrames.isEmpty {
            print(
                "  \(skippedFrames.count) frame references skipped (Decant returned no animation frames): "
                    + skippedFrames.joined(separator: ", "))
        }
        print(
            "  Pillow (second opinion, first frame): \(pillowAgreements) agree, \(pillowDisagreements.count) disagree"
                + (pillowDisagreements.isEmpty ? "" : ": " + pillowDisagreements.joined(separator: ", ")))
        #expect(failed.isEmpty)
        #expect(passed > 0)
    }

    /// image-rs's `bad/` BMP and ICO files must be rejected with a `SerializationError`, never crash (its TIFF files
    /// are among the TIFF decoder's hostile inputs).
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func imageRSBadFilesAreRejected() throws {
        var passed = 0
        var failed: [String] = []
        var excepted: [String] = []
        for file in Corpora.files(under: "\(Self.imageRS)/bad", extensions: ["bmp", "ico", "cur"]) {
            let data = try Data(contentsOf: file)
            let relative = Corpora.relativePath(of: file).replacingOccurrences(of: Self.imageRS + "/", with: "")
            do {
                let image = try ImageDecoder.decode(data, options: ImageDecodingOptions())
                let problem = "decoded \(image.width)×\(image.height), but bad/ files must be rejected"
                if let reason = Self.imageRSBadExceptions[relative] {
                    excepted.append("\(relative): \(problem) (exception: \(reason))")
                } else {
                    failed.append("\(relative): \(problem)")
                }
            } catch {
                print("image-rs bad: \(relative) rejected: [\(error.code)] \(error.message)")
                passed += 1
            }
        }
        print("image-rs bad: \(passed) passed, \(failed.count) failed")
        for failure in failed { print("  " + failure) }
        for exception in excepted { print("  known exception: " + exception) }
        #expect(failed.isEmpty)
        #expect(passed > 0)
    }

    /// image-rs's `regression/` PNG, GIF, BMP and ICO inputs (fuzzer crashes and OOMs) decode or fail, never crash.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func imageRSRegressionFilesNeverCrash() throws {
        let files = Corpora.files(under: "\(Self.imageRS)/regression", extensions: ["png", "gif", "bmp", "ico", "cur"])
        var failed: [String] = []
        for file in files {
            let data = try Data(contentsOf: file)
            let outcome = decodeOutcome(data)
            print("image-rs regression: \(Corpora.relativePath(of: file)): \(outcome)")
            if let problem = decodeProblem(data) { failed.append("\(Corpora.relativePath(of: file)): \(problem)") }
        }
        print("image-rs regression: \(files.count - failed.count) passed (no crash), \(failed.count) failed")
        #expect(failed.isEmpty, "\(failed)")
        // The count found in the corpus when this test was written: fewer means files went missing.
        #expect(files.count >= 6, "expected at least 6 image-rs regression files, found \(files.count)")
    }

    /// golang.org/x/image: the `index.json` pairs whose source is BMP or PNG must match their reference PNGs exactly
    /// (Go's tests compare every pixel), and so must the TIFF pairs.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func golangImagePairsMatchTheirReferences() throws {
        let index =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Corpora.url(Self.golangImage + "/index.json")!)) as! [String: Any]
        let pairs = index["pairs"] as! [[String: Any]]
        var passed = 0
        var failed: [String] = []
        var excepted: [String] = []
        var skipped: [String: Int] = [:]
        for pair in pairs {
            let input = pair["input"] as! String
            let fileExtension = (input as NSString).pathExtension.lowercased()
            guard ["bmp", "png", "tif", "tiff"].contains(fileExtension) else {
                skipped[fileExtension, default: 0] += 1
                continue
            }
            // Go's tests only decode some pairs ("decode-only"), and accept an error for some ("... or error").
            let compare = pair["compare"] as? String ?? ""
            var problem: String?
            do {
                let image = try Self.decode(Corpora.url(Self.golangImage + "/" + input)!)
                if let referencePath = pair["reference"] as? String, !compare.hasPrefix("decode-only") {
                    let reference = try Self.decode(Corpora.url(Self.golangImage + "/" + referencePath)!)
                    problem = Rendering(image).mismatch(with: Rendering(reference))
                }
            } catch {
                if !compare.contains("or error") || !(error is SerializationError) { problem = "\(error)" }
            }
            if let problem {
                if let reason = Self.golangImageExceptions[input] {
                    excepted.append("\(input): \(problem) (exception: \(reason))")
                } else {
                    failed.append("\(input): \(problem)")
                }
            } else {
                passed += 1
            }
        }
        let skippedText = skipped.sorted { $0.key < $1.key }.map { "skipped: \($0.value) (\($0.key))" }
        print(
            "golang-image: \(passed) passed, \(failed.count) failed"
                + skippedText.map { ", " + $0 }.joined())
        for failure in failed { print("  " + failure) }
        for exception in excepted { print("  known exception: " + exception) }
        #expect(failed.isEmpty)
        #expect(passed > 0)
    }

    /// Every BMP and PNG under golang-image decodes or fails cleanly; the PNGs, all valid, must decode.
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func golangImageFilesNeverCrash() throws {
        var passed = 0
        var failed: [String] = []
        var outcomes: [String: Int] = [:]
        for file in Corpora.files(under: Self.golangImage, extensions: ["bmp", "png"]) {
            let data = try Data(contentsOf: file)
            do {
                _ = try ImageDecoder.decode(data, options: ImageDecodingOptions())
                outcomes["decoded", default: 0] += 1
                passed += 1
            } catch {
                outcomes["\(error.code)", default: 0] += 1
                if file.pathExtension.lowercased() == "png" {
                    failed.append("\(Corpora.relativePath(of: file)): [\(error.code)] \(error.message)")
                } else {
                    passed += 1
                }
            }
        }
        print("golang-image bmp/png: \(passed) passed (no crash), \(failed.count) failed; outcomes \(outcomes)")
        for failure in failed { print("  " + failure) }
        #expect(failed.isEmpty)
        #expect(passed > 0)
    }
}
