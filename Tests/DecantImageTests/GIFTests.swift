import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// GIF: image-gif's samples (CRC-32 of every frame's own RGBA rectangle), crash and stall inputs, and limits.
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
        for length in 0..<Self.small.count - 1 {
            _ = try? ImageDecoder.decode(Data(Self.small[..<length]), options: ImageDecodingOptions())
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
            _ = try? ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
        }
    }

    @Test func frameLimit() throws {
        guard let url = Corpora.url("images/image-gif/tests/samples/anim-gr.gif") else { return }
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
        var passed = 0
        for file in files {
            let start = ContinuousClock.now
            let data = try Data(contentsOf: Corpora.url("images/image-gif/" + file)!)
            let outcome: String
            do {
                let image = try ImageDecoder.decode(data, options: ImageDecodingOptions())
                outcome = "decoded \(image.width)×\(image.height), \(image.frameCount) frames"
            } catch {
                outcome = "[\(error.code)] \(error.message)"
            }
            let elapsed = ContinuousClock.now - start
            #expect(elapsed < .seconds(2), "\(file) took \(elapsed)")
            print("image-gif: \(file): \(outcome)")
            passed += 1
        }
        print("image-gif crash/stall/regression: \(passed) passed, 0 failed")
    }
}
