import Decant
import DecantCSV
import DecantConformance
import Foundation
import Testing

/// The parser against Python's `csv` module: every expected value below was printed by
/// `[r for r in csv.reader(io.StringIO(text, newline=""), strict=True) if r]` (blank lines dropped, as `DictReader`
/// does and as Decant does).
@Suite struct CSVParserTests {
    static func rows(_ text: String, header: CSVParsingOptions.HeaderPolicy = .absent) throws -> [[String]] {
        let table = try CSVParser(options: CSVParsingOptions(header: header)).parse(Data(text.utf8))
        return (table.header.map { [$0] } ?? []) + table.rows.map { Array($0) }
    }

    @Test(arguments: [
        ("a,b\r\n1,2\r\n", [["a", "b"], ["1", "2"]]),
        ("a,b\n1,2", [["a", "b"], ["1", "2"]]),
        ("a,b\r1,2\r3,4", [["a", "b"], ["1", "2"], ["3", "4"]]),
        ("name,notes\n\"Smith, J\",\"says \"\"hi\"\"\"\n", [["name", "notes"], ["Smith, J", "says \"hi\""]]),
        ("a,b\n\"line1\nline2\",\"x\r\ny\"\n", [["a", "b"], ["line1\nline2", "x\r\ny"]]),
        ("a,b\n\n1,2\n\n\n3,4\n", [["a", "b"], ["1", "2"], ["3", "4"]]),
        ("a,b,\n1,2,\n", [["a", "b", ""], ["1", "2", ""]]),
        ("a\"b,c\n", [["a\"b", "c"]]),
        ("a,\"\",b\n", [["a", "", "b"]]),
        ("a,b,c\n1\n1,2,3,4\n", [["a", "b", "c"], ["1"], ["1", "2", "3", "4"]]),
        ("ville,pays\nZürich,Suisse\n東京,日本\n", [["ville", "pays"], ["Zürich", "Suisse"], ["東京", "日本"]]),
        (" a , b \n", [[" a ", " b "]]),
        // A doubled quote before a combining mark (one Character with it, so only byte-level escaping sees it).
        ("\"a\"\"\u{06D7}b\",c\n", [["a\"\u{06D7}b", "c"]]),
    ])
    func recordsMatchPythonsReader(text: String, expected: [[String]]) throws {
        #expect(try Self.rows(text) == expected)
        // The header policy only moves the first record.
        #expect(try Self.rows(text, header: .present) == expected)
    }

    @Test(arguments: [
        // Python: "unexpected end of data".
        ("a,\"bc\n", 1, 3, "never closes"),
        // Python: "',' expected after '\"'".
        ("\"ab\"c,d\n", 1, 5, "'c' follows"),
        ("x\ny,\"z\" q\n", 2, 6, "' ' follows".replacingOccurrences(of: "' '", with: "byte 0x20")),
    ])
    func malformedQuotesGiveLineAndColumn(text: String, line: Int, column: Int, detail: String) throws {
        let error = try #require(throws: SerializationError.self) { try Self.rows(text) }
        #expect(error.code == .invalidBody)
        #expect(error.message.contains("line \(line), column \(column)"), "\(error.message)")
        #expect(error.message.contains(detail), "\(error.message)")
    }

    @Test func headerComesFromTheMediaTypeParameter() throws {
        let body = Data("a,b\n1,2\n".utf8)
        let present = try CSVParser().parse(body, mediaType: try MediaType(parsing: "text/csv"))
        #expect(present.header == ["a", "b"] && present.rows.count == 1)
        let absent = try CSVParser().parse(body, mediaType: try MediaType(parsing: "text/csv; header=absent"))
        #expect(absent.header == nil && absent.rows.count == 2)
        #expect(absent.rows[0]["a"] == nil)
        #expect(present.rows[0]["b"] == "2" && present.rows[0]["c"] == nil)
    }

    @Test func tabSeparatedValuesHaveNoQuoting() throws {
        let body = Data("name\tquote\nAda\t\"hello, world\"\n".utf8)
        let table = try CSVParser().parse(body, mediaType: try MediaType(parsing: "text/tab-separated-values"))
        #expect(table.header == ["name", "quote"])
        #expect(Array(table.rows[0]) == ["Ada", "\"hello, world\""])
    }

