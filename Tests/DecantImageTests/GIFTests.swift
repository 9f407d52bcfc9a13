import DecantCompression
import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// GIF: image-gif's samples (CRC-32 of every frame's own RGBA rectangle), crash and stall inputs, limits, and the
/// animation frames composited on demand (disposal methods, any reading order, concurrent readers, set pixels).
@Suite struct GIFTests {
    /// A 2×2 GIF89a: global table black/white/red/green, transparent index 3, pixels 0 1 / 2 3 (LZW, code size 2).
    static let small: [UInt8] = {
        var bytes = Array("GIF89a".utf8) + [2, 0, 2, 0, 0x81, 0, 0]
        bytes += [0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 255, 0]
        bytes += [0x21, 0xF9, 4, 0x01, 10, 0, 3, 0]
        bytes += [0x2C, 0, 0, 0, 0, 2, 0, 2, 0, 0]
        // Codes: clear 4, 0, 1, 2, 3, end 5, packed LSB first.
        var writer = BitWriter()
        // The code size grows to 4 bits once code 7 is assigned, after the third code (GIF89a Appendix F).
        for (code, bits) in [(4, 3), (0, 3), (1, 3), (2, 3), (3, 4), (5, 4)] { writer.write(code, bits: bits) }
        bytes += [2, UInt8(writer.bytes.count)] + writer.bytes + [0, 0x3B]
        return bytes
    }()

    @Test func decodesASmallImage() throws {
        let image = try ImageDecoder.decode(Data(Self.small), options: ImageDecodingOptions())
        #expect(image.format == .gif)
        #expect(image.width == 2 && image.height == 2)
        #expect(image.pixels == [0, 0, 0, 255, 255, 255, 255, 255, 255, 0, 0, 255, 0, 0, 0, 0])
        #expect(image.metadata.hasTransparency)
        #expect(image.frameCount == 1)
        let lazy = try ImageDecoder.decode(Data(Self.small), options: ImageDecodingOptions(inflate: false))
        #expect(!lazy.isDecoded && lazy.frameCount == 1)
        #expect(try lazy.decoded().pixels == image.pixels)
    }

