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
            guard let url = Corpora.url("images/bmpsuite/" + file) else { continue }
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
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func badAndQuestionableFilesNeverCrash() throws {
        var outcomes: [String: Int] = [:]
        for file in Corpora.files(under: "images/bmpsuite", extension: "bmp")
        where !Corpora.relativePath(of: file).contains("/g/") {
            let start = ContinuousClock.now
            do {
                _ = try ImageDecoder.decode(Data(contentsOf: file), options: ImageDecodingOptions())
                outcomes["decoded", default: 0] += 1
            } catch {
                outcomes[(error as? SerializationError).map { "\($0.code)" } ?? "other", default: 0] += 1
            }
            #expect(ContinuousClock.now - start < .seconds(2))
        }
        print("bmpsuite b/q: \(outcomes.values.reduce(0, +)) passed (no crash), 0 failed; outcomes \(outcomes)")
    }

    @Test func seededMutationsNeverCrash() throws {
        guard let url = Corpora.url("images/bmpsuite/g/pal8rle.bmp") else { return }
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
}