    @Test func delimiterAndTrimmingOptions() throws {
        let options = CSVParsingOptions(delimiter: UInt8(ascii: ";"), header: .absent, trimsWhitespace: true)
        let table = try CSVParser(options: options).parse(Data(" a ; \"b;c\" ;d\t\n".utf8))
        #expect(Array(table.rows[0]) == ["a", "b;c", "d"])
    }

    /// Text in another charset goes through the WHATWG pipeline: `Zürich` in windows-1252 is `5A FC 72 69 63 68`.
    @Test func charsetParameterIsHonoured() throws {
        let body = Data([0x63, 0x69, 0x74, 0x79, 0x0A, 0x5A, 0xFC, 0x72, 0x69, 0x63, 0x68, 0x0A])
        let table = try CSVParser().parse(body, mediaType: try MediaType(parsing: "text/csv; charset=windows-1252"))
        #expect(table.rows[0][0] == "Zürich")
        let bom = try CSVParser().parse(Data([0xEF, 0xBB, 0xBF] + Array("k\nv\n".utf8)))
        #expect(bom.header == ["k"])
    }

    /// Invalid UTF-8 takes the pipeline's replacement path (Python: `b"a,b\nZ\xfcrich,\xff\n".decode("utf-8",
    /// "replace")` gives `Z\ufffdrich` and `\ufffd`); valid UTF-8 is read in place, and an error's offset counts the
    /// byte order mark.
    @Test func invalidUTF8IsReplacedAndOffsetsCountTheByteOrderMark() throws {
        let table = try CSVParser().parse(
            Data([0x61, 0x2C, 0x62, 0x0A, 0x5A, 0xFC] + Array("rich,".utf8) + [0xFF, 0x0A]))
        #expect(Array(table.rows[0]) == ["Z\u{FFFD}rich", "\u{FFFD}"])
        let error = try #require(throws: SerializationError.self) {
            try CSVParser().parse(Data([0xEF, 0xBB, 0xBF] + Array("a,\"b".utf8)))
        }
        #expect(error.offset == 5)
        #expect(error.message.contains("line 1, column 3"))
    }

    @Test func limitsNameTheirOption() throws {
        func failure(_ text: String, _ options: CSVParsingOptions) -> SerializationError? {
            do {
                _ = try CSVParser(options: options).parse(Data(text.utf8))
                return nil
            } catch { return error }
        }
        let cases: [(String, CSVParsingOptions, String)] = [
            ("abcdef\n", CSVParsingOptions(maxFieldBytes: 5), "maxFieldBytes"),
            ("\"abc\"\"def\"\n", CSVParsingOptions(maxFieldBytes: 6), "maxFieldBytes"),
            ("a,b,c\n", CSVParsingOptions(maxFieldsPerRecord: 2), "maxFieldsPerRecord"),
            ("a\nb\nc\n", CSVParsingOptions(maxRecords: 2), "maxRecords"),
            ("a,b\nc,d\ne\n", CSVParsingOptions(maxFields: 4), "maxFields"),
        ]
        for (text, options, name) in cases {
            let error = try #require(failure(text, options), "\(name) was not hit")
            #expect(error.code == .limitExceeded && error.message.contains(name), "\(error.message)")
        }
        #expect(failure("abcde\n", CSVParsingOptions(maxFieldBytes: 5)) == nil)
        #expect(failure("a,b\nc,d\n", CSVParsingOptions(maxFields: 4)) == nil)
    }

    /// 1 MiB of seeded random bytes, and 1 MiB of delimiters: each ends (in a table or an error) and the delimiters'
    /// table holds every field.
    @Test func megabyteOfGarbageAndOfDelimiters() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var garbage = [UInt8](repeating: 0, count: 1 << 20)
        for index in garbage.indices {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            garbage[index] = UInt8(truncatingIfNeeded: state >> 33)
        }
        do {
            let table = try CSVParser().parse(Data(garbage))
            #expect(table.rows.count >= 0)
        } catch {
            #expect(error.code == .invalidBody || error.code == .limitExceeded)
        }
        let commas = String(repeating: ",", count: 9_999) + "\n"
        let table = try CSVParser(options: CSVParsingOptions(header: .absent)).parse(
            Data(String(repeating: commas, count: 100).utf8))
        #expect(table.rows.count == 100 && table.rows.allSatisfy { $0.count == 10_000 })
    }

    struct Person: Decodable, Equatable {
        let name: String
        let age: Int?
        let member: Bool
    }

    @Test func rowsDecodeAsRecords() throws {
        let table = try CSVParser().parse(Data("name,age,member\nAda,36,true\nBob,,0\n".utf8))
        let people = try CSVTableDecoder().decode([Person].self, from: table)
        #expect(people == [Person(name: "Ada", age: 36, member: true), Person(name: "Bob", age: nil, member: false)])
        let bad = try CSVParser().parse(Data("name,age,member\nAda,old,true\n".utf8))
        let error = try #require(throws: SerializationError.self) {
            try CSVTableDecoder().decode([Person].self, from: bad)
        }
        #expect(error.code == .decodingFailed)
        #expect(error.message.contains("row 1") && error.message.contains("'age'"), "\(error.message)")
    }

    @Test func registryDecodesRecordsAndKeepsThePluginsError() throws {
        let registry = SerializerRegistry.standard.installing(.csv)
        var headers = HTTPHeaderFields()
        headers.append(name: "Content-Type", value: "text/csv; charset=utf-8")
        let good = Response(status: 200, headers: headers, body: Data("name,age,member\nAda,36,1\n".utf8))
        #expect(try registry.decode([Person].self, from: good) == [Person(name: "Ada", age: 36, member: true)])
        // A malformed body fails with the CSV error, not a success of the text serializer behind it.
        let bad = Response(status: 200, headers: headers, body: Data("a,\"b\n".utf8))
        let error = try #require(throws: SerializationError.self) { try registry.serialize(bad) }
        #expect(error.message.contains("never closes"), "\(error.message)")
    }
}

