import DecantCore
import Foundation
import Testing

/// `ByteRun` against byte-by-byte references, on runs of every length up to 40 at every offset of a buffer (so that
/// word loads near both ends are exercised), with ASCII and non-ASCII bytes.
@Suite struct ByteRunTests {
    /// Seeded bytes, mostly ASCII, some with the high bit.
    static let buffer: [UInt8] = {
        var state: UInt64 = 0x1234_5678
        return (0..<96).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let byte = UInt8(truncatingIfNeeded: state >> 33)
            return byte % 7 == 0 ? byte | 0x80 : byte & 0x7F
        }
    }()

    @Test(arguments: 0...40)
    func agreesWithByteByByteReferences(count: Int) {
        Self.buffer.withUnsafeBytes { raw in
            for offset in 0...(raw.count - count) {
                let start = raw.baseAddress! + offset
                let run = Array(raw[offset..<(offset + count)])
                #expect(ByteRun.isASCII(start, count: count) == run.allSatisfy { $0 < 0x80 })
                // Every other run of the same length: equal exactly when the bytes are.
                for other in stride(from: 0, through: raw.count - count, by: 7) {
                    let otherRun = Array(raw[other..<(other + count)])
                    #expect(ByteRun.equal(start, raw.baseAddress! + other, count: count) == (run == otherRun))
                }
                if count <= 16 {
                    var expected: (UInt64, UInt64) = (0, 0)
                    for (index, byte) in run.enumerated() {
                        if index < 8 {
                            expected.0 |= UInt64(byte) << (8 * UInt64(index))
                        } else {
                            expected.1 |= UInt64(byte) << (8 * UInt64(index - 8))
                        }
                    }
                    #expect(ByteRun.shortWords(start, count: count) == expected)
                }
                // Equal runs hash equally wherever they lie.
                let copy = run
                copy.withUnsafeBytes { copied in
                    let copiedStart = copied.baseAddress ?? start
                    #expect(ByteRun.hash(start, count: count) == ByteRun.hash(copiedStart, count: count))
                }
            }
        }
    }

    /// Runs that differ in one byte, or only in length, hash differently (for these inputs).
    /// `bytes(_:equalTo:)` (and so `zeroBytes`) flags exactly the bytes equal to the one asked for: every value at
    /// every position, beside neighbours that would make a borrowing formula flag them too (0x00, 0x01, 0xFF).
    @Test(arguments: [UInt8(0x00), 0x01, 0x0A, 0x80, 0xFF])
    func equalBytesAreFlaggedExactly(target: UInt8) {
        var wrong = 0
        for filler in [UInt8(0x00), 0x01, 0x7F, 0xFE, 0xFF] {
            for value in 0...255 {
                for position in 0..<8 {
                    var bytes = [UInt8](repeating: filler, count: 8)
                    bytes[position] = UInt8(value)
                    let word = bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(as: UInt64.self)) }
                    var expected: UInt64 = 0
                    for (index, byte) in bytes.enumerated() where byte == target { expected |= 0x80 << (8 * index) }
                    if ByteRun.bytes(word, equalTo: target) != expected { wrong += 1 }
                }
            }
        }
        #expect(wrong == 0)
    }

    @Test func differentRunsHashDifferently() {
        let base = Array("application/json; charset=utf-8".utf8)
        base.withUnsafeBytes { raw in
            let start = raw.baseAddress!
            var hashes = Set<UInt64>()
            for count in 1...raw.count { hashes.insert(ByteRun.hash(start, count: count)) }
            #expect(hashes.count == raw.count)
        }
        var changed = base
        changed[20] ^= 1
        let first = base.withUnsafeBytes { ByteRun.hash($0.baseAddress!, count: $0.count) }
        let second = changed.withUnsafeBytes { ByteRun.hash($0.baseAddress!, count: $0.count) }
        #expect(first != second)
    }
}
