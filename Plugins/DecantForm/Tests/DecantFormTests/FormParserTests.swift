import Decant
import DecantConformance
import DecantForm
import Foundation
import Testing

@Suite struct FormParserTests {
    // Expected pairs computed with Python 3.11: `urllib.parse.parse_qsl(input, keep_blank_values=True)`, on inputs
    // where it agrees with the WHATWG urlencoded parser (it splits on `&` only since Python 3.10).
    static let pythonCases: [(String, [(String, String)])] = [
        ("a=1&b=2", [("a", "1"), ("b", "2")]),
        ("q=hello+world", [("q", "hello world")]),
        ("x=%2B%20+", [("x", "+  ")]),
        ("a=%41%4a%4A", [("a", "AJJ")]),
        ("k=%e2%9c%93", [("k", "\u{2713}")]),
        ("%7E=~", [("~", "~")]),
        ("a=b=c", [("a", "b=c")]),
        ("=", [("", "")]),
        ("==", [("", "=")]),
        ("a&&b", [("a", ""), ("b", "")]),
        ("+=+", [(" ", " ")]),
        ("name=%E6%97%A5%E6%9C%AC", [("name", "\u{65E5}\u{672C}")]),
        ("a=%0", [("a", "%0")]),
        ("a=%%31", [("a", "%1")]),
        ("a=%3x", [("a", "%3x")]),
        ("%+=x", [("% ", "x")]),
        ("\u{E9}=\u{FC}", [("\u{E9}", "\u{FC}")]),
    ]

    @Test(arguments: pythonCases.indices)
    func matchesPythonParseQsl(index: Int) throws {
        let (input, expected) = Self.pythonCases[index]
        let form = try FormParser().parse(input)
        #expect(form == FormData(expected), "input \(input.debugDescription)")
    }

