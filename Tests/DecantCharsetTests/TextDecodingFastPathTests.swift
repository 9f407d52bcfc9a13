import DecantCore
import Foundation
import Testing

@testable import DecantCharset

/// The edges of the decoders' fast paths: ASCII runs that end exactly at the 8- and 16-byte blocks the UTF-8
/// validator and the single-byte decoder work in, invalid bytes right after such a run, sequences that straddle a
/// block or are cut off at the end, output that outgrows the multi-byte decoders' first buffer, in replacement and in
/// strict mode.
///
/// Inputs and expectations use a repetition shorthand: `41*16 80` is sixteen `41` bytes then `80`, and
/// `U+0041*16 U+FFFD` sixteen U+0041 then U+FFFD. Every expected text and strict offset was computed with Python's
/// codecs when the tests were written: `data.decode(codec, "replace")`, and `UnicodeDecodeError.start` of
/// `data.decode(codec)`, with the codecs `utf-8`, `cp1252`, `iso8859_8`, `cp1253`, `koi8_r`, `shift_jis` and
/// `euc_jp` (the same decodings as the WHATWG decoders on these inputs).
@Suite struct TextDecodingFastPathTests {
    /// The bytes of `notation` (`41*16 80`).
    static func bytes(_ notation: String) -> Data {
        var bytes: [UInt8] = []
        for token in notation.split(separator: " ") {
            let parts = token.split(separator: "*")
            let byte = UInt8(parts[0], radix: 16)!
            let repeats = parts.count > 1 ? Int(parts[1])! : 1
            bytes += [UInt8](repeating: byte, count: repeats)
        }
        return Data(bytes)
    }

    /// The text of `notation` (`U+0041*16 U+FFFD`).
    static func text(_ notation: String) -> String {
        var scalars = String.UnicodeScalarView()
        for token in notation.split(separator: " ") {
            let parts = token.split(separator: "*")
            let scalar = Unicode.Scalar(UInt32(parts[0].dropFirst(2), radix: 16)!)!
            let repeats = parts.count > 1 ? Int(parts[1])! : 1
            for _ in 0..<repeats { scalars.append(scalar) }
        }
        return String(scalars)
    }

