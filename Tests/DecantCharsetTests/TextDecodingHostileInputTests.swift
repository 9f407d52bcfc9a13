import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantCharset

/// Every decoder of the charset pipeline on a megabyte of invalid input: each must finish (in linear time: a
/// quadratic decoder takes minutes on a megabyte, which CI's guard around the test run turns into a failure that
/// names the unfinished test) with one output scalar per error or per character, never more scalars than bytes.
///
/// Regression: the UTF-8 validator did not stop in its error state, so replacement-mode decoding of 1 MB of `0xFF`
/// rescanned the rest of the input once per error and ran for minutes.
@Suite struct TextDecodingHostileInputTests {
    /// Megabyte-sized invalid UTF-8 and the number of scalars, all U+FFFD, that Python's
    /// `bytes.decode("utf-8", "replace")` gives for it (the same maximal-subpart rule as WHATWG §8.1.1).
    static let invalidUTF8: [(pattern: [UInt8], repeats: Int, replacements: Int)] = [
        ([0xFF], 1_048_576, 1_048_576),
        ([0x80], 1_048_576, 1_048_576),
        ([0xE0, 0x80], 524_288, 1_048_576),
        ([0xF0, 0x9F, 0x98], 349_525, 349_525),
        ([0xC2], 1_048_576, 1_048_576),
        ([0xED, 0xA0, 0x80], 349_525, 1_048_575),
        ([0xC0, 0xAF], 524_288, 1_048_576),
        ([0xF4, 0x90, 0x80, 0x80], 262_144, 1_048_576),
    ]

    @Test(arguments: invalidUTF8.indices)
    func utf8ReplacementOfAMegabyteOfErrors(_ index: Int) throws {
        let testCase = Self.invalidUTF8[index]
        let body = Data(Array(repeating: testCase.pattern, count: testCase.repeats).joined())
        let text = try TextEncoding.utf8.decode(body, mode: .replacement)
        #expect(text.unicodeScalars.count == testCase.replacements)
        #expect(text.unicodeScalars.allSatisfy { $0 == "\u{FFFD}" })
        #expect(throws: TextDecodingError.self) { try TextEncoding.utf8.decode(body, mode: .strict) }
    }

    /// Valid text with an error every few bytes: the errors are replaced and the text between them kept.
    @Test func utf8ReplacementWithSparseErrors() throws {
        let unit: [UInt8] = Array("héllo".utf8) + [0xFF]
        let body = Data(Array(repeating: unit, count: 1_048_576 / unit.count).joined())
        let text = try TextEncoding.utf8.decode(body, mode: .replacement)
        #expect(text == String(repeating: "héllo\u{FFFD}", count: 1_048_576 / unit.count))
    }

    /// Garbage that is invalid for most encodings: lead bytes without their trail bytes, bytes every table leaves
    /// unmapped, escape sequences without their designations, and seeded random bytes.
    static let garbage: [(name: String, bytes: Data)] = {
        var random = SplitMix64(state: 0xDEC4_4E7)
        let randomBytes = Data((0..<1_048_576).map { _ in UInt8(truncatingIfNeeded: random.next()) })
        func repeating(_ pattern: [UInt8]) -> Data {
            Data(Array(repeating: pattern, count: 1_048_576 / pattern.count).joined())
        }
        return [
            ("0xFF", repeating([0xFF])),
            ("0x80", repeating([0x80])),
            ("lead bytes", repeating([0x81, 0xFE])),
            ("lead and ASCII", repeating([0x81, 0x20])),
            ("ESC", repeating([0x1B])),
            ("ESC $", repeating([0x1B, 0x24])),
            ("unpaired surrogates", repeating([0x00, 0xD8])),
            ("random", randomBytes),
        ]
    }()

    static let encodings = TextEncoding.allWHATWG + [.isoLatin1]

    @Test(arguments: encodings)
    func everyDecoderOnAMegabyteOfGarbage(_ encoding: TextEncoding) throws {
        for (name, bytes) in Self.garbage {
            let text = try encoding.decode(bytes, mode: .replacement)
            // `replacement` decodes any input to one U+FFFD; every other decoder emits at most one scalar per byte
            // (ISO-2022-JP's escape errors are one U+FFFD for the escape byte).
            #expect(text.unicodeScalars.count <= bytes.count, "\(encoding.name), \(name)")
            #expect(!text.isEmpty, "\(encoding.name), \(name)")
            do {
                let strict = try encoding.decode(bytes, mode: .strict)
                #expect(strict == text, "\(encoding.name), \(name): strict and replacement disagree on valid input")
            } catch {
                #expect(error.offset >= 0 && error.offset < bytes.count, "\(encoding.name), \(name)")
            }
        }
    }
}
