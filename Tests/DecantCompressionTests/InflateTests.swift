import DecantCompression
import DecantTestSupport
import Foundation
import Testing

/// Inflate (RFC 1950/1951/1952) against data compressed by Python's `zlib`.
///
/// The fixtures in `Support/InflateFixtures.swift` were generated with:
/// `zlib.compress(data, level)` for levels 0-9, `compressobj(6, DEFLATED, -15)` (raw),
/// `compressobj(9, DEFLATED, 15, 9, Z_FIXED)` (fixed Huffman blocks) and `compressobj(9, DEFLATED, 31)` (gzip), where
/// `data` is 2,798 bytes of seeded words and random bytes.
@Suite struct InflateTests {
    static func bytes(_ base64: String) -> [UInt8] { [UInt8](Data(base64Encoded: base64)!) }
    static let original = bytes(InflateFixtures.original)
    static let zlibLevels: [(Int, String)] = [
        (0, InflateFixtures.zlib0), (1, InflateFixtures.zlib1), (2, InflateFixtures.zlib2),
        (3, InflateFixtures.zlib3), (4, InflateFixtures.zlib4), (5, InflateFixtures.zlib5),
        (6, InflateFixtures.zlib6), (7, InflateFixtures.zlib7), (8, InflateFixtures.zlib8),
        (9, InflateFixtures.zlib9),
    ]

    @Test(arguments: 0...9) func zlibRoundTripAtEveryLevel(level: Int) throws {
        let compressed = Self.bytes(Self.zlibLevels[level].1)
        #expect(try Inflate.zlib(compressed) == Self.original)
        #expect(try Inflate.zlib(Data(compressed)) == Self.original)
    }

    @Test func storedFixedAndDynamicBlocks() throws {
        // Level 0 is stored blocks, Z_FIXED forces fixed Huffman blocks, level 9 uses dynamic ones.
        #expect(try Inflate.zlib(Self.bytes(InflateFixtures.zlib0)) == Self.original)
        #expect(try Inflate.zlib(Self.bytes(InflateFixtures.fixed)) == Self.original)
        #expect(try Inflate.zlib(Self.bytes(InflateFixtures.zlib9)) == Self.original)
        #expect(try Inflate.raw(Self.bytes(InflateFixtures.raw6)) == Self.original)
        #expect(try Inflate.gzip(Self.bytes(InflateFixtures.gzip)) == Self.original)
        // The types of the first blocks, from their header bits.
        #expect(Self.bytes(InflateFixtures.zlib0)[2] & 0b110 == 0)
        #expect(Self.bytes(InflateFixtures.fixed)[2] & 0b110 == 0b010)
        #expect(Self.bytes(InflateFixtures.zlib9)[2] & 0b110 == 0b100)
    }

    @Test func checksums() {
        // Python: zlib.adler32(b"Wikipedia") == 0x11E60398, zlib.crc32(b"123456789") == 0xCBF43926
        #expect(Array("Wikipedia".utf8).withUnsafeBytes { Checksum.adler32($0) } == 0x11E6_0398)
        #expect(Checksum.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        // Python: zlib.crc32(data) == 1722779928, zlib.adler32(data) == 3755675700 for the fixture data.
        #expect(Checksum.crc32(Self.original) == 1_722_779_928)
        #expect(Self.original.withUnsafeBytes { Checksum.adler32($0) } == 3_755_675_700)
    }

    @Test func badChecksumsAreRejected() {
        var zlib = Self.bytes(InflateFixtures.zlib6)
        zlib[zlib.count - 1] ^= 1
        let error = #expect(throws: InflateError.self) { try Inflate.zlib(zlib) }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains("Adler-32") == true)
        var gzip = Self.bytes(InflateFixtures.gzip)
        gzip[gzip.count - 6] ^= 1
        let gzipError = #expect(throws: InflateError.self) { try Inflate.gzip(gzip) }
        #expect(gzipError?.message.contains("CRC-32") == true)
        var header = Self.bytes(InflateFixtures.zlib6)
        header[1] ^= 1
        let headerError = #expect(throws: InflateError.self) { try Inflate.zlib(header) }
        #expect(headerError?.code == .invalidBody)
    }

