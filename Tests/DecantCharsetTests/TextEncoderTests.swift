import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantCharset

/// The WHATWG Encoding encoders, checked against encoding_rs's encode pairs (`../shared/corpora/encoding`), Python's
/// `codecs`, the Web Platform Tests' encoder cases, and the decoders (round trips).
@Suite struct TextEncoderTests {
    // MARK: - Helpers

    static func bytes(_ hex: String) -> Data {
        Data(hex.split(separator: " ").map { UInt8($0, radix: 16)! })
    }

    static func hex(_ data: Data) -> String {
        data.map { String(format: "%02X", $0) }.joined(separator: " ")
    }

    /// The encoding's single-byte table through its decoder: byte 0x80 + i to the scalar it decodes to, for the bytes
    /// it maps.
    static func singleByteTable(_ encoding: TextEncoding) throws -> [(byte: UInt8, scalar: Unicode.Scalar)] {
        var table: [(byte: UInt8, scalar: Unicode.Scalar)] = []
        for byte in UInt8(0x80)...0xFF {
            guard let decoded = try? encoding.decode(Data([byte]), mode: .strict) else { continue }
            let scalars = Array(decoded.unicodeScalars)
            try #require(scalars.count == 1)
            table.append((byte, scalars[0]))
        }
        return table
    }

    static let singleByteEncodings = TextEncoding.allWHATWG.filter {
        if case .singleByte = $0.kind { return true }
        return false
    }

    static let writableEncodings = TextEncoding.allWHATWG.filter(\.hasEncoder) + [.isoLatin1]

    /// The error a strict encode throws, or `nil`.
    static func encodeError(_ text: String, _ encoding: TextEncoding) -> SerializationError? {
        do {
            _ = try encoding.encode(text)
            return nil
        } catch {
            return error
        }
    }

