import DecantBytes
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

    /// Bytes that decide UTF-8 validity at a sequence's second to fourth position: the edges of every lead's range.
    static let edgeBytes: [UInt8] = [
        0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xED,
        0xEF, 0xF0, 0xF4, 0xF5, 0xFF,
    ]

    /// Whether the standard library accepts `bytes` as UTF-8: the independent reference. Its decoder gives valid
    /// UTF-8 back byte for byte and replaces anything invalid with U+FFFD (`String(validating:as:)` would say the
    /// same, but needs macOS 15 / iOS 18, above the package's minimums).
    static func standardLibraryAccepts(_ bytes: [UInt8]) -> Bool {
        String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes)
    }

    static func decantAccepts(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in
            ByteRun.isValidUTF8(raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1)!, count: raw.count)
        }
    }

    /// Every one- and two-byte sequence, and every multi-byte lead followed by edge bytes in up to three positions, agree with
    /// the standard library, alone, after an ASCII run of each length to 9 (so that the word-at-a-time path hands
    /// over at every offset) and cut short at every length.
    @Test(arguments: [0, 1, 7, 8, 9])
    func utf8ValidityAgreesWithTheStandardLibrary(asciiPrefix: Int) {
        let prefix = [UInt8](repeating: 0x61, count: asciiPrefix)
        var disagreements: [[UInt8]] = []
        func check(_ sequence: [UInt8]) {
            let bytes = prefix + sequence
            if Self.decantAccepts(bytes) != Self.standardLibraryAccepts(bytes) { disagreements.append(sequence) }
        }
        for first in 0...255 {
            check([UInt8(first)])
            for second in 0...255 { check([UInt8(first), UInt8(second)]) }
            // Below C0 the first byte decides alone; three- and four-byte leads start at E0 and F0.
            guard first >= 0xC0 else { continue }
            for second in Self.edgeBytes {
                for third in Self.edgeBytes {
                    check([UInt8(first), second, third])
                    guard first >= 0xF0 else { continue }
                    for fourth in Self.edgeBytes { check([UInt8(first), second, third, fourth, 0x62]) }
                }
            }
        }
        #expect(disagreements.isEmpty, "first disagreements: \(disagreements.prefix(5))")
    }

    /// Long mixed texts: valid ones are accepted, and each one with any single byte replaced by a stray continuation
    /// byte or a lone lead is judged as the standard library judges it.
    @Test func utf8ValidityOfLongTexts() {
        let text = Array("Grüße, 東京 — 🎉 naïve café, ascii ascii ascii ascii \u{10FFFF}\u{7FF}\u{800}".utf8)
        #expect(Self.decantAccepts(text))
        for position in text.indices {
            for replacement: UInt8 in [0x80, 0xC3, 0xF0, 0xFF] {
                var changed = text
                changed[position] = replacement
                #expect(Self.decantAccepts(changed) == Self.standardLibraryAccepts(changed))
            }
        }
    }
}