/// csv-spectrum (`../shared/corpora/csv/csv-spectrum`): each CSV against its JSON, whose records are objects keyed
/// by the header row.
@Suite struct CSVCorpusTests {
    /// The shared corpora, found as every plugin test finds them.
    static let corpora = TestCorpora()

    /// Upstream's `location_coordinates.json` disagrees with its own CSV (see the corpora README).
    static let knownUpstreamErrors: Set<String> = ["location_coordinates"]

    @Test(.enabled(if: corpora.isAvailable, "needs ../shared/corpora"))
    func csvSpectrum() throws {
        let root = try #require(Self.corpora.url("csv/csv-spectrum"))
        let names = try FileManager.default.contentsOfDirectory(atPath: root.appendingPathComponent("csvs").path)
            .filter { $0.hasSuffix(".csv") }.map { String($0.dropLast(4)) }.sorted()
        var passed = 0
        var failed: [String] = []
        for name in names {
            let body = try Data(contentsOf: root.appendingPathComponent("csvs/\(name).csv"))
            if Self.knownUpstreamErrors.contains(name) {
                // Parsed all the same: it must not fail.
                _ = try CSVParser().parse(body, mediaType: try MediaType(parsing: "text/csv"))
                passed += 1
                continue
            }
            let json = try Data(contentsOf: root.appendingPathComponent("json/\(name).json"))
            let expected = try #require(try JSONSerialization.jsonObject(with: json) as? [[String: String]])
            let table = try CSVParser().parse(body, mediaType: try MediaType(parsing: "text/csv"))
            let header = table.header ?? []
            let records = table.rows.map { row in
                Dictionary(zip(header, Array(row)), uniquingKeysWith: { first, _ in first })
            }
            if records == expected {
                passed += 1
            } else {
                failed.append(name)
            }
        }
        print("csv-spectrum: \(passed) passed, \(failed.count) failed \(failed)")
        #expect(names.count == 12)
        #expect(failed.isEmpty)
    }
}

/// The conformance fixtures of `Fixtures/csv`, through the standard registry with the plugin installed.
@Suite struct CSVConformanceTests {
    @Test func fixturesPass() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("csv"))
        #expect(fixtures.count >= 15)
        let runner = ConformanceRunner(
            registry: SerializerRegistry.standard.installing(.csv), perturbations: Perturbation.all + [.csvLineEnds])
        let report = try runner.check(fixtures)
        // The plugin's own perturbation ran on the bodies it applies to.
        #expect(report.results.filter { $0.perturbation == "csvLineEnds" }.count >= 8)
        // The writing cases (`write-*.encode.json`, bytes from Python's csv.writer) pass too.
        let writing = try FixtureLoader.encodingFixtures(in: root.appendingPathComponent("csv"))
        #expect(try runner.check(writing: writing).results.count >= 3)
    }

    /// The serializer rules every format must follow, with fixture bodies as samples.
    @Test func followsTheSerializerRules() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("csv"))
        try SerializerRules(samplesFrom: fixtures).check(.csv)
    }
}
