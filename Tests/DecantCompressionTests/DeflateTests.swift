import DecantTestSupport
import Foundation
import Testing

@testable import DecantCompression

/// `Deflate` (RFC 1950/1951/1952) read back by Python's `zlib` and `gzip` and by Decant's own `Inflate`, and its
/// length-limited Huffman codes checked against the Kraft equality and a textbook Huffman construction.
@Suite struct DeflateTests {
    /// An input to compress: its name and bytes.
    struct Input: Sendable, CustomTestStringConvertible {
        let name: String
        let bytes: [UInt8]
        var testDescription: String { "\(name) (\(bytes.count) bytes)" }
    }

    static let inputs: [Input] = {
        var generator = SplitMix64(state: 38)
        let block = randomBytes(&generator, 40_000)
        let text = String(repeating: "The quick brown fox jumps over the lazy dog; 0123456789. ", count: 2000)
        var sawtooth = [UInt8]()
        for index in 0..<300_000 { sawtooth.append(UInt8(truncatingIfNeeded: index % 251 + index / 7919)) }
        return [
            Input(name: "empty", bytes: []),
            Input(name: "one byte", bytes: [0x41]),
            Input(name: "two bytes", bytes: [0, 255]),
            Input(name: "three equal bytes", bytes: [7, 7, 7]),
            Input(name: "every byte value", bytes: (0...255).map { UInt8($0) }),
            Input(name: "one long run", bytes: [UInt8](repeating: 7, count: 1_000_000)),
            Input(name: "random", bytes: randomBytes(&generator, 150_000)),
            // Repeats of a block longer than the window: matches past 32 KiB must not be used.
            Input(name: "repeats past the window", bytes: block + block + Array(block.prefix(1000))),
            Input(name: "four symbols", bytes: randomBytes(&generator, 100_000).map { $0 & 3 }),
            Input(name: "text", bytes: Array(text.utf8)),
            Input(name: "sawtooth", bytes: sawtooth),
        ]
    }()

    static func randomBytes(_ generator: inout SplitMix64, _ count: Int) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    static let levels: [Deflate.Level] = [.fast, .default, .best]

    static func temporaryURL(_ suffix: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("decant-deflate-\(UUID().uuidString)\(suffix)")
    }

    /// Python reads back the zlib, raw and gzip forms of `input`; returns the size of `zlib.compress(input, 6)`.
    static func pythonReadsBack(_ input: [UInt8], zlib: [UInt8], raw: [UInt8], gzip: [UInt8]) throws -> Int {
        let urls = (0..<4).map { temporaryURL(".\($0)") }
        defer { for url in urls { try? FileManager.default.removeItem(at: url) } }
        for (url, bytes) in zip(urls, [input, zlib, raw, gzip]) { try Data(bytes).write(to: url) }
        let output = try Python.run(
            """
            import sys, zlib, gzip
            data = [open(path, 'rb').read() for path in sys.argv[1:]]
            original = data[0]
            checks = [zlib.decompress(data[1]) == original, zlib.decompress(data[2], -15) == original,
                      gzip.decompress(data[3]) == original]
            print(' '.join('1' if check else '0' for check in checks), len(zlib.compress(original, 6)))
            """, urls.map(\.path))
        let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        #expect(fields.prefix(3) == ["1", "1", "1"], "zlib, raw and gzip read back by Python")
        return Int(fields.last ?? "") ?? -1
    }

    @Test(.enabled(if: Python.isAvailable, "needs python3"), arguments: inputs, levels)
    func pythonAndInflateReadBack(_ input: Input, level: Deflate.Level) throws {
        let zlib = Deflate.zlib(input.bytes, level: level)
        let raw = Deflate.raw(input.bytes, level: level)
        let gzip = Deflate.gzip(input.bytes, level: level)
        _ = try Self.pythonReadsBack(input.bytes, zlib: zlib, raw: raw, gzip: gzip)
        #expect(try Inflate.zlib(zlib) == input.bytes)
        #expect(try Inflate.raw(raw) == input.bytes)
        #expect(try Inflate.gzip(gzip) == input.bytes)
    }

    /// Without python3 the inflater alone reads everything back, so the suite checks something on every machine.
    @Test(arguments: inputs, levels)
    func inflateReadsBack(_ input: Input, level: Deflate.Level) throws {
        #expect(try Inflate.zlib(Deflate.zlib(input.bytes, level: level)) == input.bytes)
    }

    /// Data that does not compress is stored: at most 5 bytes per 65,535 more than the input, plus the wrapper.
    @Test func randomDataIsStored() {
        var generator = SplitMix64(state: 7)
        let input = Self.randomBytes(&generator, 200_000)
        let compressed = Deflate.raw(input)
        let blocks = input.count / Deflate.blockSymbols + 1
        #expect(compressed.count <= input.count + 5 * blocks + 5)
    }