    /// Decodes `input` in both modes and checks the text and the strict-mode offset.
    static func check(
        _ encoding: TextEncoding, _ input: String, _ expected: String, _ offset: Int?,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let data = bytes(input)
        let replaced = try encoding.decode(data)
        #expect(replaced == text(expected), "\(encoding) \(input)", sourceLocation: sourceLocation)
        #expect(
            Array(replaced.utf8) == Array(text(expected).utf8), "\(encoding) \(input)", sourceLocation: sourceLocation)
        do {
            let strict = try encoding.decode(data, mode: .strict)
            #expect(offset == nil, "\(encoding) \(input)", sourceLocation: sourceLocation)
            #expect(strict == text(expected), sourceLocation: sourceLocation)
        } catch {
            #expect(error.offset == offset, "\(encoding) \(input)", sourceLocation: sourceLocation)
        }
    }

    // MARK: - UTF-8

    @Test(
        arguments: [
            // An invalid byte right after an 8- or 16-byte ASCII run, or as the last byte of a block.
            ("41*16 80 42", "U+0041*16 U+FFFD U+0042", 16),
            ("41*8 80", "U+0041*8 U+FFFD", 8),
            ("41*15 80 41*16", "U+0041*15 U+FFFD U+0041*16", 15),
            // Truncated sequences at the end, after whole blocks or ending exactly at one.
            ("41*17 c3", "U+0041*17 U+FFFD", 17),
            ("41*16 e2 82", "U+0041*16 U+FFFD", 16),
            ("41*29 f0 9f 98", "U+0041*29 U+FFFD", 29),
            ("41*31 c3", "U+0041*31 U+FFFD", 31),
            // Valid sequences straddling the first block boundary, and one after two ASCII blocks.
            ("41*15 e2 82 ac 41*14", "U+0041*15 U+20AC U+0041*14", nil),
            ("41*14 f0 9f 98 80 41*14", "U+0041*14 U+1F600 U+0041*14", nil),
            ("41*32 e2 82 ac", "U+0041*32 U+20AC", nil),
            // A block that ends inside a sequence, then a block of ASCII.
            ("41*15 e2 41*16", "U+0041*15 U+FFFD U+0041*16", 15),
            ("41*14 f0 9f 41*16", "U+0041*14 U+FFFD U+0041*16", 14),
            // Surrogates, overlongs, values above U+10FFFF and bytes that never occur, right after a block.
            ("41*16 ed a0 80 41*16", "U+0041*16 U+FFFD*3 U+0041*16", 16),
            ("41*16 e0 80 80 41*13", "U+0041*16 U+FFFD*3 U+0041*13", 16),
            ("41*16 f4 90 80 80 41*12", "U+0041*16 U+FFFD*4 U+0041*12", 16),
            ("41*16 c0 af 41*14", "U+0041*16 U+FFFD*2 U+0041*14", 16),
            ("41*16 f5 80 41*14", "U+0041*16 U+FFFD*2 U+0041*14", 16),
            // Stray continuation bytes: at the end of the first block, after a CJK character, in a long run.
            ("c3 a9 41*13 80 80", "U+00E9 U+0041*13 U+FFFD*2", 15),
            ("e6 97 a5*6 41*14 80", "U+65E5 U+FFFD*5 U+0041*14 U+FFFD", 3),
            ("e6 97 a5*20", "U+65E5 U+FFFD*19", 3),
            // Invalid bytes in the first bytes (before the validator has three behind it), then valid text.
            ("41 42 43 ff fe 41*32 c3 a9", "U+0041 U+0042 U+0043 U+FFFD*2 U+0041*32 U+00E9", 3),
        ] as [(String, String, Int?)])
    func utf8BlockEdges(input: String, expected: String, offset: Int?) throws {
        try Self.check(.utf8, input, expected, offset)
    }

    /// Two-, three- and four-byte sequences at every alignment in a block, ending in a truncated sequence.
    @Test(arguments: 0...16)
    func utf8EveryAlignment(shift: Int) throws {
        let prefix = shift == 0 ? "" : "41*\(shift) "
        let expectedPrefix = shift == 0 ? "" : "U+0041*\(shift) "
        try Self.check(
            .utf8, prefix + "e6 97 a5 e6 9c ac e8 aa 9e 41*3 f0 9f 98 80 c3 a9 41*16 e6 97",
            expectedPrefix + "U+65E5 U+672C U+8A9E U+0041*3 U+1F600 U+00E9 U+0041*16 U+FFFD", 34 + shift)
    }

    /// The standard library's strings made from the validator's output carry the right ASCII flag.
    @Test func utf8ASCIIFlagMatchesTheContent() throws {
        guard #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) else { return }
        func isKnownASCII(_ text: String) -> Bool { text.utf8Span.isKnownASCII }
        #expect(isKnownASCII(try TextEncoding.utf8.decode(Self.bytes("41*40"), mode: .strict)))
        #expect(!isKnownASCII(try TextEncoding.utf8.decode(Self.bytes("41*40 c3 a9"), mode: .strict)))
        #expect(!isKnownASCII(try TextEncoding.utf8.decode(Self.bytes("41*40 80"))))
        #expect(!isKnownASCII(try TextEncoding.windows1252.decode(Self.bytes("41*40 e9"))))
        #expect(isKnownASCII(try TextEncoding.windows1252.decode(Self.bytes("41*40"))))
        #expect(isKnownASCII(try TextEncoding.shiftJIS.decode(Self.bytes("41*40"))))
        #expect(!isKnownASCII(try TextEncoding.shiftJIS.decode(Self.bytes("41*40 82 a0"))))
    }

    // MARK: - Single-byte encodings

    @Test(
        arguments: [
            // windows-1252: high bytes after 8- and 16-byte runs, at the end, and 40 three-byte characters in a
            // row (the output's worst case).
            (TextEncoding.windows1252, "41*16 80", "U+0041*16 U+20AC", nil),
            (.windows1252, "41*8 e9 41*7 e9", "U+0041*8 U+00E9 U+0041*7 U+00E9", nil),
            (.windows1252, "80*40", "U+20AC*40", nil),
            (.windows1252, "41*7 80 41*8 99 41*16 e9", "U+0041*7 U+20AC U+0041*8 U+2122 U+0041*16 U+00E9", nil),
            (.windows1252, "e9 41*31 9c", "U+00E9 U+0041*31 U+0153", nil),
            // Bytes the index leaves unmapped, right after a run and at the end.
            (.iso8859_8, "41*16 a1 42", "U+0041*16 U+FFFD U+0042", 16),
            (.iso8859_8, "41*8 ff", "U+0041*8 U+FFFD", 8),
            (.iso8859_8, "41*15 e0 e1 41*16 bf fd fe", "U+0041*15 U+05D0 U+05D1 U+0041*16 U+FFFD U+200E U+200F", 33),
            (.windows1253, "41*16 aa d2 ff 41*3 e1", "U+0041*16 U+FFFD*3 U+0041*3 U+03B1", 16),
            (.koi8R, "41*16 c1 c2 41*8 d7 41*7", "U+0041*16 U+0430 U+0431 U+0041*8 U+0432 U+0041*7", nil),
        ] as [(TextEncoding, String, String, Int?)])
    func singleByteRunEdges(encoding: TextEncoding, input: String, expected: String, offset: Int?) throws {
        try Self.check(encoding, input, expected, offset)
    }

    /// Every ASCII run length from 0 to 40 before and after a high byte, in every 8-byte position (byte 0x80 is
    /// U+20AC: `b"\x80".decode("cp1252")`).
    @Test func singleByteEveryRunLength() throws {
        for before in 0...40 {
            for after in [0, 1, 7, 8, 9, 15, 16, 17] {
                var bytes = [UInt8](repeating: 0x61, count: before)
                bytes.append(0x80)  // windows-1252: U+20AC, three UTF-8 bytes
                bytes += [UInt8](repeating: 0x62, count: after)
                let expected =
                    String(repeating: "a", count: before) + "\u{20AC}" + String(repeating: "b", count: after)
                #expect(try TextEncoding.windows1252.decode(Data(bytes), mode: .strict) == expected)
            }
        }
    }

    // MARK: - Multi-byte encodings: output beyond the first buffer

    @Test(
        arguments: [
            // One-byte halfwidth katakana become three UTF-8 bytes each: twice the first buffer's size.
            (TextEncoding.shiftJIS, "b1*100", "U+FF71*100", nil),
            (.shiftJIS, "41*16 82 a0 b1*40 82", "U+0041*16 U+3042 U+FF71*40 U+FFFD", 58),
            (.eucJP, "8e b1*60 41", "U+FF71 U+81FC*29 U+FFFD U+0041", 60),
        ] as [(TextEncoding, String, String, Int?)])
    func multiByteOutputGrows(encoding: TextEncoding, input: String, expected: String, offset: Int?) throws {
        try Self.check(encoding, input, expected, offset)
    }
}