    @Test func truncatedPrefixesAndMutationsNeverCrash() {
        var failed: [String] = []
        for length in 0..<Self.small.count - 1 {
            if let problem = decodeProblem(Data(Self.small[..<length])) { failed.append("\(length) bytes: \(problem)") }
        }
        var generator = SplitMix64(state: 0x6_1F)
        var sources = [Self.small]
        if let url = Corpora.url("images/image-gif/tests/samples/anim-gr.gif"), let data = try? Data(contentsOf: url) {
            sources.append([UInt8](data))
        }
        for round in 0..<1000 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 6..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            if let problem = decodeProblem(Data(bytes)) { failed.append("round \(round): \(problem)") }
        }
        #expect(failed.isEmpty, "\(failed)")
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func frameLimit() throws {
        let url = try #require(Corpora.url("images/image-gif/tests/samples/anim-gr.gif"))
        let limits = ImageLimits(maxFrames: 1)
        let error = try #require(throws: SerializationError.self) {
            try ImageDecoder.decode(Data(contentsOf: url), options: ImageDecodingOptions(limits: limits))
        }
        #expect(error.code == .limitExceeded)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func imageGIFSamplesMatchTheirCRCs() throws {
        let index =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Corpora.url("images/image-gif/index.json")!)) as! [String: Any]
        let samples = (index["samples"] as! [String: Any])["expected_crc32"] as! [[String: Any]]
        var passed = 0
        var failed: [String] = []
        for sample in samples {
            let file = sample["file"] as! String
            let expected = UInt32(sample["crc32"] as! Int)
            do {
                let bytes = [UInt8](try Data(contentsOf: Corpora.url("images/image-gif/" + file)!))
                let stream = try GIFDecoder.parse(bytes, decodingPixels: true, limits: ImageLimits())
                var crc: UInt32 = 0
                for frame in stream.frames { crc = Checksum.crc32(frame.rgba, initial: crc) }
                if crc == expected {
                    passed += 1
                } else {
                    failed.append("\(file): CRC \(crc), expected \(expected)")
                }
                _ = try ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
            } catch {
                failed.append("\(file): \(error)")
            }
        }
        print("image-gif: \(passed) passed, \(failed.count) failed")
        for failure in failed { print("  " + failure) }
        #expect(failed.isEmpty)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func crashAndStallInputsEndQuickly() throws {
        let index =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: Corpora.url("images/image-gif/index.json")!)) as! [String: Any]
        // The crashtest files the index lists are not in this corpus copy; the ones present are run.
        let listed = (index["crashtest"] as! [String]) + (index["stall"] as! [String])
        let files = (listed + (index["regression"] as! [String])).filter {
            Corpora.url("images/image-gif/" + $0) != nil
        }
        var failed: [String] = []
        for file in files {
            let data = try Data(contentsOf: Corpora.url("images/image-gif/" + file)!)
            let outcome = decodeOutcome(data)
            print("image-gif: \(file): \(outcome)")
            if let problem = decodeProblem(data) { failed.append("\(file): \(problem)") }
        }
        print("image-gif crash/stall/regression: \(files.count - failed.count) passed, \(failed.count) failed")
        #expect(failed.isEmpty, "\(failed)")
        // The count found in the corpus when this test was written: fewer means files went missing.
        #expect(files.count >= 4, "expected at least 4 crash/stall/regression files present, found \(files.count)")
    }

    // MARK: Animation frames, composited on demand

    /// One frame of a test animation: its rectangle, palette indices, disposal method (GIF89a §23, 0-7) and
    /// transparent index.
    struct TestFrame {
        var x: Int, y: Int, width: Int, height: Int
        var indices: [Int]
        var disposal: Int
        var transparent: Int?
    }

    /// A GIF89a of `frames` on a `width` by `height` canvas with a four-colour global table: red, green, blue, white.
    ///
    /// Each frame's indices are coded with a clear code before every two of them, so that codes stay 3 bits wide
    /// (LZW minimum code size 2, GIF89a Appendix F).
    static func animation(width: Int, height: Int, frames: [TestFrame]) -> [UInt8] {
        var bytes = Array("GIF89a".utf8) + [UInt8(width), 0, UInt8(height), 0, 0x81, 0, 0]
        bytes += [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255]
        for frame in frames {
            bytes += [0x21, 0xF9, 4, UInt8(frame.disposal << 2 | (frame.transparent == nil ? 0 : 1)), 5, 0]
            bytes += [UInt8(frame.transparent ?? 0), 0]
            bytes += [0x2C, UInt8(frame.x), 0, UInt8(frame.y), 0, UInt8(frame.width), 0, UInt8(frame.height), 0, 0]
            var writer = BitWriter()
            for start in stride(from: 0, to: frame.indices.count, by: 2) {
                writer.write(4, bits: 3)
                for index in frame.indices[start..<min(start + 2, frame.indices.count)] { writer.write(index, bits: 3) }
            }
            writer.write(5, bits: 3)
            bytes.append(2)
            for start in stride(from: 0, to: writer.bytes.count, by: 255) {
                let block = writer.bytes[start..<min(start + 255, writer.bytes.count)]
                bytes += [UInt8(block.count)] + block
            }
            bytes.append(0)
        }
        return bytes + [0x3B]
    }

    /// A seeded animation of `count` frames on a 12×9 canvas with random rectangles (some partly or wholly off the
    /// canvas, one in four covering all of it), every disposal method and random transparency.
    static func randomAnimation(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix64(state: seed)
        let frames = (0..<count).map { index in
            let whole = Int.random(in: 0..<4, using: &generator) == 0
            let width = whole ? 12 : Int.random(in: 1...14, using: &generator)
            let height = whole ? 9 : Int.random(in: 1...14, using: &generator)
            return TestFrame(
                x: index == 0 || whole ? 0 : Int.random(in: 0...14, using: &generator),
                y: index == 0 || whole ? 0 : Int.random(in: 0...10, using: &generator), width: width, height: height,
                indices: (0..<width * height).map { _ in Int.random(in: 0...3, using: &generator) },
                disposal: Int.random(in: 0...4, using: &generator),
                transparent: Bool.random(using: &generator) ? 3 : nil)
        }
        return animation(width: 12, height: 9, frames: frames)
    }

    /// The animations the reading-order tests use: seeded ones, then image-gif's and image-rs's animated samples.
    ///
    /// image-gif's `sample_big.gif` (259 frames of 1000×175, each redrawing the whole canvas) is left out: it takes
    /// seconds in debug builds and covers nothing that `gifplayer-muybridge.gif` (380 frames) does not.
    static var animations: [(name: String, bytes: [UInt8])] {
        var result = [
            ("random 6 frames", randomAnimation(count: 6, seed: 1)),
            ("random 40 frames", randomAnimation(count: 40, seed: 2)),
            ("random 97 frames", randomAnimation(count: 97, seed: 3)),
        ]
        let files =
            Corpora.files(under: "images/image-gif/tests/samples", extension: "gif")
            + Corpora.files(under: "images/image-rs/tests/images/gif/anim", extension: "gif")
        for url in files where url.lastPathComponent != "sample_big.gif" {
            if let data = try? Data(contentsOf: url) { result.append((url.lastPathComponent, [UInt8](data))) }
        }
        return result
    }

    /// Every frame's canvas, read in `order`, listed by frame index.
    static func canvases(of image: Image, order: [Int]) -> [[UInt8]] {
        var result = [[UInt8]](repeating: [], count: image.frames.count)
        for index in order { result[index] = image.frames[index].pixels }
        return result
    }

    @Test func framesCompositeEveryDisposalMethod() throws {
        let frames = [
            TestFrame(x: 0, y: 0, width: 2, height: 1, indices: [0, 1], disposal: 1, transparent: nil),
            TestFrame(x: 1, y: 0, width: 2, height: 2, indices: [2, 3, 3, 2], disposal: 3, transparent: 3),
            TestFrame(x: 2, y: 1, width: 2, height: 2, indices: [0, 1, 2, 2], disposal: 2, transparent: nil),
            TestFrame(x: 0, y: 1, width: 1, height: 1, indices: [3], disposal: 0, transparent: 3),
            TestFrame(x: 1, y: 0, width: 1, height: 1, indices: [2], disposal: 0, transparent: nil),
            TestFrame(x: 5, y: 5, width: 1, height: 1, indices: [0], disposal: 1, transparent: nil),
        ]
        let image = try ImageDecoder.decode(
            Data(Self.animation(width: 3, height: 2, frames: frames)), options: ImageDecodingOptions())
        let red: [UInt8] = [255, 0, 0, 255]
        let green: [UInt8] = [0, 255, 0, 255]
        let blue: [UInt8] = [0, 0, 255, 255]
        let clear: [UInt8] = [0, 0, 0, 0]
        // Worked by hand from GIF89a §23: "previous" restores the canvas as it was before frame 1, "background"
        // clears frame 2's rectangle (clipped to the canvas), index 3 is transparent where declared, and pixels off
        // the canvas are dropped.
        let expected: [[[UInt8]]] = [
            [red, green, clear, clear, clear, clear],
            [red, blue, clear, clear, clear, blue],
            [red, green, clear, clear, clear, red],
            [red, green, clear, clear, clear, clear],
            [red, blue, clear, clear, clear, clear],
            [red, blue, clear, clear, clear, clear],
        ]
        #expect(image.frameCount == 6 && image.frames.count == 6)
        #expect(image.pixels == expected[0].flatMap { $0 })
        for order in [Array(0..<6), Array((0..<6).reversed()), [3, 1, 5, 0, 4, 2]] {
            let fresh = try ImageDecoder.decode(
                Data(Self.animation(width: 3, height: 2, frames: frames)), options: ImageDecodingOptions())
            let canvases = Self.canvases(of: fresh, order: order)
            for index in 0..<6 {
                #expect(canvases[index] == expected[index].flatMap { $0 }, "frame \(index), order \(order)")
            }
        }
        #expect(image.frames.map(\.disposal) == [.none, .previous, .background, .unspecified, .unspecified, .none])
        #expect(image.frames[2].x == 2 && image.frames[2].y == 1 && image.frames[2].width == 2)
        #expect(image.frames.allSatisfy { $0.delay == 0.05 })
    }

    /// The canvases after each frame, drawn the plain way from each frame's own RGBA rectangle (checked against
    /// image-gif's CRCs above) with GIF89a §23's disposal methods; independent of the decoder's cache.
    static func referenceCanvases(_ bytes: [UInt8]) throws -> [[UInt8]] {
        let stream = try GIFDecoder.parse(bytes, decodingPixels: true, limits: ImageLimits())
        let width = stream.width
        var canvas = [UInt8](repeating: 0, count: width * stream.height * 4)
        var result: [[UInt8]] = []
        for frame in stream.frames {
            let saved = canvas
            let rgba = frame.rgba
            let columns = frame.x..<max(frame.x, min(width, frame.x + frame.width))
            let rows = frame.y..<max(frame.y, min(stream.height, frame.y + frame.height))
            for row in rows {
                for column in columns {
                    let source = ((row - frame.y) * frame.width + column - frame.x) * 4
                    // Alpha 0 in a frame's rectangle marks its transparent index: the canvas shows through.
                    guard rgba[source + 3] != 0 || frame.transparentIndex == nil else { continue }
                    for channel in 0..<4 { canvas[(row * width + column) * 4 + channel] = rgba[source + channel] }
                }
            }
            result.append(canvas)
            switch frame.disposal {
            case .background:
                for row in rows {
                    for column in columns {
                        for channel in 0..<4 { canvas[(row * width + column) * 4 + channel] = 0 }
                    }
                }
            case .previous:
                canvas = saved
            case .none, .unspecified:
                break
            }
        }
        return result
    }

    @Test func framesMatchAPlainCompositor() throws {
        for (name, bytes) in Self.animations {
            let image = try ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
            let expected = try Self.referenceCanvases(bytes)
            #expect(image.frameCount == expected.count, "\(name)")
            #expect(Checksum.crc32(image.pixels) == Checksum.crc32(expected[0]), "\(name): frame 0")
            guard image.frames.count > 1 else { continue }
            // Backwards, so that frames are composited from checkpoints and frames that cover the canvas.
            for index in expected.indices.reversed() {
                let pixels = image.frames[index].pixels
                #expect(pixels.count == expected[index].count && pixels == expected[index], "\(name): frame \(index)")
            }
        }
    }

    @Test func randomAndReverseOrderMatchSequentialReading() throws {
        for (name, bytes) in Self.animations {
            let sequential = try ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
            guard sequential.frames.count > 1 else { continue }
            let count = sequential.frames.count
            // Canvases of long animations are compared by CRC-32, so that no two full sets are held at once.
            let reference = Self.canvases(of: sequential, order: Array(0..<count)).map { Checksum.crc32($0) }
            #expect(reference[0] == Checksum.crc32(sequential.pixels), "\(name)")
            var generator = SplitMix64(state: 0x0D_E7)
            let orders = [
                Array((0..<count).reversed()), (0..<count).shuffled(using: &generator),
                Array(stride(from: count - 1, through: 0, by: -3)) + Array(0..<count),
            ]
            for order in orders {
                let image = try ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
                var crcs = [UInt32](repeating: 0, count: count)
                for index in order {
                    let pixels = image.frames[index].pixels
                    #expect(pixels.count == image.width * image.height * 4)
                    crcs[index] = Checksum.crc32(pixels)
                }
                #expect(crcs == reference, "\(name): order starting \(order.prefix(5))")
            }
        }
    }

    @Test func concurrentReadersGetTheSameCanvases() async throws {
        for (name, bytes) in Self.animations where name.hasPrefix("random") || name.contains("muybridge") {
            let reference = try ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
            // The first 100 frames of the long animation (three checkpoint intervals) keep debug builds quick.
            let count = min(reference.frames.count, 100)
            let expected = (0..<count).map { Checksum.crc32(reference.frames[$0].pixels) }
            // One image, so one shared cache, read by several tasks in different orders at once.
            let shared = try ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
            let results = await withTaskGroup(of: [UInt32].self) { group in
                for reader in 0..<4 {
                    group.addTask {
                        var generator = SplitMix64(state: UInt64(reader))
                        var order = Array(0..<count)
                        switch reader % 3 {
                        case 0: break
                        case 1: order.reverse()
                        default: order.shuffle(using: &generator)
                        }
                        var crcs = [UInt32](repeating: 0, count: count)
                        for index in order { crcs[index] = Checksum.crc32(shared.frames[index].pixels) }
                        return crcs
                    }
                }
                var results: [[UInt32]] = []
                for await crcs in group { results.append(crcs) }
                return results
            }
            #expect(results.count == 4)
            for crcs in results { #expect(crcs == expected, "\(name)") }
        }
    }

    @Test func setPixelsAreKept() throws {
        let bytes = Self.randomAnimation(count: 20, seed: 4)
        let image = try ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
        let composited = Self.canvases(of: image, order: Array(0..<20))
        var frames = image.frames
        let copyBeforeSetting = frames[2]
        let custom = [UInt8](repeating: 7, count: image.width * image.height * 4)
        frames[2].pixels = custom
        frames[5].pixels[0] = composited[5][0] &+ 1
        // Churn the shared cache: every frame, backwards, then frame 2's neighbours.
        for index in (0..<20).reversed() { _ = image.frames[index].pixels }
        _ = frames[1].pixels
        _ = frames[3].pixels
        #expect(frames[2].pixels == custom)
        var changed = composited[5]
        changed[0] &+= 1
        #expect(frames[5].pixels == changed)
        // Value semantics: the image's frames and copies made before setting still composite.
        #expect(image.frames[2].pixels == composited[2])
        #expect(image.frames[5].pixels == composited[5])
        #expect(copyBeforeSetting.pixels == composited[2])
        for index in [0, 1, 3, 4, 6, 19] { #expect(frames[index].pixels == composited[index], "frame \(index)") }

        var made = Image.Frame(pixels: [1, 2, 3, 4], delay: 0.1, disposal: .background, width: 1, height: 1)
        #expect(made.pixels == [1, 2, 3, 4])
        made.pixels[3] = 9
        #expect(made.pixels == [1, 2, 3, 9] && made.disposal == .background && made.x == 0)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func totalBytesLimitCountsWhatIsKept() throws {
        let url = try #require(Corpora.url("images/image-gif/tests/samples/gifplayer-muybridge.gif"))
        let bytes = [UInt8](try Data(contentsOf: url))
        let stream = try GIFDecoder.parse(bytes, decodingPixels: true, limits: ImageLimits())
        let canvas = stream.width * stream.height * 4
        let indices = stream.frames.reduce(0) { $0 + $1.indices.count }
        // Kept: the first frame's canvas, every frame's indices, and at most one 1 KiB palette per frame; far less
        // than one canvas per frame, which are made on access.
        let upperBound = canvas + indices + stream.frames.count * 1024
        #expect(upperBound < canvas * stream.frames.count / 10)
        let fits = try ImageDecoder.decode(
            Data(bytes), options: ImageDecodingOptions(limits: ImageLimits(maxTotalBytes: upperBound)))
        #expect(fits.frames.count == 380 && fits.frames[379].pixels.count == canvas)
        let error = try #require(throws: SerializationError.self) {
            try ImageDecoder.decode(
                Data(bytes), options: ImageDecodingOptions(limits: ImageLimits(maxTotalBytes: canvas + indices - 1)))
        }
        #expect(error.code == .limitExceeded)
    }
}
