import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantImage

/// ICO/CUR: image-rs's icons against their reference PNGs; bad and regression inputs never crash.
@Suite struct ICOTests {
    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func iconsMatchTheirReferences() throws {
        var passed = 0
        var failed: [String] = []
        for file in Corpora.files(under: "images/image-rs/tests/images/ico", extension: "ico") {
            let name = file.lastPathComponent
            guard let referenceURL = Corpora.url("images/image-rs/tests/reference/ico/images/\(name).png") else {
                print("image-rs ico: \(name): no reference PNG, decoded for no-crash only")
                _ = try? ImageDecoder.decode(Data(contentsOf: file), options: ImageDecodingOptions())
                continue
            }
            do {
                let image = try ImageDecoder.decode(Data(contentsOf: file), options: ImageDecodingOptions())
                let reference = try ImageDecoder.decode(Data(contentsOf: referenceURL), options: ImageDecodingOptions())
                #expect(image.format == .ico)
                #expect(image.chosenEntry != nil && !image.entries.isEmpty)
                if image.width == reference.width && image.height == reference.height
                    && image.pixels == reference.pixels
                {
                    passed += 1
                } else {
                    let differing = zip(image.pixels, reference.pixels).filter { $0 != $1 }.count
                    failed.append(
                        "\(name): \(image.width)×\(image.height) vs \(reference.width)×\(reference.height), "
                            + "\(differing) samples differ")
                }
            } catch {
                failed.append("\(name): \(error)")
            }
        }
        print("image-rs ico: \(passed) passed, \(failed.count) failed")
        for failure in failed { print("  " + failure) }
        #expect(failed.isEmpty)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func badAndRegressionIconsNeverCrash() throws {
        let files =
            Corpora.files(under: "images/image-rs/tests/bad/ico", extension: "ico")
            + Corpora.files(under: "images/image-rs/tests/regression/ico", extension: "ico")
        for file in files {
            let start = ContinuousClock.now
            let outcome: String
            do {
                let image = try ImageDecoder.decode(Data(contentsOf: file), options: ImageDecodingOptions())
                outcome = "decoded \(image.width)×\(image.height)"
            } catch {
                outcome = (error as? SerializationError).map { "[\($0.code)] \($0.message)" } ?? "\(error)"
            }
            #expect(ContinuousClock.now - start < .seconds(2))
            print("image-rs ico: \(file.lastPathComponent): \(outcome)")
        }
        print("image-rs ico bad/regression: \(files.count) passed (no crash), 0 failed")
    }

    @Test func seededMutationsNeverCrash() throws {
        let urls = ["smile.ico", "png-32bpp-alpha.ico"].compactMap {
            Corpora.url("images/image-rs/tests/images/ico/images/\($0)")
        }
        var sources: [[UInt8]] = []
        for url in urls { sources.append([UInt8](try Data(contentsOf: url))) }
        guard !sources.isEmpty else { return }
        var generator = SplitMix64(state: 0x1C0)
        for round in 0..<1000 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                bytes[Int.random(in: 4..<bytes.count, using: &generator)] = UInt8.random(in: 0...255, using: &generator)
            }
            _ = try? ImageDecoder.decode(Data(bytes), options: ImageDecodingOptions())
        }
    }
}