    /// Repetitive data shrinks by orders of magnitude; the zlib header says the level (RFC 1950 §2.2).
    @Test func repetitiveDataShrinksAndHeadersAreValid() {
        let input = [UInt8](repeating: 0, count: 1 << 20)
        #expect(Deflate.zlib(input).count < 1200)
        for (level, flevel) in zip(Self.levels, [1, 2, 3]) {
            let header = Deflate.zlib([], level: level)
            let cmf = Int(header[0])
            let flg = Int(header[1])
            #expect(cmf == 0x78)
            #expect((cmf * 256 + flg) % 31 == 0)
            #expect(flg >> 6 == flevel)
        }
    }

    /// The corpora's JSON and property list files: Python reads them back, and on text (JSON, XML) the output is at
    /// most 10% larger than `zlib.compress(data, 6)`.
    @Test(
        .enabled(if: Corpora.isAvailable && Python.isAvailable, "needs ../shared/corpora and python3"),
        arguments: corpusPaths)
    func corpusFiles(_ path: String) throws {
        guard let url = Corpora.url(path) else { return }
        let input = try [UInt8](Data(contentsOf: url))
        let zlib = Deflate.zlib(input)
        let reference = try Self.pythonReadsBack(
            input, zlib: zlib, raw: Deflate.raw(input), gzip: Deflate.gzip(input))
        #expect(try Inflate.zlib(zlib) == input)
        let isText = input.first.map { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "[") || $0 == UInt8(ascii: "<") }
        if isText == true && input.count > 1000 {
            #expect(Double(zlib.count) <= Double(reference) * 1.10, "\(zlib.count) bytes; zlib level 6: \(reference)")
        }
    }

    static let corpusPaths: [String] = {
        let json = [
            "json/nativejson-benchmark/data/twitter.json", "json/nativejson-benchmark/data/citm_catalog.json",
            "json/nativejson-benchmark/data/canada.json", "json/simdjson-data/jsonexamples/mesh.pretty.json",
            "json/simdjson-data/jsonexamples/update-center.json",
        ]
        let plists = Corpora.files(under: "plist", extensions: ["plist", "bplist"]).map(Corpora.relativePath(of:))
        return (json + plists.sorted().prefix(40)).filter { Corpora.url($0) != nil }
    }()

    // MARK: - Codes

    /// Random frequency sets: every code is complete (Kraft sum exactly 1), within its limit, and, where an
    /// unlimited Huffman code fits the limit, exactly as short in total as Huffman's.
    @Test(arguments: 0..<40)
    func codesAreCompleteAndOptimal(_ seed: Int) {
        var generator = SplitMix64(state: UInt64(seed) + 1000)
        let count = [19, 30, 286][seed % 3]
        let limit = count == 19 ? 7 : 15
        var frequencies = [Int](repeating: 0, count: count)
        let used = Int.random(in: 0...count, using: &generator)
        for _ in 0..<used {
            // Skewed weights (up to 2^20) force limits to bind.
            let weight = 1 << Int.random(in: 0...20, using: &generator)
            frequencies[Int.random(in: 0..<count, using: &generator)] += weight
        }
        let lengths = Deflate.codeLengths(frequencies, limit: limit)
        let kraft = lengths.reduce(0) { $0 + ($1 == 0 ? 0 : 1 << (limit - Int($1))) }
        #expect(kraft == 1 << limit)
        #expect(lengths.allSatisfy { $0 <= limit })
        for (frequency, length) in zip(frequencies, lengths) where frequency > 0 { #expect(length > 0) }
        let huffman = Self.huffmanLengths(frequencies)
        if huffman.max() ?? 0 <= limit && frequencies.filter({ $0 > 0 }).count >= 2 {
            let cost = zip(frequencies, lengths).reduce(0) { $0 + $1.0 * Int($1.1) }
            let optimal = zip(frequencies, huffman).reduce(0) { $0 + $1.0 * $1.1 }
            #expect(cost == optimal)
        }
    }

    /// Huffman's construction (repeatedly join the two lightest trees), by a simple quadratic search.
    static func huffmanLengths(_ frequencies: [Int]) -> [Int] {
        var trees: [(weight: Int, symbols: [Int])] = frequencies.indices.filter { frequencies[$0] > 0 }.map {
            (frequencies[$0], [$0])
        }
        var lengths = [Int](repeating: 0, count: frequencies.count)
        while trees.count > 1 {
            trees.sort { $0.weight < $1.weight }
            let first = trees.removeFirst()
            let second = trees.removeFirst()
            for symbol in first.symbols + second.symbols { lengths[symbol] += 1 }
            trees.append((first.weight + second.weight, first.symbols + second.symbols))
        }
        return lengths
    }
}

extension Deflate.Level: CustomTestStringConvertible {
    package var testDescription: String {
        switch self {
        case .fast: "fast"
        case .best: "best"
        default: "default"
        }
    }
}