    // Byte-level cases (raw non-ASCII bytes, invalid UTF-8). Expected pairs computed with Python 3.11 as
    // fixtures.py does: `parse_qsl(body.decode("latin-1"), keep_blank_values=True, encoding="latin-1")`, then each
    // name and value `.encode("latin-1").decode("utf-8", "replace")` (U+FFFD per maximal malformed subpart).
    static let byteCases: [(String, [(String, String)])] = [
        (#"a=\xff"#, [("a", "\u{FFFD}")]),
        ("a=%C3%28", [("a", "\u{FFFD}(")]),
        ("%F0%9F%98%80=%F0%9F%98", [("\u{1F600}", "\u{FFFD}")]),
        (#"\xc3\xa9=%C3%A9"#, [("\u{E9}", "\u{E9}")]),
        ("x=%ED%A0%80", [("x", "\u{FFFD}\u{FFFD}\u{FFFD}")]),
        (#"x=\xc0\xaf&y=%C0%AF"#, [("x", "\u{FFFD}\u{FFFD}"), ("y", "\u{FFFD}\u{FFFD}")]),
        (#"a=\xe2\x82&b"#, [("a", "\u{FFFD}"), ("b", "")]),
        (#"%EF%BB%BF=\xef\xbb\xbf"#, [("\u{FEFF}", "\u{FEFF}")]),
    ]

    @Test(arguments: byteCases.indices)
    func decodesBytesAsPythonDoes(index: Int) throws {
        let (literal, expected) = Self.byteCases[index]
        let form = try FormParser().parse(FormTestSupport.bytes(literal))
        #expect(form == FormData(expected), "input \(literal)")
    }

    @Test func emptyBodyHasNoFields() throws {
        #expect(try FormParser().parse(Data()).pairs.isEmpty)
        #expect(try FormParser().parse("&&&").pairs.isEmpty)
    }

    @Test func conveniencesReadFirstAndAllValues() throws {
        let form = try FormParser().parse("tag=a&x=1&tag=b&tag=&X=2")
        #expect(form["tag"] == "a")
        #expect(form["x"] == "1")
        #expect(form["X"] == "2")
        #expect(form["missing"] == nil)
        #expect(form.values(for: "tag") == ["a", "b", ""])
        #expect(form.values(for: "missing").isEmpty)
        #expect(form.names == ["tag", "x", "X"])
    }

    @Test func canonicalFormIsPairsInOrder() throws {
        let form = try FormParser().parse("b=2&a=1&b=3&c")
        let expected: JSONValue = ["pairs": [["b", "2"], ["a", "1"], ["b", "3"], ["c", ""]]]
        #expect(try form.conformanceValue() == expected)
        #expect(try FormData().conformanceValue() == ["pairs": []])
    }

    // MARK: WPT

    static var corpusFile: URL? {
        FormTestSupport.corpora.root?.appendingPathComponent("form/wpt/urlencoded-parser-data.json")
    }
    static var corpusAvailable: Bool { corpusFile.map { FileManager.default.fileExists(atPath: $0.path) } ?? false }

    @Test(.enabled(if: corpusAvailable)) func passesWPTURLEncodedParserData() throws {
        let url = try #require(Self.corpusFile)
        // Read with Foundation's JSONSerialization, not Decant's parser, to keep the expectations independent.
        let cases = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        var passed = 0
        var failed = 0
        for entry in cases {
            let input = try #require(entry["input"] as? String)
            let output = try #require(entry["output"] as? [[String]])
            let expected = FormData(output.map { ($0[0], $0[1]) })
            // The WPT harness hands the input string to URLSearchParams, which parses its UTF-8 bytes.
            let actual = try FormParser().parse(Data(input.utf8))
            if actual == expected {
                passed += 1
            } else {
                failed += 1
                Issue.record("WPT \(input.debugDescription): expected \(expected.pairs), got \(actual.pairs)")
            }
        }
        print("wpt urlencoded: \(passed) passed, \(failed) failed")
        #expect(cases.count == 35)
        #expect(failed == 0)
    }

    // MARK: Limits

    @Test func maxPairsCountsNonEmptySequencesOnly() throws {
        let parser = FormParser(options: FormParsingOptions(maxPairs: 3))
        #expect(try parser.parse("&&a=1&&b=2&&c=3&&").pairs.count == 3)
        let error = try #require(throws: SerializationError.self) { try parser.parse("a=1&b=2&c=3&dd=4") }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxPairs"))
        #expect(error.offset == 12)  // where "dd=4" starts
    }

    @Test func defaultMaxPairsIsTenThousand() throws {
        #expect(FormParsingOptions().maxPairs == 10_000)
        let atLimit = Data(repeating: UInt8(ascii: "&"), count: 1) + Data(String(repeating: "a&", count: 10_000).utf8)
        #expect(try FormParser().parse(atLimit).pairs.count == 10_000)
        let error = try #require(throws: SerializationError.self) {
            try FormParser().parse(atLimit + Data("b".utf8))
        }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxPairs"))
    }

    @Test func maxBytesBoundsTheBody() throws {
        let parser = FormParser(options: FormParsingOptions(maxBytes: 7))
        #expect(try parser.parse("abc=def").pairs.count == 1)
        let error = try #require(throws: SerializationError.self) { try parser.parse("abc=defg") }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxBytes"))
        #expect(error.offset == 7)
        #expect(FormParsingOptions().maxBytes == 16 * 1024 * 1024)
    }

    // MARK: Hostile input

    @Test func oneMegabyteOfRandomBytesParses() throws {
        var generator = SplitMix64(seed: 0x5EED_F0F0)
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        for index in bytes.indices { bytes[index] = UInt8(truncatingIfNeeded: generator.next()) }
        let form = try FormParser().parse(Data(bytes))
        // One pair per non-empty `&`-separated sequence, counted here independently of the parser.
        let sequences = bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true)
        #expect(form.pairs.count == sequences.count)
        let names = sequences.map { sequence in
            sequence.prefix { $0 != UInt8(ascii: "=") }
        }
        // A sequence without `%` or `+` in its name decodes as plain UTF-8 with replacement.
        for (pair, name) in zip(form.pairs, names) where !name.contains(0x25) && !name.contains(0x2B) {
            #expect(pair.name == String(decoding: name, as: UTF8.self))
        }
    }

    @Test(arguments: ["%", "&", "=", "+", "%4", "%%41", "\u{FFFD}", "a"])
    func repetitiveInputParses(unit: String) throws {
        let body = Data(String(repeating: unit, count: (1 << 20) / unit.utf8.count).utf8)
        let form = try FormParser(options: FormParsingOptions(maxPairs: .max)).parse(body)
        #expect(form.pairs.count <= 1)
        let decoded = form.pairs.first.map { $0.name.utf8.count + $0.value.utf8.count } ?? 0
        #expect(decoded <= body.count)
    }
}
