import DecantConformance
import DecantForm
import Foundation
import Testing

@Suite struct FormWriterTests {
    static let writerCases = FormTestSupport.encodingCases("writer")

    @Test func casesArePresent() {
        // encoding_cases.py writes 11 hand-written and 100 seeded cases.
        #expect(Self.writerCases.count == 111)
    }

    // Expected bodies: Python's `urlencode(pairs, quote_via=quote_plus)` with WHATWG's two differences from
    // `quote_plus` (`*` kept, `~` escaped) swapped in; see encoding_cases.py.
    @Test(arguments: writerCases)
    func writesWhatPythonWrites(_ testCase: FormTestSupport.EncodingCase) throws {
        let body = FormWriter().write(FormData(testCase.pairs))
        #expect(String(decoding: body, as: UTF8.self) == testCase.body)
        #expect(try FormParser().parse(body) == FormData(testCase.pairs))
    }

    @Test func keepsOnlyTheWHATWGSet() {
        // Each ASCII byte alone: kept bytes are letters, digits and `*-._`; space is `+`; the rest `%XX` (uppercase).
        for scalar in (0..<128).map({ Unicode.Scalar(UInt8($0)) }) {
            let body = String(decoding: FormWriter().write(FormData([("", String(scalar))])), as: UTF8.self)
            let kept =
                ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                || "*-._".unicodeScalars.contains(scalar)
            let hex = String(scalar.value, radix: 16, uppercase: true)
            let expected = kept ? String(scalar) : scalar == " " ? "+" : "%" + (hex.count == 1 ? "0" : "") + hex
            #expect(body == "=" + expected, "U+\(hex)")
        }
    }

    @Test func emptyFormIsAnEmptyBody() {
        #expect(FormWriter().write(FormData()).isEmpty)
        #expect(FormWriter().write(FormData([("", "")])) == Data("=".utf8))
    }

    // MARK: Round trips

    static var corpusFile: URL? {
        FormTestSupport.corpora.root?.appendingPathComponent("form/wpt/urlencoded-parser-data.json")
    }
    static var corpusAvailable: Bool { corpusFile.map { FileManager.default.fileExists(atPath: $0.path) } ?? false }

    /// Every WPT parser case's output pairs, written and parsed again, give the same pairs.
    @Test(.enabled(if: corpusAvailable)) func roundTripsWPTURLEncodedParserData() throws {
        let url = try #require(Self.corpusFile)
        let cases = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: url)) as? [[String: Any]])
        #expect(cases.count == 35)
        for entry in cases {
            let output = try #require(entry["output"] as? [[String]])
            let form = FormData(output.map { ($0[0], $0[1]) })
            let body = FormWriter().write(form)
            #expect(try FormParser().parse(body) == form, "WPT \(String(describing: entry["input"]))")
            // The WPT input parsed, then written and parsed again, gives the same pairs too.
            let input = try #require(entry["input"] as? String)
            let parsed = try FormParser().parse(input)
            #expect(try FormParser().parse(FormWriter().write(parsed)) == parsed)
        }
    }

    /// Seeded strings from all of Unicode (non-BMP included), weighted towards `+`, `%`, `&`, `=` and space.
    @Test func roundTripsSeededStrings() throws {
        var generator = SplitMix64(seed: 0xF0E7_2024)
        let special: [Unicode.Scalar] = ["+", "%", "&", "=", " ", "*", "~", "\u{0}", "\u{FEFF}", "\u{10FFFF}"]
        func scalar() -> Unicode.Scalar {
            let pick = generator.next() % 10
            if pick < 4 { return special[Int(generator.next() % UInt64(special.count))] }
            while true {
                let limit: UInt64 = pick < 6 ? 0x80 : pick < 8 ? 0x1_0000 : 0x11_0000
                if let scalar = Unicode.Scalar(UInt32(generator.next() % limit)) { return scalar }
            }
        }
        func text() -> String {
            var view = String.UnicodeScalarView()
            for _ in 0..<Int(generator.next() % 16) { view.append(scalar()) }
            return String(view)
        }
        for _ in 0..<1_000 {
            let form = FormData((0..<Int(1 + generator.next() % 4)).map { _ in (text(), text()) })
            let body = FormWriter().write(form)
            #expect(body.allSatisfy { $0 < 0x80 && $0 != UInt8(ascii: " ") })
            let parsed = try FormParser().parse(body)
            // Byte for byte, not only up to canonical equivalence as String's == compares.
            #expect(
                parsed.pairs.map { [Array($0.name.utf8), Array($0.value.utf8)] }
                    == form.pairs.map {
                        [Array($0.name.utf8), Array($0.value.utf8)]
                    })
        }
    }

    @Test func sizeIsAtMostThreeBytesPerInputByte() {
        let text = String(repeating: "é~ x", count: 10_000)
        let body = FormWriter().write(FormData([("k", text)]))
        // "é" is 2 bytes → 6, "~" → 3, " " → 1, "x" → 1: 11 per repetition, plus "k=".
        #expect(body.count == 2 + 11 * 10_000)
    }
}
