import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantCharset

/// The WHATWG Encoding decoders and labels, checked against the corpora (`../shared/corpora/encoding`) and against
/// values worked out by hand from the standard or produced by Python's codecs.
@Suite struct TextEncodingTests {
    // MARK: - Helpers

    static func bytes(_ hex: String) -> Data {
        Data(hex.split(separator: " ").map { UInt8($0, radix: 16)! })
    }

    /// "U+0041 U+FFFD" as a string.
    static func scalars(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        for token in text.split(separator: " ") {
            result.append(Unicode.Scalar(UInt32(token.dropFirst(2), radix: 16)!)!)
        }
        return String(result)
    }

    static func json(_ relativePath: String) throws -> [String: Any] {
        let url = try #require(Corpora.url(relativePath), "missing \(relativePath)")
        let object = try JSONSerialization.jsonObject(with: Data(contentsOf: url))
        return try #require(object as? [String: Any])
    }

    /// Pointer to code point from a WHATWG `index-*.txt` file.
    static func index(_ name: String) throws -> [Int: UInt32] {
        let url = try #require(Corpora.url("encoding/whatwg-encoding/index-\(name).txt"))
        var entries: [Int: UInt32] = [:]
        for line in try String(contentsOf: url, encoding: .utf8).split(separator: "\n") {
            guard !line.hasPrefix("#") else { continue }
            let fields = line.split(separator: "\t")
            guard fields.count >= 2, let pointer = Int(fields[0].trimmingCharacters(in: .whitespaces)),
                let codePoint = UInt32(fields[1].dropFirst(2), radix: 16)
            else { continue }
            entries[pointer] = codePoint
        }
        return entries
    }