    // MARK: - encoding_rs encode pairs

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func encodingRsEncodePairs() throws {
        let indexURL = try #require(Corpora.url("encoding/encoding_rs/index.json"))
        let index = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: indexURL)) as? [String: Any])
        let cases = try #require(index["cases"] as? [[String: Any]]).filter { $0["direction"] as? String == "encode" }
        #expect(cases.count == 6)
        var passed = 0
        for testCase in cases {
            let name = try #require(testCase["encoding"] as? String)
            let encoding = try #require(TextEncoding(label: name))
            let input = try #require(Corpora.url("encoding/encoding_rs/" + (testCase["input"] as? String ?? "")))
            let expectedURL = try #require(
                Corpora.url("encoding/encoding_rs/" + (testCase["expected"] as? String ?? "")))
            let text = try #require(String(data: Data(contentsOf: input), encoding: .utf8))
            let expected = try Data(contentsOf: expectedURL)
            let encoded = try encoding.encode(text)
            if encoded == expected {
                passed += 1
            } else {
                let first = zip(encoded, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                let test = testCase["test"] as? String ?? name
                let at = first ?? min(encoded.count, expected.count)
                Issue.record("\(test): \(encoded.count) bytes, expected \(expected.count); first difference at \(at)")
            }
        }
        print("encoding_rs encode pairs: \(passed) of \(cases.count) passed")
        #expect(passed == cases.count)
    }

    // MARK: - Single-byte encoders

    /// For every byte the decoder maps, encoding the scalar it decodes to gives that byte back, one at a time and all
    /// together.
    @Test(arguments: singleByteEncodings + [.xUserDefined, .isoLatin1])
    func everyMappedScalarEncodesToItsByte(encoding: TextEncoding) throws {
        let table = try Self.singleByteTable(encoding)
        #expect(table.count >= 80, "\(encoding)")
        for (byte, scalar) in table {
            #expect(try encoding.encode(String(Character(scalar))) == Data([byte]), "\(encoding) \(scalar)")
        }
        let ascii = String(String.UnicodeScalarView((0..<128).map { Unicode.Scalar(UInt8($0)) }))
        let text = ascii + String(String.UnicodeScalarView(table.map(\.scalar)))
        #expect(try encoding.encode(text) == Data(0..<128) + Data(table.map(\.byte)))
    }

    /// Python's codecs agree wherever they encode the scalar (they leave some C1 controls unmapped where WHATWG maps
    /// them, and Python's koi8_u is not WHATWG's KOI8-U for U+045E and U+040E).
    @Test(.enabled(if: Python.isAvailable, "needs python3"))
    func singleByteEncodersMatchPythonCodecs() throws {
        let codecs: [String: String] = [
            "IBM866": "cp866", "ISO-8859-2": "iso8859_2", "ISO-8859-3": "iso8859_3", "ISO-8859-4": "iso8859_4",
            "ISO-8859-5": "iso8859_5", "ISO-8859-6": "iso8859_6", "ISO-8859-7": "iso8859_7", "ISO-8859-8": "iso8859_8",
            "ISO-8859-8-I": "iso8859_8", "ISO-8859-10": "iso8859_10", "ISO-8859-13": "iso8859_13",
            "ISO-8859-14": "iso8859_14", "ISO-8859-15": "iso8859_15", "ISO-8859-16": "iso8859_16",
            "KOI8-R": "koi8_r", "KOI8-U": "koi8_u", "macintosh": "mac_roman", "windows-874": "cp874",
            "windows-1250": "cp1250", "windows-1251": "cp1251", "windows-1252": "cp1252", "windows-1253": "cp1253",
            "windows-1254": "cp1254", "windows-1255": "cp1255", "windows-1256": "cp1256", "windows-1257": "cp1257",
            "windows-1258": "cp1258", "x-mac-cyrillic": "mac_cyrillic", "ISO-8859-1": "latin_1",
        ]
        let encodings = Self.singleByteEncodings + [.isoLatin1]
        #expect(Set(encodings.map(\.name)) == Set(codecs.keys))
        var cases: [[Any]] = []
        var tables: [[(byte: UInt8, scalar: Unicode.Scalar)]] = []
        for encoding in encodings {
            let table = try Self.singleByteTable(encoding)
            tables.append(table)
            cases.append([codecs[encoding.name] ?? "", table.map { Int($0.scalar.value) }])
        }
        let script = """
            import json, sys
            out = []
            for codec, code_points in json.loads(sys.argv[1]):
                row = []
                for cp in code_points:
                    try:
                        row.append(chr(cp).encode(codec).hex())
                    except UnicodeEncodeError:
                        row.append(None)
                out.append(row)
            print(json.dumps(out))
            """
        let argument = String(decoding: try JSONSerialization.data(withJSONObject: cases), as: UTF8.self)
        let output = try JSONSerialization.jsonObject(with: Python.run(script, [argument])) as? [[Any]]
        let rows = try #require(output)
        try #require(rows.count == encodings.count)
        var compared = 0
        for (position, encoding) in encodings.enumerated() {
            for (entry, expected) in zip(tables[position], rows[position]) {
                guard let expected = expected as? String else { continue }
                let encoded = try encoding.encode(String(Character(entry.scalar)))
                #expect(Self.hex(encoded) == expected.uppercased(), "\(encoding) U+\(entry.scalar.value)")
                compared += 1
            }
        }
        print("single-byte encoders vs Python codecs: \(compared) scalars compared")
        #expect(compared > 3000)
    }

    // MARK: - Round trips

    /// Scalars the encoding writes and its decoder reads back as themselves, per the standard's encoders.
    static func repertoire(_ encoding: TextEncoding) throws -> [Unicode.Scalar] {
        let ascii = (0..<0x80).compactMap(Unicode.Scalar.init)
        func scalars(_ values: some Sequence<UInt32>) -> [Unicode.Scalar] {
            values.compactMap { $0 == 0 ? nil : Unicode.Scalar($0) }
        }
        switch encoding.kind {
        case .singleByte, .isoLatin1:
            return ascii + (try singleByteTable(encoding).map(\.scalar))
        case .xUserDefined:
            return ascii + scalars(0xF780...0xF7FF)
        case .gb18030:
            let twoByte = scalars(EncodingTables.gb18030.map(UInt32.init))
            return ascii + twoByte + (encoding == .gbk ? scalars([0x20AC]) : [])
        case .big5:
            return ascii + scalars(EncodingTables.big5[((0xA1 - 0x81) * 157)...])
        case .eucJP:
            return ascii + scalars(EncodingTables.jis0208[..<(94 * 94)].map(UInt32.init)) + scalars(0xFF61...0xFF9F)
        case .iso2022JP:
            let controls: Set<UInt32> = [0x0E, 0x0F, 0x1B]
            return ascii.filter { !controls.contains($0.value) } + scalars([0xA5, 0x203E])
                + scalars(EncodingTables.jis0208[..<(94 * 94)].map(UInt32.init))
        case .shiftJIS:
            return ascii + scalars([0x80]) + scalars(0xFF61...0xFF9F)
                + scalars(
                    EncodingTables.jis0208.enumerated().filter { !(8272...8835).contains($0.offset) }
                        .map { UInt32($0.element) })
        case .eucKR:
            return ascii + scalars(EncodingTables.eucKR.map(UInt32.init))
        case .utf8, .utf16LE, .utf16BE, .replacement:
            return ascii
        }
    }

    /// A scalar anywhere in Unicode but the surrogates.
    static func anyScalar(_ generator: inout SplitMix64) -> Unicode.Scalar {
        while true {
            let plane = UInt32.random(in: 0..<4, using: &generator)
            let value =
                plane == 0
                ? UInt32.random(in: 0x80...0xFFFF, using: &generator)
                : plane == 1
                    ? UInt32.random(in: 0x10000...0x10FFFF, using: &generator)
                    : UInt32.random(in: 0x80...0x7FF, using: &generator)
            if let scalar = Unicode.Scalar(value) { return scalar }
        }
    }

    @Test(arguments: writableEncodings)
    func seededRandomTextRoundTrips(encoding: TextEncoding) throws {
        var generator = SplitMix64(state: 0xDEC0_DE00 ^ UInt64(encoding.name.utf8.count))
        let repertoire = try Self.repertoire(encoding)
        // UTF-8, UTF-16 and gb18030 write every scalar (gb18030 all but U+E5E5).
        let writesAll = [.utf8, .utf16LE, .utf16BE, .gb18030].contains(encoding)
        var failures = 0
        for _ in 0..<60 {
            var scalars = String.UnicodeScalarView()
            for _ in 0..<Int.random(in: 0...120, using: &generator) {
                if writesAll && Bool.random(using: &generator) {
                    var scalar = Self.anyScalar(&generator)
                    if scalar.value == 0xE5E5 { scalar = "x" }
                    scalars.append(scalar)
                } else {
                    scalars.append(repertoire.randomElement(using: &generator) ?? "a")
                }
            }
            let text = String(scalars)
            let encoded = try encoding.encode(text)
            let decoded = try encoding.decode(encoded, mode: .strict)
            if decoded.unicodeScalars.elementsEqual(text.unicodeScalars) == false {
                failures += 1
                if failures <= 3 { Issue.record("\(encoding): \(text.debugDescription) came back as \(decoded)") }
            }
        }
        #expect(failures == 0, "\(encoding)")
    }

    /// Every scalar of each multi-byte repertoire, one string per encoding: the whole table round trips.
    @Test(arguments: [TextEncoding.gbk, .gb18030, .big5, .eucJP, .iso2022JP, .shiftJIS, .eucKR])
    func wholeRepertoireRoundTrips(encoding: TextEncoding) throws {
        let text = String(String.UnicodeScalarView(try Self.repertoire(encoding)))
        let decoded = try encoding.decode(try encoding.encode(text), mode: .strict)
        #expect(decoded.unicodeScalars.elementsEqual(text.unicodeScalars), "\(encoding)")
    }

    // MARK: - Cases worked out from the standard, Python and WPT

    /// WPT `encoding/legacy-mb-schinese/gb18030/gb18030-encoder.html` and `gbk-encoder.html` (expected percent-encoded
    /// bytes written as hex).
    @Test(arguments: [
        ("\u{20AC}", "A2 E3"), ("\u{4E02}", "81 40"), ("\u{E4C6}", "A1 40"), ("\u{E4C5}", "FE FE"),
        ("\u{1F4A9}", "94 39 DA 33"), ("\u{E7C7}", "81 35 F4 37"), ("\u{E7C8}", "83 36 C8 30"), ("\u{2026}", "A1 AD"),
        ("\u{FF5E}", "A1 AB"), ("\u{FE10}", "A6 D9"), ("\u{FE12}", "A6 DA"), ("\u{FE11}", "A6 DB"),
        ("\u{FE13}", "A6 DC"), ("\u{FE14}", "A6 DD"), ("\u{FE15}", "A6 DE"), ("\u{FE16}", "A6 DF"),
    ])
    func gb18030EncoderCases(text: String, hex: String) throws {
        #expect(Self.hex(try TextEncoding.gb18030.encode(text)) == hex)
    }

    @Test func gbkWritesTheEuroAsOneByteAndNothingOutsideItsTable() throws {
        #expect(try TextEncoding.gbk.encode("\u{20AC}") == Data([0x80]))
        #expect(try TextEncoding.gbk.encode("\u{4E02}") == Self.bytes("81 40"))
        #expect(Self.encodeError("\u{1F4A9}", .gbk)?.code == .encodingFailed)
        #expect(try TextEncoding.gbk.encode("a\u{1F4A9}", mode: .html) == Data("a&#128169;".utf8))
        #expect(Self.encodeError("\u{E5E5}", .gb18030)?.code == .encodingFailed)
        #expect(try TextEncoding.gb18030.encode("\u{E5E5}", mode: .html) == Data("&#58853;".utf8))
    }

    /// Python: "\u2550\u255e\u2561\u256a\u5341\u5345".encode("big5hkscs") (the last pointer wins for these six);
    /// U+00CA has only a Hong Kong pointer, which the encoder never writes.
    @Test func big5UsesTheLastPointerForSixScalarsAndSkipsTheHongKongExtensions() throws {
        let encoded = try TextEncoding.big5.encode("\u{2550}\u{255E}\u{2561}\u{256A}\u{5341}\u{5345}")
        #expect(Self.hex(encoded) == "F9 F9 F9 E9 F9 EB F9 EA A4 51 A4 CA")
        #expect(Self.encodeError("\u{00CA}", .big5)?.code == .encodingFailed)
    }

    /// Python: "日本語".encode("shift_jis"), "日本語".encode("euc_jp"), "한국어".encode("cp949").
    @Test func japaneseAndKoreanText() throws {
        #expect(Self.hex(try TextEncoding.shiftJIS.encode("日本語")) == "93 FA 96 7B 8C EA")
        #expect(Self.hex(try TextEncoding.eucJP.encode("日本語")) == "C6 FC CB DC B8 EC")
        #expect(Self.hex(try TextEncoding.eucKR.encode("한국어")) == "C7 D1 B1 B9 BE EE")
        // ¥ and ‾ are 5C and 7E, − is written as －, halfwidth katakana as one byte (EUC-JP: 8E and one byte);
        // Python: "\u00a5\u203e\u2212\uff71".encode("shift_jis") and .encode("euc_jp").
        #expect(Self.hex(try TextEncoding.shiftJIS.encode("\u{A5}\u{203E}\u{2212}\u{FF71}")) == "5C 7E 81 7C B1")
        #expect(Self.hex(try TextEncoding.eucJP.encode("\u{A5}\u{203E}\u{2212}\u{FF71}")) == "5C 7E A1 DD 8E B1")
    }

    /// Python: "a日本b".encode("iso2022_jp"); "ｱ" (halfwidth) is written as the fullwidth "ア" of index ISO-2022-JP
    /// katakana ("ア".encode("iso2022_jp")). "¥" switches to JIS X 0201 Roman, which writes ASCII other than `\` and
    /// `~` as it is (§12.2.2 step 4; Python's codec returns to ASCII first, which the standard does not).
    @Test func iso2022JPSwitchesStatesAndEndsInASCII() throws {
        #expect(Self.hex(try TextEncoding.iso2022JP.encode("a日本b")) == "61 1B 24 42 46 7C 4B 5C 1B 28 42 62")
        #expect(Self.hex(try TextEncoding.iso2022JP.encode("日")) == "1B 24 42 46 7C 1B 28 42")
        #expect(Self.hex(try TextEncoding.iso2022JP.encode("¥a\\")) == "1B 28 4A 5C 61 1B 28 42 5C")
        #expect(Self.hex(try TextEncoding.iso2022JP.encode("\u{FF71}")) == "1B 24 42 25 22 1B 28 42")
    }

    /// Python: "日€".encode("iso2022_jp", "xmlcharrefreplace") == b"\x1b$BF|\x1b(B&#8364;": the encoder leaves
    /// JIS X 0208 before the reference. ESC, SO and SI are errors reported as U+FFFD (§12.2.2 step 2).
    @Test func iso2022JPErrors() throws {
        #expect(
            try TextEncoding.iso2022JP.encode("日€", mode: .html) == Self.bytes("1B 24 42 46 7C 1B 28 42")
                + Data("&#8364;".utf8))
        #expect(try TextEncoding.iso2022JP.encode("a\u{1B}", mode: .html) == Data("a&#65533;".utf8))
        let error = try #require(Self.encodeError("日本\u{1B}", .iso2022JP))
        #expect((error.underlying as? TextEncodingError)?.scalar == "\u{1B}")
        #expect((error.underlying as? TextEncodingError)?.offset == 2)
    }

    // MARK: - Error modes

    @Test func strictModeNamesTheCharacterAndItsOffset() throws {
        let error = try #require(Self.encodeError("éü → x", .windows1252))
        #expect(error.code == .encodingFailed)
        let underlying = try #require(error.underlying as? TextEncodingError)
        #expect(underlying.scalar == "→")
        #expect(underlying.offset == 3)
        #expect(underlying.encoding == .windows1252)
        #expect(error.message.contains("U+2192 \"→\" at code point offset 3"))
        #expect(error.message.contains("windows-1252"))
        #expect(error.message.contains("html"))
    }

    /// Python: "café → 😀".encode("cp1252", "xmlcharrefreplace") and "日本😀é".encode("shift_jis",
    /// "xmlcharrefreplace").
    @Test func htmlModeWritesNumericCharacterReferences() throws {
        #expect(
            try TextEncoding.windows1252.encode("café → 😀", mode: .html)
                == Self.bytes("63 61 66 E9 20") + Data("&#8594; &#128512;".utf8))
        #expect(
            try TextEncoding.shiftJIS.encode("日本😀é", mode: .html)
                == Self.bytes("93 FA 96 7B") + Data("&#128512;&#233;".utf8))
    }

    @Test func replacementHasNoEncoderAndUTF16IsWrittenAsAsked() throws {
        #expect(!TextEncoding.replacement.hasEncoder)
        #expect(TextEncoding.allWHATWG.filter { !$0.hasEncoder } == [.replacement])
        #expect(Self.encodeError("a", .replacement)?.code == .invalidEncoding)
        #expect(TextEncoding.replacement.outputEncoding == .utf8)
        #expect(TextEncoding.utf16LE.outputEncoding == .utf8)
        #expect(TextEncoding.shiftJIS.outputEncoding == .shiftJIS)
        // Python: "a😀".encode("utf-16-le"), "a😀".encode("utf-16-be")
        #expect(Self.hex(try TextEncoding.utf16LE.encode("a😀")) == "61 00 3D D8 00 DE")
        #expect(Self.hex(try TextEncoding.utf16BE.encode("a😀")) == "00 61 D8 3D DE 00")
        #expect(try TextEncoding.utf8.encode("é") == Self.bytes("C3 A9"))
    }

    @Test func substringsAndEmptyText() throws {
        let text = "xx日本語xx"
        let middle = text.dropFirst(2).dropLast(2)
        #expect(Self.hex(try TextEncoding.shiftJIS.encode(middle)) == "93 FA 96 7B 8C EA")
        for encoding in Self.writableEncodings {
            #expect(try encoding.encode("").isEmpty, "\(encoding)")
        }
    }
}