    @Test func everyTruncatedPrefixFailsWithoutCrashing() {
        for fixture in [InflateFixtures.zlib0, InflateFixtures.zlib6, InflateFixtures.fixed, InflateFixtures.gzip] {
            let compressed = Self.bytes(fixture)
            let isGzip = compressed[0] == 0x1F
            for length in 0..<compressed.count {
                let prefix = Array(compressed[..<length])
                do {
                    _ = isGzip ? try Inflate.gzip(prefix) : try Inflate.zlib(prefix)
                    Issue.record("a \(length)-byte prefix of \(compressed.count) bytes decoded")
                } catch {
                    #expect(error.code == .truncatedBody || error.code == .invalidBody)
                }
            }
        }
    }

    @Test func zipBombIsStoppedByTheOutputLimit() throws {
        // A fixed-Huffman block: one literal 0, then 200,000 matches of length 258 at distance 1 (51.6 MB of zeros
        // from about 325 KB), then end of block.
        var writer = BitWriter()
        writer.write(1, bits: 1)  // final
        writer.write(1, bits: 2)  // fixed Huffman
        writer.writeCode(0b0011_0000, length: 8)  // literal 0
        for _ in 0..<200_000 {
            writer.writeCode(0b1100_0101, length: 8)  // symbol 285: length 258
            writer.writeCode(0, length: 5)  // distance code 0: distance 1
        }
        writer.writeCode(0, length: 7)  // end of block
        let error = #expect(throws: InflateError.self) { try Inflate.raw(writer.bytes, maxOutput: 1 << 20) }
        #expect(error?.code == .limitExceeded)
        let all = try Inflate.raw(writer.bytes, maxOutput: 64 << 20)
        #expect(all.count == 1 + 200_000 * 258)
        #expect(all.allSatisfy { $0 == 0 })
    }

    @Test func malformedStreams() {
        // Block type 3 is reserved.
        let reserved = #expect(throws: InflateError.self) { try Inflate.raw([0b111]) }
        #expect(reserved?.code == .invalidBody)
        // A stored block whose LEN and NLEN disagree.
        let mismatch = #expect(throws: InflateError.self) { try Inflate.raw([1, 5, 0, 0, 0]) }
        #expect(mismatch?.code == .invalidBody)
        // A distance before the start of the output: fixed block, length 3 (symbol 257), distance 1, no literal.
        var writer = BitWriter()
        writer.write(1, bits: 1)
        writer.write(1, bits: 2)
        writer.writeCode(0b000_0001, length: 7)
        writer.writeCode(0, length: 5)
        writer.writeCode(0, length: 7)
        let error = #expect(throws: InflateError.self) { try Inflate.raw(writer.bytes) }
        #expect(error?.message.contains("before the start") == true)
        // A preset dictionary is not supported.
        let dictionary = #expect(throws: InflateError.self) { try Inflate.zlib([0x78, 0xBB, 0, 0, 0, 0]) }
        #expect(dictionary?.code == .unsupportedFeature)
    }

    @Test func seededMutationsNeverCrash() {
        var generator = SplitMix64(state: 0xDEC4_17)
        let sources = [InflateFixtures.zlib1, InflateFixtures.zlib9, InflateFixtures.fixed].map(Self.bytes)
        for round in 0..<3000 {
            var bytes = sources[round % sources.count]
            for _ in 0..<Int.random(in: 1...6, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[index] = UInt8.random(in: 0...255, using: &generator)
            }
            if let output = try? Inflate.zlib(bytes, maxOutput: 1 << 20) {
                #expect(output.count <= 1 << 20, "round \(round): \(output.count) bytes past maxOutput")
            }
        }
    }

    /// Inflates the zlib stream `compressed` into `output`; returns the offset after its checksum.
    static func inflate(_ compressed: [UInt8], into output: inout OutputBuffer) throws -> Int {
        try compressed.withUnsafeBytes { bytes in try Inflate.zlib(bytes, into: &output) }
    }

    /// The streams of ``largeStreamsFromPythonZlib(_:)``: zlib levels, its strategies, and flushes between chunks.
    static let pythonStreams = ["level1", "level6", "level9", "fixed", "huffman", "rle", "flushes"]

