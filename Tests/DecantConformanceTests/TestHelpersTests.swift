import DecantConformance
import Foundation
import Testing

/// The kit's public test helpers, which plugins' tests use instead of copies of their own.
@Suite struct TestHelpersTests {
    /// Reference outputs from Python, an independent implementation of Vigna's `splitmix64.c`:
    /// `s = (s + 0x9E3779B97F4A7C15) % 2**64; z = s; z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64;`
    /// `z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64; z ^ (z >> 31)`.
    static let references: [(seed: UInt64, outputs: [UInt64])] = [
        (
            1_234_567,
            [
                6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
                4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
            ]
        ),
        (0, [16_294_208_416_658_607_535, 7_960_286_522_194_355_700, 487_617_019_471_545_679]),
    ]

    @Test(arguments: references)
    func splitMix64MatchesTheReference(seed: UInt64, outputs: [UInt64]) {
        var generator = SplitMix64(seed: seed)
        #expect(outputs.map { _ in generator.next() } == outputs)
    }

    @Test func bytesAreEachWordLeastSignificantByteFirst() {
        var words = SplitMix64(seed: 0)
        var bytes = SplitMix64(seed: 0)
        let first = words.next()
        let expected = (0..<8).map { UInt8(truncatingIfNeeded: first >> UInt64($0 * 8)) }
        #expect(bytes.bytes(count: 3) == Array(expected.prefix(3)))
        #expect(bytes.bytes(count: 0) == [])
        #expect(bytes.bytes(count: -1) == [])
    }

    @Test(arguments: [(0, 7), (1, 1), (1000, 1), (1000, 16), (5000, 4096), (10, 0), (10, -3)])
    func chunkedBodyCutsEveryByteOnceWithinTheLimit(count: Int, maxChunk: Int) async throws {
        var generator = SplitMix64(seed: UInt64(count))
        let body = Data(generator.bytes(count: count))
        let chunked = ChunkedBody(body, seed: 9, maxChunk: maxChunk)
        #expect(chunked.chunks.allSatisfy { !$0.isEmpty && $0.count <= max(1, maxChunk) })
        var joined = Data()
        for try await chunk in chunked { joined.append(chunk) }
        #expect(joined == body)
        #expect(ChunkedBody(body, seed: 9, maxChunk: maxChunk).chunks == chunked.chunks, "the same cuts every run")
    }

    @Test func corporaComeFromTheEnvironmentFirst() throws {
        let folder = FileManager.default.temporaryDirectory
        let found = TestCorpora(environment: ["DECANT_CORPORA": folder.path])
        #expect(found.root?.standardizedFileURL.path == folder.standardizedFileURL.path)
        let missing = TestCorpora(environment: ["DECANT_CORPORA": folder.appendingPathComponent("no-such").path])
        #expect(!missing.isAvailable)
        #expect(missing.url("anything") == nil)
    }

    @Test func corporaAreFoundBesideThePackageOfTheCallingFile() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("decant-corpora-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: base) }
        let package = base.appendingPathComponent("Plugin")
        let tests = package.appendingPathComponent("Tests/PluginTests")
        try FileManager.default.createDirectory(at: tests, withIntermediateDirectories: true)
        try Data().write(to: package.appendingPathComponent("Package.swift"))
        let file = tests.appendingPathComponent("PluginTests.swift").path
        #expect(!TestCorpora(searchingFrom: file, environment: [:]).isAvailable, "skipped cleanly when absent")
        let corpora = base.appendingPathComponent("shared/corpora")
        try FileManager.default.createDirectory(
            at: corpora.appendingPathComponent("cal"), withIntermediateDirectories: true)
        let found = TestCorpora(searchingFrom: file, environment: [:])
        #expect(found.root?.path == corpora.standardizedFileURL.path)
        #expect(found.url("cal")?.lastPathComponent == "cal")
        #expect(found.url("ical") == nil)
    }
}