    // MARK: - Labels (§4.2)

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func everyLabelCase() throws {
        let corpus = try Self.json("encoding/derived/label_cases.json")
        let positive = try #require(corpus["positive"] as? [[String: Any]])
        let negative = try #require(corpus["negative"] as? [[String: Any]])
        #expect(positive.count == 684)
        #expect(negative.count == 16)
        var passed = 0
        var failed = 0
        for testCase in positive {
            let input = try #require(testCase["input"] as? String)
            let expected = try #require(testCase["expected"] as? String)
            let name = TextEncoding(label: input)?.name
            if name == expected {
                passed += 1
            } else {
                failed += 1
                Issue.record("label \(input.debugDescription): expected \(expected), got \(name ?? "nil")")
            }
        }
        for testCase in negative {
            let input = try #require(testCase["input"] as? String)
            if let encoding = TextEncoding(label: input) {
                failed += 1
                Issue.record("label \(input.debugDescription) must not resolve, got \(encoding)")
            } else {
                passed += 1
            }
        }
        print("label_cases: \(passed) passed, \(failed) failed")
        #expect(failed == 0)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func labelsMatchEncodingsJSON() throws {
        let url = try #require(Corpora.url("encoding/whatwg-encoding/encodings.json"))
        let groups = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        var expected: [(name: String, labels: [String])] = []
        for group in groups {
            for encoding in try #require(group["encodings"] as? [[String: Any]]) {
                expected.append(
                    (try #require(encoding["name"] as? String), try #require(encoding["labels"] as? [String])))
            }
        }
        #expect(TextEncoding.allWHATWG.map(\.name) == expected.map(\.name))
        for (name, labels) in expected {
            let encoding = try #require(TextEncoding.allWHATWG.first { $0.name == name })
            #expect(encoding.labels == labels, "\(name)")
        }
        #expect(expected.flatMap(\.labels).count == 228)
    }

    @Test func everyEncodingIsReachableByItsOwnName() {
        #expect(TextEncoding.allWHATWG.count == 40)
        #expect(TextEncoding.allWHATWG.flatMap(\.labels).count == 228)
        for encoding in TextEncoding.allWHATWG {
            #expect(TextEncoding(label: encoding.name) == encoding, "\(encoding)")
            #expect(encoding.description == encoding.name)
        }
    }

    @Test(arguments: [
        ("iso-8859-1", "windows-1252"), ("Latin1", "windows-1252"), ("US-ASCII", "windows-1252"),
        ("utf-16", "UTF-16LE"), ("gb2312", "GBK"), ("x-sjis", "Shift_JIS"), ("iso-2022-kr", "replacement"),
        ("\t\n\u{0C}\r utf8 \r\n", "UTF-8"), ("ISO-8859-8-I", "ISO-8859-8-I"), ("tis-620", "windows-874"),
    ])
    func labelResolution(label: String, name: String) {
        #expect(TextEncoding(label: label)?.name == name)
    }

    @Test func isoLatin1IsNotAWHATWGEncoding() throws {
        #expect(TextEncoding.isoLatin1.name == "ISO-8859-1")
        #expect(TextEncoding.isoLatin1.labels.isEmpty)
        #expect(!TextEncoding.allWHATWG.contains(.isoLatin1))
        #expect(TextEncoding(label: "ISO-8859-1") == .windows1252)
        // Python: bytes(range(256)).decode("latin-1") == "".join(map(chr, range(256)))
        let all = Data(0...255)
        let expected = String(String.UnicodeScalarView((0...255).map { Unicode.Scalar(UInt8($0)) }))
        #expect(try TextEncoding.isoLatin1.decode(all, mode: .strict) == expected)
    }

    // MARK: - Index tables (§5)

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func generatedTablesMatchTheIndexFiles() throws {
        func check(_ table: [UInt32], _ name: String) throws {
            let entries = try Self.index(name)
            #expect(table.count == (entries.keys.max() ?? -1) + 1, "\(name)")
            var mismatches = 0
            for (pointer, value) in table.enumerated() where entries[pointer] ?? 0 != value {
                mismatches += 1
            }
            #expect(mismatches == 0, "\(name): \(mismatches) pointers differ")
        }
        try check(EncodingTables.jis0208.map(UInt32.init), "jis0208")
        try check(EncodingTables.jis0212.map(UInt32.init), "jis0212")
        try check(EncodingTables.gb18030.map(UInt32.init), "gb18030")
        try check(EncodingTables.eucKR.map(UInt32.init), "euc-kr")
        try check(EncodingTables.big5, "big5")
        let ranges = try Self.index("gb18030-ranges").sorted { $0.key < $1.key }
        #expect(EncodingTables.gb18030RangePointers == ranges.map { UInt32($0.key) })
        #expect(EncodingTables.gb18030RangeCodePoints == ranges.map(\.value))
        let names = EncodingTables.singleByteNames.split(whereSeparator: \.isWhitespace).map(String.init)
        #expect(names.count == 27)
        for (position, name) in names.enumerated() {
            let entries = try Self.index(name.lowercased())
            let table = EncodingTables.singleByte[(position * 128)..<(position * 128 + 128)]
            for (pointer, value) in table.enumerated() {
                #expect(UInt32(value) == entries[pointer] ?? 0, "\(name) pointer \(pointer)")
            }
        }
    }

    // MARK: - Single-byte encodings (§9, §14.5)

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func everySingleByteTable() throws {
        let corpus = try Self.json("encoding/derived/single_byte_decode.json")
        let tables = try #require(corpus["tables"] as? [String: [String]])
        #expect(tables.count == 29)
        var passed = 0
        var failed = 0
        for (name, expected) in tables.sorted(by: { $0.key < $1.key }) {
            let encoding = try #require(TextEncoding(label: name), "\(name)")
            #expect(encoding.name == name)
            #expect(expected.count == 256)
            var whole = ""
            for (byte, codePoint) in expected.enumerated() {
                let input = Data([UInt8(byte)])
                let decoded = try encoding.decode(input)
                let strict = Result { () throws(TextDecodingError) in try encoding.decode(input, mode: .strict) }
                let want = Self.scalars(codePoint)
                whole += want
                var ok = decoded == want
                if codePoint == "U+FFFD" {
                    // Unmapped: strict mode fails at the byte.
                    if case .failure(let error) = strict { ok = ok && error.offset == 0 } else { ok = false }
                } else if case .success(let text) = strict {
                    ok = ok && text == want
                } else {
                    ok = false
                }
                if ok {
                    passed += 1
                } else {
                    failed += 1
                    Issue.record(
                        "\(name) byte \(byte): expected \(codePoint), got \(decoded.unicodeScalars.map(\.value))")
                }
            }
            // The whole table at once, and a long mix of ASCII runs and other bytes, through the two-pass path.
            #expect(try encoding.decode(Data(0...255)) == whole, "\(name)")
            var generator = SplitMix64(state: UInt64(name.utf8.count) &* 0x9E37_79B9)
            var mixed = [UInt8]()
            var mixedExpected = ""
            while mixed.count < 2000 {
                let random = generator.next()
                let byte = random % 3 == 0 ? UInt8(truncatingIfNeeded: random >> 8) : UInt8(random >> 16 & 0x7F)
                mixed.append(byte)
                mixedExpected += Self.scalars(expected[Int(byte)])
            }
            #expect(try encoding.decode(Data(mixed)) == mixedExpected, "\(name)")
        }
        print("single_byte_decode: \(passed) passed, \(failed) failed")
        #expect(failed == 0)
    }

    @Test func singleByteStrictOffsetIsTheFirstUnmappedByte() throws {
        // windows-1253 has no 0xAA (index-windows-1253.txt has no pointer 42).
        let input = Data("abcdefghijk".utf8) + [0xAA, 0x41]
        #expect(try TextEncoding.windows1253.decode(input) == "abcdefghijk\u{FFFD}A")
        #expect(throws: TextDecodingError.self) { try TextEncoding.windows1253.decode(input, mode: .strict) }
        do {
            _ = try TextEncoding.windows1253.decode(input, mode: .strict)
        } catch {
            #expect(error.offset == 11)
            #expect(error.encoding == .windows1253)
            #expect(error.description == "The bytes are not valid windows-1253 at byte offset 11 (AA 41).")
        }
    }

    // MARK: - WPT TextDecoder fatal cases

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func textDecoderFatalCases() throws {
        let corpus = try Self.json("encoding/wpt/textdecoder_fatal_cases.json")
        let cases = try #require(corpus["cases"] as? [[String: Any]])
        #expect(cases.count == 34)
        var passed = 0
        var failed = 0
        for testCase in cases {
            let label = try #require(testCase["encoding"] as? String)
            let encoding = try #require(TextEncoding(label: label))
            let input = Self.bytes(try #require(testCase["input_hex"] as? String))
            let expected = Self.scalars(try #require(testCase["replacement_mode_expected"] as? String))
            let replaced = try encoding.decode(input)
            var ok = replaced == expected
            do {
                let text = try encoding.decode(input, mode: .strict)
                ok = false
                Issue.record("\(testCase["name"] ?? label): strict mode decoded \(text.debugDescription)")
            } catch {
                // In every case the first byte already belongs to the first invalid sequence.
                ok = ok && error.offset == 0 && error.encoding == encoding
            }
            if ok { passed += 1 } else { failed += 1 }
            #expect(ok, "\(testCase["name"] ?? label): \(replaced.unicodeScalars.map(\.value))")
        }
        print("textdecoder_fatal_cases: \(passed) passed, \(failed) failed")
        #expect(failed == 0)
    }

    // MARK: - encoding_rs decode pairs (CJK)

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func encodingRSDecodePairs() throws {
        let corpus = try Self.json("encoding/encoding_rs/index.json")
        let cases = try #require(corpus["cases"] as? [[String: Any]])
        var passed = 0
        var failed = 0
        var covered = Set<TextEncoding>()
        for testCase in cases {
            let direction = try #require(testCase["direction"] as? String)
            let label = try #require(testCase["encoding"] as? String)
            let encoding = try #require(TextEncoding(label: label))
            let inputPath = try #require(testCase["input"] as? String)
            let expectedPath = try #require(testCase["expected"] as? String)
            let input = try Data(contentsOf: try #require(Corpora.url("encoding/encoding_rs/" + inputPath)))
            let expected = try Data(contentsOf: try #require(Corpora.url("encoding/encoding_rs/" + expectedPath)))
            let name = testCase["test"] as? String ?? inputPath
            // Decode pairs: legacy bytes -> UTF-8 text. Encode pairs, read backwards: the encoder's output decodes
            // to the encoder's input (every character in them round-trips).
            let (bytes, text) = direction == "decode" ? (input, expected) : (expected, input)
            var encodings = [encoding]
            if encoding == .gb18030 { encodings.append(.gbk) }  // GBK's decoder is gb18030's (§10.1.1)
            var want = String(decoding: text, as: UTF8.self)
            if direction == "encode" && encoding == .iso2022JP {
                // The ISO-2022-JP encoder writes halfwidth katakana as fullwidth (§12.2.2).
                let katakana = try Self.index("iso-2022-jp-katakana")
                want = String(
                    String.UnicodeScalarView(
                        want.unicodeScalars.map { scalar in
                            guard (0xFF61...0xFF9F).contains(scalar.value),
                                let full = katakana[Int(scalar.value - 0xFF61)].flatMap(Unicode.Scalar.init)
                            else { return scalar }
                            return full
                        }))
            }
            for encoding in encodings {
                let decoded = try encoding.decode(bytes)
                if decoded == want {
                    passed += 1
                } else {
                    failed += 1
                    let got = Array(decoded.unicodeScalars)
                    let wanted = Array(want.unicodeScalars)
                    let first = Array(zip(got, wanted)).firstIndex { $0 != $1 } ?? min(got.count, wanted.count)
                    Issue.record(
                        "\(name) with \(encoding): differs at scalar \(first) (\(got.count) vs \(wanted.count) scalars)"
                    )
                }
                covered.insert(encoding)
            }
        }
        print("encoding_rs: \(passed) passed, \(failed) failed")
        #expect(failed == 0)
        #expect(covered == [.big5, .eucJP, .eucKR, .gb18030, .gbk, .iso2022JP, .shiftJIS])
    }

    // MARK: - UTF-8 (§8.1)

    /// Expected values from Python: `bytes.fromhex(input).decode("utf-8", "replace")`, which substitutes maximal
    /// subparts exactly as the WHATWG UTF-8 decoder does. Offsets are those of the first invalid sequence.
    @Test(
        arguments: [
            ("41 80 42", "U+0041 U+FFFD U+0042", 1),
            ("c2", "U+FFFD", 0),
            ("c2 41", "U+FFFD U+0041", 0),
            ("e0 a0", "U+FFFD", 0),
            ("e0 a0 41", "U+FFFD U+0041", 0),
            ("e0 80 41", "U+FFFD U+FFFD U+0041", 0),
            ("ed a0 80", "U+FFFD U+FFFD U+FFFD", 0),
            ("ed 9f bf", "U+D7FF", nil),
            ("f0 90 80", "U+FFFD", 0),
            ("f0 90 80 41", "U+FFFD U+0041", 0),
            ("f0 80 80 80", "U+FFFD U+FFFD U+FFFD U+FFFD", 0),
            ("f4 90 80 80", "U+FFFD U+FFFD U+FFFD U+FFFD", 0),
            ("f4 8f bf bf", "U+10FFFF", nil),
            ("f5 80", "U+FFFD U+FFFD", 0),
            ("ff fe fd", "U+FFFD U+FFFD U+FFFD", 0),
            ("c2 c2 a9", "U+FFFD U+00A9", 0),
            ("e2 82", "U+FFFD", 0),
            ("e2 82 ac", "U+20AC", nil),
            ("41 e2 82 f0 9f 98 80 42", "U+0041 U+FFFD U+1F600 U+0042", 1),
            ("80 80 80", "U+FFFD U+FFFD U+FFFD", 0),
            ("ef bb bf 41", "U+FEFF U+0041", nil),
            ("f0 9f 98", "U+FFFD", 0),
            ("f1 80 80 e1 80 c2 80", "U+FFFD U+FFFD U+0080", 0),
            (
                "41 42 43 44 45 46 47 48 49 4a c3",
                "U+0041 U+0042 U+0043 U+0044 U+0045 U+0046 U+0047 U+0048 U+0049 U+004A U+FFFD", 10
            ),
            (
                "41 42 43 44 45 46 47 48 c3 a9 49 ff",
                "U+0041 U+0042 U+0043 U+0044 U+0045 U+0046 U+0047 U+0048" + " U+00E9 U+0049 U+FFFD",
                11
            ),
        ] as [(String, String, Int?)])
    func utf8MaximalSubparts(input: String, expected: String, offset: Int?) throws {
        let bytes = Self.bytes(input)
        #expect(try TextEncoding.utf8.decode(bytes) == Self.scalars(expected))
        do {
            let text = try TextEncoding.utf8.decode(bytes, mode: .strict)
            #expect(offset == nil)
            #expect(text == Self.scalars(expected))
        } catch {
            #expect(error.offset == offset)
        }
    }

    @Test func utf8LongValidTextTakesTheFastPath() throws {
        let text = String(repeating: "plain ASCII and é, €, 😀 ", count: 1000)
        #expect(try TextEncoding.utf8.decode(Data(text.utf8), mode: .strict) == text)
        #expect(try TextEncoding.utf8.decode(Data()) == "")
    }

    // MARK: - UTF-16 (§14.2)

    /// Worked out from the shared UTF-16 decoder: an odd final byte and every unpaired surrogate is one U+FFFD; the
    /// code unit after an unpaired leading surrogate is decoded on its own.
    @Test(
        arguments: [
            ("41 00 42", "U+0041 U+FFFD", 2),
            ("41", "U+FFFD", 0),
            ("3d d8 00 de", "U+1F600", nil),
            ("3d d8", "U+FFFD", 0),
            ("3d d8 41", "U+FFFD", 0),
            ("3d d8 41 00", "U+FFFD U+0041", 0),
            ("41 00 00 de 42 00", "U+0041 U+FFFD U+0042", 2),
            ("3d d8 3d d8 00 de", "U+FFFD U+1F600", 0),
            ("00 dc 00 d8", "U+FFFD U+FFFD", 0),
        ] as [(String, String, Int?)])
    func utf16LittleEndian(input: String, expected: String, offset: Int?) throws {
        let bytes = Self.bytes(input)
        #expect(try TextEncoding.utf16LE.decode(bytes) == Self.scalars(expected))
        // The same code units big-endian.
        var swapped = [UInt8](bytes)
        var index = 0
        while index + 1 < swapped.count {
            swapped.swapAt(index, index + 1)
            index += 2
        }
        #expect(try TextEncoding.utf16BE.decode(Data(swapped)) == Self.scalars(expected))
        for (encoding, data) in [(TextEncoding.utf16LE, bytes), (.utf16BE, Data(swapped))] {
            do {
                _ = try encoding.decode(data, mode: .strict)
                #expect(offset == nil)
            } catch {
                #expect(error.offset == offset)
            }
        }
    }

    @Test func utf16MatchesPythonOnValidText() throws {
        // Python: "Grüße, 世界 😀".encode("utf-16-le").hex(" ")
        let little = Self.bytes("47 00 72 00 fc 00 df 00 65 00 2c 00 20 00 16 4e 4c 75 20 00 3d d8 00 de")
        #expect(try TextEncoding.utf16LE.decode(little, mode: .strict) == "Grüße, 世界 😀")
        // Python: "Grüße, 世界 😀".encode("utf-16-be").hex(" ")
        let big = Self.bytes("00 47 00 72 00 fc 00 df 00 65 00 2c 00 20 4e 16 75 4c 00 20 d8 3d de 00")
        #expect(try TextEncoding.utf16BE.decode(big, mode: .strict) == "Grüße, 世界 😀")
    }

    // MARK: - Legacy multi-byte encodings: errors and offsets, worked out from §10-§13

    @Test(
        arguments: [
            // Shift_JIS (§12.3.1): an ASCII trailing byte is not swallowed (the security note of §2).
            (TextEncoding.shiftJIS, "41 82 22", "U+0041 U+FFFD U+0022", 1),
            (.shiftJIS, "82 a0", "U+3042", nil),  // あ
            (.shiftJIS, "5c 7e 80 a1 df", "U+005C U+007E U+0080 U+FF61 U+FF9F", nil),
            (.shiftJIS, "f0 40", "U+E000", nil),  // EUDC
            (.shiftJIS, "82", "U+FFFD", 0),
            (.shiftJIS, "a0 fd", "U+FFFD U+FFFD", 0),
            (.shiftJIS, "82 ff 41", "U+FFFD U+0041", 0),
            // EUC-JP (§12.1.1).
            (.eucJP, "a4 a2 8e b1 8f b0 a1", "U+3042 U+FF71 U+4E02", nil),
            (.eucJP, "41 8f b0", "U+0041 U+FFFD", 1),
            (.eucJP, "8f b0 41", "U+FFFD U+0041", 0),
            (.eucJP, "8e e0 41", "U+FFFD U+0041", 0),
            (.eucJP, "a4 41", "U+FFFD U+0041", 0),
            // ISO-2022-JP (§12.2.1).
            (.iso2022JP, "1b 24 42 30 21 1b 28 42 41", "U+4E9C U+0041", nil),
            (.iso2022JP, "1b 28 4a 5c 7e 1b 28 42 5c", "U+00A5 U+203E U+005C", nil),
            (.iso2022JP, "1b 28 49 21 5f", "U+FF61 U+FF9F", nil),
            (.iso2022JP, "1b 28 42 1b 28 42 41", "U+FFFD U+0041", 3),
            (.iso2022JP, "41 1b 28 41", "U+0041 U+FFFD U+0028 U+0041", 1),
            (.iso2022JP, "41 1b 41", "U+0041 U+FFFD U+0041", 1),
            (.iso2022JP, "1b 24 42 30", "U+FFFD", 3),
            (.iso2022JP, "1b 24 42 30 1b 28 42 41", "U+FFFD U+0041", 3),
            (.iso2022JP, "0e 41", "U+FFFD U+0041", 0),
            (.iso2022JP, "41 1b", "U+0041 U+FFFD", 1),
            // gb18030 (§10.2.1).
            (.gb18030, "80 b0 a1 81 30 81 30", "U+20AC U+554A U+0080", nil),
            (.gb18030, "84 31 a4 39 90 30 81 30 e3 32 9a 35", "U+FFFF U+10000 U+10FFFF", nil),
            (.gb18030, "81 35 f4 37", "U+E7C7", nil),
            (.gb18030, "81 30 41", "U+FFFD U+0030 U+0041", 0),
            (.gb18030, "81 30 81 41", "U+FFFD U+0030 U+4E04", 0),
            (.gb18030, "84 31 a5 30", "U+FFFD", 0),
            (.gb18030, "81 30 81", "U+FFFD", 0),
            (.gb18030, "41 ff", "U+0041 U+FFFD", 1),
            (.gb18030, "81 7f", "U+FFFD U+007F", 0),
            // Big5 (§11.1.1).
            (.big5, "a4 40 88 62 88 66", "U+4E00 U+00CA U+0304 U+00CA", nil),
            (.big5, "87 40", "U+43F0", nil),
            (.big5, "a4 22", "U+FFFD U+0022", 0),
            (.big5, "80 a4", "U+FFFD U+FFFD", 0),
            // EUC-KR (§13.1.1).
            (.eucKR, "b0 a1 81 41", "U+AC00 U+AC02", nil),
            (.eucKR, "b0 41 c7 41 ff", "U+CE9A U+FFFD U+0041 U+FFFD", 2),
            (.eucKR, "41 b0 22", "U+0041 U+FFFD U+0022", 1),
            // x-user-defined (§14.5) and replacement (§14.1).
            (.xUserDefined, "41 80 ff", "U+0041 U+F780 U+F7FF", nil),
            (.replacement, "41 42 43", "U+FFFD", 0),
        ] as [(TextEncoding, String, String, Int?)])
    func legacyMultiByte(encoding: TextEncoding, input: String, expected: String, offset: Int?) throws {
        let bytes = Self.bytes(input)
        #expect(try encoding.decode(bytes) == Self.scalars(expected))
        do {
            let text = try encoding.decode(bytes, mode: .strict)
            #expect(offset == nil, "strict mode decoded \(text.debugDescription)")
        } catch {
            #expect(error.offset == offset)
            #expect(error.encoding == encoding)
            #expect(
                error.description.hasPrefix("The bytes are not valid \(encoding.name) at byte offset \(error.offset)"))
        }
    }

    @Test func emptyInputIsEmptyTextInEveryEncoding() throws {
        for encoding in TextEncoding.allWHATWG + [.isoLatin1] {
            #expect(try encoding.decode(Data(), mode: .strict) == "", "\(encoding)")
        }
    }

    // MARK: - Random bytes

    /// Random inputs never crash any decoder; strict mode fails exactly where replacement mode first substitutes,
    /// and the bytes before a strict failure decode strictly to the same text replacement mode produced for them.
    @Test func randomBytesNeverCrashAnyDecoder() throws {
        var generator = SplitMix64(state: 0x00DE_CA17_C0DE)
        let encodings = TextEncoding.allWHATWG + [.isoLatin1]
        for encoding in encodings {
            for round in 0..<300 {
                let length = round < 250 ? Int(generator.next() % 48) : Int(generator.next() % 4096)
                var bytes = [UInt8](repeating: 0, count: length)
                for index in bytes.indices {
                    let random = generator.next()
                    // Mix in escape and lead bytes so that the stateful paths are exercised.
                    bytes[index] =
                        random % 7 == 0
                        ? [0x1B, 0x24, 0x28, 0x42, 0x81, 0x30, 0x8E, 0x8F, 0xA1, 0xFE][Int(random >> 8) % 10]
                        : UInt8(truncatingIfNeeded: random >> 16)
                }
                let data = Data(bytes)
                let replaced = try encoding.decode(data)
                do {
                    let strict = try encoding.decode(data, mode: .strict)
                    #expect(strict == replaced, "\(encoding) \(bytes)")
                } catch {
                    #expect(error.offset >= 0 && error.offset < bytes.count, "\(encoding) \(bytes)")
                    let prefix = Data(bytes[..<error.offset])
                    #expect(throws: Never.self, "\(encoding) \(bytes)") {
                        _ = try encoding.decode(prefix, mode: .strict)
                    }
                }
            }
        }
    }
}