    /// Writes `original` (about 640 KB of words, random bytes, runs, DNA-like text and repeats from up to 32 KiB
    /// back, seeded) and `compressed` (zlib, made the way `argv[2]` names) to the folder `argv[1]`.
    static let pythonStreamScript = """
        import os, random, sys, zlib
        folder, kind = sys.argv[1], sys.argv[2]
        r = random.Random(1951)
        words = [b"decant", b"inflate", b"huffman", b"window", b"literal", b"match", b"\\n", b" ", b'{"a": 1}']
        parts, tail = [], b""
        for i in range(60):
            k = i % 5
            if k == 0: part = b"".join(r.choice(words) for _ in range(3000))
            elif k == 1: part = r.randbytes(8000)
            elif k == 2: part = r.randbytes(1) * r.randint(1, 40000)
            elif k == 3:
                start = r.randint(0, max(0, len(tail) - 300))
                part = tail[start:start + r.randint(3, 300)] * 3
            else: part = bytes(r.choice(b"ACGT") for _ in range(6000))
            parts.append(part)
            tail = (tail + part)[-32768:]
        data = b"".join(parts)
        if kind.startswith("level"): out = zlib.compress(data, int(kind[5:]))
        elif kind == "flushes":
            c, out, at, n = zlib.compressobj(6), b"", 0, 0
            while at < len(data):
                size = r.randint(1, 70000)
                out += c.compress(data[at:at + size]) + c.flush(zlib.Z_SYNC_FLUSH if n % 2 else zlib.Z_FULL_FLUSH)
                at, n = at + size, n + 1
            out += c.flush()
        else:
            strategy = {"fixed": zlib.Z_FIXED, "huffman": zlib.Z_HUFFMAN_ONLY, "rle": zlib.Z_RLE}[kind]
            c = zlib.compressobj(9, zlib.DEFLATED, 15, 9, strategy)
            out = c.compress(data) + c.flush()
        open(os.path.join(folder, "original"), "wb").write(data)
        open(os.path.join(folder, "compressed"), "wb").write(out)
        """

    /// Streams long enough for the decoder's fast loop to run, stop near the end of its input and of its output
    /// buffer, and resume after the buffer grew; each must inflate to the bytes Python compressed, into a growing
    /// buffer and into one of the exact size (as PNG decodes).
    @Test(.enabled(if: Python.isAvailable, "needs python3"), arguments: pythonStreams)
    func largeStreamsFromPythonZlib(_ kind: String) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("decant-inflate-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Python.run(Self.pythonStreamScript, [folder.path, kind])
        let original = [UInt8](try Data(contentsOf: folder.appendingPathComponent("original")))
        let compressed = [UInt8](try Data(contentsOf: folder.appendingPathComponent("compressed")))
        #expect(original.count > 600_000)
        #expect(try Inflate.zlib(compressed) == original)
        var output = OutputBuffer(exactly: original.count)
        defer { output.deallocate() }
        #expect(try Self.inflate(compressed, into: &output) == compressed.count)
        #expect(UnsafeBufferPointer(start: output.base, count: output.count).elementsEqual(original))
        // One byte short of room: the exact buffer refuses instead of writing past its end.
        var short = OutputBuffer(exactly: original.count - 1)
        defer { short.deallocate() }
        #expect(throws: InflateError.self) { try Self.inflate(compressed, into: &short) }
    }

    /// A gzip member cut anywhere is `truncatedBody`, never `invalidBody`: its DEFLATE data is followed by eight
    /// trailer bytes, so zero bits read in place of missing input cannot pass for a malformed stream. The members are
    /// Python's (`gzip.compress` at levels 1, 6 and 9, and the fixed-Huffman fixture), and every prefix is tried.
    @Test func everyPrefixOfAGzipMemberIsTruncated() throws {
        var members = [Self.bytes(InflateFixtures.gzip)]
        if Python.isAvailable {
            let script = """
                import base64, gzip, sys
                data = bytes(sys.argv[1], 'ascii') * 3 + bytes(range(256)) * 4
                for level in (1, 6, 9):
                    print(base64.b64encode(gzip.compress(data, level, mtime=0)).decode())
                """
            let output = try Python.run(script, [String(decoding: Self.original.prefix(600), as: UTF8.self)])
            members += String(decoding: output, as: UTF8.self).split(separator: "\n").map { Self.bytes(String($0)) }
        }
        for member in members {
            #expect(try Inflate.gzip(member).count > 0)
            for length in 0..<member.count {
                let result = member.withUnsafeBytes { buffer in
                    Result { () throws(InflateError) in
                        try Inflate.gzipMember(UnsafeRawBufferPointer(rebasing: buffer[0..<length]), maxOutput: 1 << 20)
                    }
                }
                switch result {
                case .success(let decoded): #expect(decoded == nil, "a prefix of \(length) bytes decoded")
                case .failure(let error): Issue.record("a prefix of \(length) bytes: \(error.code) \(error.message)")
                }
                do {
                    _ = try Inflate.gzip(Array(member[0..<length]))
                    Issue.record("a prefix of \(length) bytes decoded")
                } catch {
                    #expect(error.code == .truncatedBody, "a prefix of \(length) bytes: \(error.message)")
                }
            }
        }
    }
}
