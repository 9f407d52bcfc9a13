import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantJSON

/// The third-party corpora: JSONTestSuite, nativejson-benchmark, Foundation's resources, simdjson's examples.
/// Expected values come from the corpora themselves or from Python's `json` module, never from Decant.
@Suite struct JSONCorpusTests {
    static func read(_ url: URL) -> Data { (try? Data(contentsOf: url)) ?? Data() }

    static func parse(
        _ data: Data, _ options: JSONParsingOptions = JSONParsingOptions()
    ) -> Result<
        JSONValue, SerializationError
    > {
        Result { () throws(SerializationError) in try JSONParser(options: options).parse(data) }
    }

    // MARK: JSONTestSuite

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func jsonTestSuiteParsing() {
        let files = Corpora.files(under: "json/JSONTestSuite/test_parsing", extension: "json")
        #expect(files.count == 318)
        var passed = 0
        var failed: [String] = []
        for url in files {
            let name = url.lastPathComponent
            let result = Self.parse(Self.read(url))
            switch (name.first, result) {
            case ("y", .success), ("n", .failure):
                passed += 1
            case ("i", .success):
                passed += 1
                print("JSONTestSuite \(name): accepted")
            case ("i", .failure(let error)):
                passed += 1
                print("JSONTestSuite \(name): rejected (\(error.code))")
            default:
                failed.append(name)
            }
            if case .failure(let error) = result {
                #expect(error.offset != nil, "\(name): the error has no offset")
                #expect(error.message.utf8.count < 600, "\(name): \(error.message)")
            }
        }
        print("JSONTestSuite test_parsing: \(passed) passed, \(failed.count) failed")
        #expect(failed.isEmpty, "\(failed)")
    }

    /// What Python's `json.loads` (3.11) makes of each JSONTestSuite `test_transform` file, as `json.dumps` prints it
    /// (`ensure_ascii`), or `nil` where Python rejects the bytes. The cases where Decant decides otherwise, on purpose,
    /// are in ``transformDifferences``.
    static let pythonTransforms: [String: String?] = [
        "number_-9223372036854775808.json": "[-9223372036854775808]",
        "number_-9223372036854775809.json": "[-9223372036854775809]",
        "number_1.0.json": "[1.0]",
        "number_1.000000000000000005.json": "[1.0]",
        "number_1000000000000000.json": "[1000000000000000]",
        "number_10000000000000000999.json": "[10000000000000000999]",
        "number_1e-999.json": "[0.0]",
        "number_1e6.json": "[1000000.0]",
        "number_9223372036854775807.json": "[9223372036854775807]",
        "number_9223372036854775808.json": "[9223372036854775808]",
        "object_key_nfc_nfd.json": #"{"\u00e9": "NFC", "e\u0301": "NFD"}"#,
        "object_key_nfd_nfc.json": #"{"e\u0301": "NFD", "\u00e9": "NFC"}"#,
        "object_same_key_different_values.json": #"{"a": 2}"#,
        "object_same_key_same_value.json": #"{"a": 1}"#,
        "object_same_key_unclear_values.json": #"{"a": 0}"#,
        "string_1_escaped_invalid_codepoint.json": #"["\ud800"]"#,
        "string_1_invalid_codepoint.json": nil,
        "string_2_escaped_invalid_codepoints.json": #"["\ud800\ud800"]"#,
        "string_2_invalid_codepoints.json": nil,
        "string_3_escaped_invalid_codepoints.json": #"["\ud800\ud800\ud800"]"#,
        "string_3_invalid_codepoints.json": nil,
        "string_with_escaped_NULL.json": #"["A\u0000B"]"#,
    ]

    /// Where Decant rejects what Python accepts, and why: a lone surrogate escape (RFC 8259 §8.2 leaves the result
    /// unpredictable) cannot be held by a Swift `String`, so Decant reports it instead of changing the text.
    static let transformDifferences: [String: SerializationError.Code] = [
        "string_1_escaped_invalid_codepoint.json": .invalidBody,
        "string_2_escaped_invalid_codepoints.json": .invalidBody,
        "string_3_escaped_invalid_codepoints.json": .invalidBody,
    ]

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func jsonTestSuiteTransforms() throws {
        let files = Corpora.files(under: "json/JSONTestSuite/test_transform", extension: "json")
        #expect(Set(files.map(\.lastPathComponent)) == Set(Self.pythonTransforms.keys))
        for url in files {
            let name = url.lastPathComponent
            let python = try #require(Self.pythonTransforms[name])
            let result = Self.parse(Self.read(url))
            if let code = Self.transformDifferences[name] {
                #expect(python != nil, "\(name): Python accepts it")
                guard case .failure(let error) = result else {
                    Issue.record("\(name): accepted; Decant rejects lone surrogate escapes")
                    continue
                }
                #expect(error.code == code, "\(name)")
                #expect(error.offset != nil, "\(name)")
                continue
            }
            switch (result, python) {
            case (.success(let value), .some(let expected)):
                #expect(Self.pythonDump(value) == expected, "\(name)")
            case (.failure(let error), .none):
                #expect(error.code == .invalidEncoding, "\(name): \(error.message)")
            case (.success(let value), .none):
                Issue.record("\(name): Python rejects it, Decant accepted \(value)")
            case (.failure(let error), .some(let expected)):
                Issue.record("\(name): Python reads \(expected), Decant rejected it: \(error.message)")
            }
        }
    }

    /// `value` as Python's `json.dumps` prints what `json.loads` made of the same text: integers exact (`-0` is 0),
    /// other numbers as the nearest `Double` in Python's `repr` form, strings with `ensure_ascii` escapes.
    static func pythonDump(_ value: JSONValue) -> String {
        switch value.kind {
        case .null: return "null"
        case .bool: return value.boolValue == true ? "true" : "false"
        case .number:
            let text = value.numberValue.map { "\($0)" } ?? ""
            if !text.contains(where: { ".eE".contains($0) }) { return text == "-0" ? "0" : text }
            let double = value.doubleValue ?? .nan
            return double == double.rounded() && abs(double) < 1e16 ? String(format: "%.1f", double) : "\(double)"
        case .string: return pythonString(value.stringValue ?? "")
        case .array: return "[" + (value.arrayValue ?? []).map(pythonDump).joined(separator: ", ") + "]"
        case .object:
            let members = (value.objectEntries ?? []).map { pythonString($0.key) + ": " + pythonDump($0.value) }
            return "{" + members.joined(separator: ", ") + "}"
        }
    }

    static func pythonString(_ string: String) -> String {
        var out = "\""
        for unit in string.utf16 {
            switch unit {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0x20..<0x7F: out.unicodeScalars.append(Unicode.Scalar(UInt8(unit)))
            default:
                let hex = String(unit, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            }
        }
        return out + "\""
    }

    // MARK: nativejson-benchmark

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func nativeJSONRoundTrips() throws {
        let files = Corpora.files(under: "json/nativejson-benchmark/data/roundtrip", extension: "json")
        #expect(files.count == 27)
        var failed = 0
        for url in files {
            let data = Self.read(url)
            let written = try JSONParser().parse(data).jsonData()
            if written != data {
                failed += 1
                Issue.record("\(url.lastPathComponent): wrote \(String(decoding: written, as: UTF8.self))")
            }
        }
        print("nativejson-benchmark roundtrip: \(files.count - failed) passed, \(failed) failed")
    }

    struct DoubleCase: Decodable, Sendable, CustomTestStringConvertible {
        let json: String
        let expected: String
        // swift-format-ignore: AlwaysUseLowerCamelCase
        let expected_bits: String
        var testDescription: String { String(json.prefix(40)) }
    }

    struct DoubleCases: Decodable {
        let cases: [DoubleCase]
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func nativeJSONDoublesAreCorrectlyRounded() throws {
        let url = try #require(Corpora.url("json/nativejson-benchmark/derived/parse_double_cases.json"))
        let cases = try JSONDecoder().decode(DoubleCases.self, from: Self.read(url)).cases
        #expect(cases.count == 66)
        var failed = 0
        for testCase in cases {
            let expected = try #require(UInt64(testCase.expected_bits.dropFirst(2), radix: 16))
            let value = try JSONParser().parse(Data(testCase.json.utf8))
            let bits = value[0]?.doubleValue?.bitPattern
            if bits != expected {
                failed += 1
                Issue.record(
                    "\(testCase.json.prefix(60)): got \(String(describing: bits)), want \(testCase.expected_bits)")
            }
            // The text is kept exactly.
            #expect(value.jsonData() == Data(testCase.json.utf8))
        }
        print("nativejson-benchmark parse_double_cases: \(cases.count - failed) passed, \(failed) failed")
    }

    struct StringCase: Decodable {
        let json: String
        let expected: String
    }

    struct StringCases: Decodable {
        let cases: [StringCase]
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func nativeJSONStrings() throws {
        let url = try #require(Corpora.url("json/nativejson-benchmark/derived/parse_string_cases.json"))
        let cases = try JSONDecoder().decode(StringCases.self, from: Self.read(url)).cases
        var failed = 0
        for testCase in cases {
            let value = try JSONParser().parse(Data(testCase.json.utf8))
            if value[0]?.stringValue?.unicodeScalars.elementsEqual(testCase.expected.unicodeScalars) != true {
                failed += 1
                Issue.record("\(testCase.json): got \(String(describing: value[0]?.stringValue))")
            }
        }
        print("nativejson-benchmark parse_string_cases: \(cases.count - failed) passed, \(failed) failed")
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func jsonChecker() {
        let files = Corpora.files(under: "json/nativejson-benchmark/data/jsonchecker", extension: "json")
        #expect(files.count == 36)
        var passed = 0
        var failed: [String] = []
        for url in files {
            let name = url.lastPathComponent
            // fail01 is a top-level string (RFC 4627 forbade it, RFC 8259 allows it) and fail18 is nested 20 deep
            // (JSON_checker's own limit): both fail only under those stricter settings.
            var options = JSONParsingOptions(allowsFragments: !name.hasPrefix("fail01"))
            if name.hasPrefix("fail18") { options.maxDepth = 19 }
            let accepted = (try? Self.parse(Self.read(url), options).get()) != nil
            if accepted == name.hasPrefix("pass") {
                passed += 1
            } else {
                failed.append(name)
            }
        }
        print("nativejson-benchmark jsonchecker: \(passed) passed, \(failed.count) failed")
        #expect(failed.isEmpty, "\(failed)")
    }

    // MARK: swift-foundation resources

    static let foundationJSON = "json/swift-foundation-resources/Tests/FoundationEssentialsTests/Resources/JSON"

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
    func foundationPassAndFailFiles() throws {
        let passing = Corpora.files(under: Self.foundationJSON + "/pass", extension: "json")
        let failing = Corpora.files(under: Self.foundationJSON + "/fail", extension: "json")
        #expect(passing.count == 19)
        #expect(failing.count == 40)
        var passed = 0
        var failed: [String] = []
        for url in passing {
            if (try? Self.parse(Self.read(url)).get()) != nil {
                passed += 1
            } else {
                failed.append(url.lastPathComponent)
            }
        }
        // fail1.json is a top-level string: a failure only without fragments, as in Foundation's own test.
        let strict = JSONParsingOptions(allowsFragments: false)
        for url in failing {
            if (try? Self.parse(Self.read(url), strict).get()) == nil {
                passed += 1
            } else {
                failed.append(url.lastPathComponent)
            }
        }
        print("swift-foundation-resources JSON: \(passed) passed, \(failed.count) failed")
        #expect(failed.isEmpty, "\(failed)")
    }

    @Test(
        .enabled(if: Corpora.isAvailable, "needs ../shared/corpora"),
        arguments: ["utf16be", "utf16le", "utf32be", "utf32le"])
    func foundationUTF16And32VariantsEqualUTF8(variant: String) throws {
        let utf8 = try #require(Corpora.url(Self.foundationJSON + "/pass/pass1-utf8.json"))
        let other = try #require(Corpora.url(Self.foundationJSON + "/pass/pass1-\(variant).json"))
        let expected = try JSONParser().parse(Self.read(utf8))
        let value = try JSONParser().parse(Self.read(other))
        #expect(value == expected)
        #expect(value.jsonData() == expected.jsonData())
        // pass1-utf8.json per Python: json.load(open(f))["glossary"]["GlossDiv"]["GlossList"]["GlossEntry"]["ID"]
        #expect(value["glossary"]?["GlossDiv"]?["GlossList"]?["GlossEntry"]?["ID"]?.stringValue == "SGML")
    }

    // MARK: Benchmark documents and simdjson examples, against Python's json module

    struct DocumentStatistics: Sendable, CustomTestStringConvertible {
        let file: String
        let nulls: Int
        let bools: Int
        let numbers: Int
        let strings: Int
        let arrays: Int
        let objects: Int
        /// Object members, all objects together.
        let members: Int
        /// Unicode scalars in all strings and keys.
        let scalars: Int
        var testDescription: String { file }
    }

    enum Expected: Sendable {
        case null
        case bool(Bool)
        case integer(String)
        case double(Double)
        case string(String)
        case stringPrefix(String)
    }

    struct SpotValue: Sendable, CustomTestStringConvertible {
        let file: String
        let path: String
        let expected: Expected
        var testDescription: String { file.split(separator: "/").last! + " " + path }
    }

    // Generated from Python's json module: for each file, v = json.load(open(FILE, encoding='utf-8')); the counts
    // walk v (len() of str for scalars), the spot values are leaves picked with random.Random(8259).
    static let documentStatistics: [DocumentStatistics] = [
        DocumentStatistics(
            file: "nativejson-benchmark/data/twitter.json", nulls: 1946, bools: 2791, numbers: 2109, strings: 4754,
            arrays: 1050, objects: 1264,
            members: 13345, scalars: 304319),
        DocumentStatistics(
            file: "nativejson-benchmark/data/citm_catalog.json", nulls: 1263, bools: 0, numbers: 14392, strings: 735,
            arrays: 10451, objects: 10937,
            members: 25869, scalars: 221205),
        DocumentStatistics(
            file: "nativejson-benchmark/data/canada.json", nulls: 0, bools: 0, numbers: 111126, strings: 4,
            arrays: 56045, objects: 4,
            members: 8, scalars: 90),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/apache_builds.json", nulls: 0, bools: 3, numbers: 2, strings: 2639,
            arrays: 3, objects: 884,
            members: 2650, scalars: 76964),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/canada.json", nulls: 0, bools: 0, numbers: 111126, strings: 4,
            arrays: 56045, objects: 4,
            members: 8, scalars: 90),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/citm_catalog.json", nulls: 1263, bools: 0, numbers: 14392, strings: 735,
            arrays: 10451, objects: 10937,
            members: 25869, scalars: 221205),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/github_events.json", nulls: 24, bools: 64, numbers: 149, strings: 752,
            arrays: 19, objects: 180,
            members: 1139, scalars: 45776),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/google_maps_api_compact_response.json", nulls: 0, bools: 0, numbers: 200,
            strings: 321, arrays: 13, objects: 311,
            members: 714, scalars: 6760),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/google_maps_api_response.json", nulls: 0, bools: 0, numbers: 200,
            strings: 321, arrays: 13, objects: 311,
            members: 714, scalars: 6760),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/gsoc-2018.json", nulls: 0, bools: 0, numbers: 0, strings: 15168,
            arrays: 0, objects: 3793,
            members: 18960, scalars: 2943616),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/instruments.json", nulls: 431, bools: 126, numbers: 4935, strings: 507,
            arrays: 194, objects: 1012,
            members: 6382, scalars: 69760),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/marine_ik.json", nulls: 0, bools: 6, numbers: 245175, strings: 95,
            arrays: 28377, objects: 9680,
            members: 38173, scalars: 126909),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/mesh.json", nulls: 0, bools: 0, numbers: 73013, strings: 0, arrays: 3610,
            objects: 3,
            members: 11, scalars: 92),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/mesh.pretty.json", nulls: 0, bools: 0, numbers: 73013, strings: 0,
            arrays: 3610, objects: 3,
            members: 11, scalars: 92),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/numbers.json", nulls: 0, bools: 0, numbers: 10001, strings: 0, arrays: 1,
            objects: 0,
            members: 0, scalars: 0),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/random.json", nulls: 0, bools: 1000, numbers: 5002, strings: 13001,
            arrays: 1001, objects: 4001,
            members: 20004, scalars: 282302),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/repeat.json", nulls: 0, bools: 0, numbers: 102, strings: 101, arrays: 1,
            objects: 101,
            members: 204, scalars: 2011),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/tree-pretty.json", nulls: 40, bools: 63, numbers: 452, strings: 243,
            arrays: 84, objects: 115,
            members: 954, scalars: 8456),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/twitter.json", nulls: 1946, bools: 2791, numbers: 2109, strings: 4754,
            arrays: 1050, objects: 1264,
            members: 13345, scalars: 304319),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/twitter_api_compact_response.json", nulls: 0, bools: 76, numbers: 62,
            strings: 130, arrays: 21, objects: 34,
            members: 290, scalars: 7874),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/twitter_api_response.json", nulls: 36, bools: 76, numbers: 62,
            strings: 130, arrays: 35, objects: 34,
            members: 340, scalars: 8544),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/twitter_timeline.json", nulls: 243, bools: 278, numbers: 215,
            strings: 461, arrays: 74, objects: 77,
            members: 1291, scalars: 30767),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/twitterescaped.json", nulls: 1946, bools: 2791, numbers: 2109,
            strings: 4754, arrays: 1050, objects: 1264,
            members: 13345, scalars: 304319),
        DocumentStatistics(
            file: "simdjson-data/jsonexamples/update-center.json", nulls: 0, bools: 386, numbers: 0, strings: 12510,
            arrays: 1937, objects: 1896,
            members: 14719, scalars: 440825),
    ]

    static let spotValues: [SpotValue] = [
        SpotValue(
            file: "nativejson-benchmark/data/twitter.json", path: "statuses/8/user/friends_count",
            expected: .integer("121")),
        SpotValue(
            file: "nativejson-benchmark/data/twitter.json", path: "statuses/24/retweeted_status/user/time_zone",
            expected: .null),
        SpotValue(
            file: "nativejson-benchmark/data/twitter.json", path: "statuses/75/metadata/result_type",
            expected: .string("recent")),
        SpotValue(
            file: "nativejson-benchmark/data/twitter.json",
            path: "statuses/85/retweeted_status/user/profile_link_color", expected: .string("0084B4")),
        SpotValue(
            file: "nativejson-benchmark/data/twitter.json", path: "statuses/0/id",
            expected: .integer("505874924095815700")),
        SpotValue(
            file: "nativejson-benchmark/data/twitter.json", path: "statuses/0/text",
            expected: .stringPrefix("@aym0566x \u{a}\u{a}名前:前田あゆみ\u{a}第一印象:なんか怖")),
        SpotValue(
            file: "nativejson-benchmark/data/twitter.json", path: "search_metadata/completed_in",
            expected: .double(0.087)),
        SpotValue(file: "nativejson-benchmark/data/citm_catalog.json", path: "events/138586905/logo", expected: .null),
        SpotValue(
            file: "nativejson-benchmark/data/citm_catalog.json", path: "performances/86/venueCode",
            expected: .string("PLEYEL_PLEYEL")),
        SpotValue(
            file: "nativejson-benchmark/data/citm_catalog.json", path: "performances/96/seatMapImage", expected: .null),
        SpotValue(
            file: "nativejson-benchmark/data/citm_catalog.json",
            path: "performances/151/seatCategories/4/areas/3/areaId", expected: .integer("205706007")),
        SpotValue(
            file: "nativejson-benchmark/data/citm_catalog.json", path: "areaNames/205705993",
            expected: .string("Arrière-scène central")),
        SpotValue(
            file: "nativejson-benchmark/data/citm_catalog.json", path: "performances/0/start",
            expected: .integer("1372701600000")),
        SpotValue(
            file: "nativejson-benchmark/data/canada.json", path: "features/0/geometry/coordinates/88/200/1",
            expected: .double(53.139160000000004)),
        SpotValue(
            file: "nativejson-benchmark/data/canada.json", path: "features/0/geometry/coordinates/230/97/1",
            expected: .double(65.20387300000004)),
        SpotValue(
            file: "nativejson-benchmark/data/canada.json", path: "features/0/geometry/coordinates/406/7904/0",
            expected: .double(-75.57084700000001)),
        SpotValue(
            file: "nativejson-benchmark/data/canada.json", path: "features/0/geometry/coordinates/479/2199/0",
            expected: .double(-84.96028100000001)),
        SpotValue(
            file: "nativejson-benchmark/data/canada.json", path: "features/0/geometry/coordinates/0/0/0",
            expected: .double(-65.61361699999998)),
        SpotValue(file: "nativejson-benchmark/data/canada.json", path: "type", expected: .string("FeatureCollection")),
        SpotValue(
            file: "simdjson-data/jsonexamples/apache_builds.json", path: "jobs/21/name",
            expected: .string("Apache Wicket 1.4.x")),
        SpotValue(
            file: "simdjson-data/jsonexamples/apache_builds.json", path: "jobs/104/url",
            expected: .string("https://builds.apache.org/job/cloudstack-javelin/")),
        SpotValue(
            file: "simdjson-data/jsonexamples/apache_builds.json", path: "jobs/323/name",
            expected: .string("HBase-0.94-deploy")),
        SpotValue(
            file: "simdjson-data/jsonexamples/apache_builds.json", path: "jobs/635/color", expected: .string("blue")),
        SpotValue(
            file: "simdjson-data/jsonexamples/canada.json", path: "features/0/geometry/coordinates/8/157/0",
            expected: .double(-60.30999799999995)),
        SpotValue(
            file: "simdjson-data/jsonexamples/canada.json", path: "features/0/geometry/coordinates/380/3585/0",
            expected: .double(-92.29110700000001)),
        SpotValue(
            file: "simdjson-data/jsonexamples/canada.json", path: "features/0/geometry/coordinates/382/31/1",
            expected: .double(48.267211999999915)),
        SpotValue(
            file: "simdjson-data/jsonexamples/canada.json", path: "features/0/geometry/coordinates/444/1106/0",
            expected: .double(-109.91944899999993)),
        SpotValue(
            file: "simdjson-data/jsonexamples/citm_catalog.json",
            path: "performances/131/prices/4/audienceSubCategoryId", expected: .integer("337100890")),
        SpotValue(
            file: "simdjson-data/jsonexamples/citm_catalog.json",
            path: "performances/132/seatCategories/1/areas/6/areaId", expected: .integer("205706002")),
        SpotValue(
            file: "simdjson-data/jsonexamples/citm_catalog.json",
            path: "performances/151/seatCategories/1/areas/2/areaId", expected: .integer("205706006")),
        SpotValue(
            file: "simdjson-data/jsonexamples/citm_catalog.json",
            path: "performances/165/seatCategories/1/areas/8/areaId", expected: .integer("205706007")),
        SpotValue(
            file: "simdjson-data/jsonexamples/github_events.json", path: "5/payload/commits/0/sha",
            expected: .string("bbbb56de64cb3c7c1d174546fb4e340c75bb8c0c")),
        SpotValue(
            file: "simdjson-data/jsonexamples/github_events.json", path: "18/payload/push_id",
            expected: .integer("134107873")),
        SpotValue(
            file: "simdjson-data/jsonexamples/github_events.json", path: "22/created_at",
            expected: .string("2013-01-10T07:58:18Z")),
        SpotValue(
            file: "simdjson-data/jsonexamples/github_events.json", path: "24/payload/forkee/issue_comment_url",
            expected: .stringPrefix("https://api.github.com/repos/slwchs/HandlerSocket-Plugin-for")),
        SpotValue(
            file: "simdjson-data/jsonexamples/google_maps_api_compact_response.json",
            path: "rows/3/elements/8/distance/text", expected: .string("385 km")),
        SpotValue(
            file: "simdjson-data/jsonexamples/google_maps_api_compact_response.json",
            path: "rows/8/elements/3/distance/text", expected: .string("385 km")),
        SpotValue(
            file: "simdjson-data/jsonexamples/google_maps_api_compact_response.json",
            path: "rows/9/elements/7/distance/value", expected: .integer("739719")),
        SpotValue(
            file: "simdjson-data/jsonexamples/google_maps_api_compact_response.json", path: "status",
            expected: .string("OK")),
        SpotValue(
            file: "simdjson-data/jsonexamples/google_maps_api_response.json", path: "rows/0/elements/8/duration/value",
            expected: .integer("82371")),
        SpotValue(
            file: "simdjson-data/jsonexamples/google_maps_api_response.json", path: "rows/1/elements/4/duration/value",
            expected: .integer("19738")),
        SpotValue(
            file: "simdjson-data/jsonexamples/google_maps_api_response.json", path: "rows/2/elements/5/status",
            expected: .string("OK")),
        SpotValue(
            file: "simdjson-data/jsonexamples/google_maps_api_response.json", path: "rows/3/elements/8/distance/text",
            expected: .string("385 km")),
        SpotValue(
            file: "simdjson-data/jsonexamples/gsoc-2018.json", path: "683/author/name",
            expected: .string("Anirudh Singh")),
        SpotValue(
            file: "simdjson-data/jsonexamples/gsoc-2018.json", path: "762/sponsor/url",
            expected: .string("https://debian.org")),
        SpotValue(
            file: "simdjson-data/jsonexamples/gsoc-2018.json", path: "811/author/@type", expected: .string("Person")),
        SpotValue(
            file: "simdjson-data/jsonexamples/gsoc-2018.json", path: "1127/author/name",
            expected: .string("Raphaël Zumer")),
        SpotValue(
            file: "simdjson-data/jsonexamples/instruments.json", path: "instruments/38/panning_envelope/nodes/1/tick",
            expected: .integer("10")),
        SpotValue(
            file: "simdjson-data/jsonexamples/instruments.json", path: "instruments/55/pitch_envelope/sustain_end",
            expected: .integer("0")),
        SpotValue(file: "simdjson-data/jsonexamples/instruments.json", path: "patterns/27/name", expected: .string("")),
        SpotValue(
            file: "simdjson-data/jsonexamples/instruments.json", path: "samples/1/global_volume",
            expected: .integer("64")),
        SpotValue(
            file: "simdjson-data/jsonexamples/marine_ik.json", path: "geometries/0/data/uvs/0/3541",
            expected: .double(0.784088)),
        SpotValue(
            file: "simdjson-data/jsonexamples/marine_ik.json",
            path: "geometries/0/data/animations/0/hierarchy/24/keys/6/scl/2", expected: .integer("1")),
        SpotValue(
            file: "simdjson-data/jsonexamples/marine_ik.json", path: "geometries/0/data/faces/18135",
            expected: .integer("1649")),
        SpotValue(
            file: "simdjson-data/jsonexamples/marine_ik.json", path: "geometries/0/data/faces/65033",
            expected: .integer("5103")),
        SpotValue(
            file: "simdjson-data/jsonexamples/mesh.json", path: "positions/5521", expected: .double(2.30176448822)),
        SpotValue(file: "simdjson-data/jsonexamples/mesh.json", path: "colors/3126", expected: .integer("4278190080")),
        SpotValue(file: "simdjson-data/jsonexamples/mesh.json", path: "indices/32363", expected: .integer("3503")),
        SpotValue(file: "simdjson-data/jsonexamples/mesh.json", path: "indices/32811", expected: .integer("3543")),
        SpotValue(
            file: "simdjson-data/jsonexamples/mesh.pretty.json", path: "indices/14150", expected: .integer("1537")),
        SpotValue(
            file: "simdjson-data/jsonexamples/mesh.pretty.json", path: "indices/16981", expected: .integer("1842")),
        SpotValue(
            file: "simdjson-data/jsonexamples/mesh.pretty.json", path: "indices/25732", expected: .integer("2796")),
        SpotValue(
            file: "simdjson-data/jsonexamples/mesh.pretty.json", path: "positions/2439",
            expected: .double(-0.166119664907)),
        SpotValue(file: "simdjson-data/jsonexamples/numbers.json", path: "2823", expected: .double(0.559034759887)),
        SpotValue(file: "simdjson-data/jsonexamples/numbers.json", path: "4028", expected: .double(0.825160948358)),
        SpotValue(file: "simdjson-data/jsonexamples/numbers.json", path: "4726", expected: .double(0.57159871102)),
        SpotValue(file: "simdjson-data/jsonexamples/numbers.json", path: "9394", expected: .double(0.583518425418)),
        SpotValue(
            file: "simdjson-data/jsonexamples/random.json", path: "result/151/friends/0/phone",
            expected: .string("+70955029662")),
        SpotValue(
            file: "simdjson-data/jsonexamples/random.json", path: "result/232/friends/0/name",
            expected: .string("Филипп Литвинов")),
        SpotValue(
            file: "simdjson-data/jsonexamples/random.json", path: "result/277/friends/0/phone",
            expected: .string("+70955100057")),
        SpotValue(
            file: "simdjson-data/jsonexamples/random.json", path: "result/946/name", expected: .string("Гордей Соколов")
        ),
        SpotValue(
            file: "simdjson-data/jsonexamples/repeat.json", path: "result/13/name",
            expected: .string("Константин Павлов")),
        SpotValue(file: "simdjson-data/jsonexamples/repeat.json", path: "result/19/id", expected: .integer("20")),
        SpotValue(
            file: "simdjson-data/jsonexamples/repeat.json", path: "result/56/name", expected: .string("Даниил Соколов")),
        SpotValue(file: "simdjson-data/jsonexamples/repeat.json", path: "result/78/id", expected: .integer("79")),
        SpotValue(
            file: "simdjson-data/jsonexamples/tree-pretty.json", path: "nodes/0/nodes/0/nodes/0/orientation",
            expected: .string("none")),
        SpotValue(
            file: "simdjson-data/jsonexamples/tree-pretty.json", path: "nodes/1/nodes/1/workspace_layout",
            expected: .string("default")),
        SpotValue(
            file: "simdjson-data/jsonexamples/tree-pretty.json", path: "nodes/1/nodes/1/window_rect/height",
            expected: .integer("0")),
        SpotValue(
            file: "simdjson-data/jsonexamples/tree-pretty.json",
            path: "nodes/1/nodes/1/nodes/1/nodes/1/window_rect/height", expected: .integer("1038")),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter.json", path: "statuses/4/retweeted_status/user/url",
            expected: .null),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter.json", path: "statuses/13/user/statuses_count",
            expected: .integer("209")),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter.json",
            path: "statuses/16/retweeted_status/user/profile_use_background_image", expected: .bool(true)),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter.json", path: "statuses/28/retweeted_status/user/default_profile",
            expected: .bool(true)),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter_api_compact_response.json", path: "0/user/verified",
            expected: .bool(true)),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter_api_compact_response.json", path: "1/user/utc_offset",
            expected: .integer("-25200")),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter_api_compact_response.json", path: "1/user/contributors_enabled",
            expected: .bool(false)),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter_api_compact_response.json",
            path: "1/retweeted_status/user/friends_count", expected: .integer("661")),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter_api_response.json", path: "0/entities/urls/0/url",
            expected: .string("https://t.co/XweGngmxlP")),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter_api_response.json",
            path: "0/retweeted_status/user/profile_background_image_url_https",
            expected: .string("https://abs.twimg.com/images/themes/theme1/bg.png")),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter_api_response.json", path: "0/retweeted", expected: .bool(false)),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter_api_response.json",
            path: "1/retweeted_status/user/profile_background_image_url",
            expected: .stringPrefix("http://pbs.twimg.com/profile_background_images/662767273/jvm")),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter_timeline.json", path: "0/user/show_all_inline_media",
            expected: .bool(false)),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitter_timeline.json", path: "1/in_reply_to_screen_name", expected: .null
        ),
        SpotValue(file: "simdjson-data/jsonexamples/twitter_timeline.json", path: "6/contributors", expected: .null),
        SpotValue(file: "simdjson-data/jsonexamples/twitter_timeline.json", path: "16/user/following", expected: .null),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitterescaped.json", path: "statuses/26/user/profile_sidebar_fill_color",
            expected: .string("DDEEF6")),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitterescaped.json",
            path: "statuses/29/retweeted_status/user/geo_enabled", expected: .bool(false)),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitterescaped.json", path: "statuses/54/user/lang",
            expected: .string("ja")),
        SpotValue(
            file: "simdjson-data/jsonexamples/twitterescaped.json", path: "statuses/57/user/profile_background_tile",
            expected: .bool(true)),
        SpotValue(
            file: "simdjson-data/jsonexamples/update-center.json", path: "plugins/collabnet/sha1",
            expected: .string("hHH49XM2bW5GG6W6OqbIrkD2KM8=")),
        SpotValue(
            file: "simdjson-data/jsonexamples/update-center.json", path: "plugins/logfilesizechecker/excerpt",
            expected: .string("Aborts a build if its log file gets too big.")),
        SpotValue(
            file: "simdjson-data/jsonexamples/update-center.json", path: "plugins/maven-info/releaseTimestamp",
            expected: .string("2011-04-12T03:38:06.00Z")),
        SpotValue(
            file: "simdjson-data/jsonexamples/update-center.json", path: "plugins/pollscm/developers/0/name",
            expected: .string("Vincent Latombe")),
    ]

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"), arguments: documentStatistics)
    func documentsParseWithPythonsStatistics(expected: DocumentStatistics) throws {
        let url = try #require(Corpora.url("json/" + expected.file))
        let root = try JSONParser().parse(Self.read(url))
        var counts = (nulls: 0, bools: 0, numbers: 0, strings: 0, arrays: 0, objects: 0, members: 0, scalars: 0)
        var stack = [root]
        while let value = stack.popLast() {
            switch value.kind {
            case .null: counts.nulls += 1
            case .bool: counts.bools += 1
            case .number: counts.numbers += 1
            case .string:
                counts.strings += 1
                counts.scalars += value.stringValue!.unicodeScalars.count
            case .array:
                counts.arrays += 1
                stack.append(contentsOf: value.elements)
            case .object:
                counts.objects += 1
                counts.members += value.count
                for member in value.members {
                    counts.scalars += member.key.unicodeScalars.count
                    stack.append(member.value)
                }
            }
        }
        #expect(counts.nulls == expected.nulls)
        #expect(counts.bools == expected.bools)
        #expect(counts.numbers == expected.numbers)
        #expect(counts.strings == expected.strings)
        #expect(counts.arrays == expected.arrays)
        #expect(counts.objects == expected.objects)
        #expect(counts.members == expected.members)
        #expect(counts.scalars == expected.scalars)
        // Writing back and parsing again gives the same value.
        #expect(try JSONParser().parse(root.jsonData()) == root)
    }

    @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"), arguments: spotValues)
    func spotValuesMatchPython(spot: SpotValue) throws {
        let url = try #require(Corpora.url("json/" + spot.file))
        var value: JSONValue? = try JSONParser().parse(Self.read(url))
        for component in spot.path.split(separator: "/", omittingEmptySubsequences: false) {
            if value?.kind == .array, let index = Int(component) {
                value = value?[index]
            } else {
                value = value?[String(component)]
            }
        }
        let found = try #require(value)
        switch spot.expected {
        case .null: #expect(found.isNull)
        case .bool(let expected): #expect(found.boolValue == expected)
        case .integer(let text):
            #expect(found.numberValue?.text == text)
            #expect(found.intValue == Int(text))
        case .double(let expected): #expect(found.doubleValue == expected)
        case .string(let expected):
            #expect(found.stringValue?.unicodeScalars.elementsEqual(expected.unicodeScalars) == true)
        case .stringPrefix(let expected):
            #expect(found.stringValue?.unicodeScalars.starts(with: expected.unicodeScalars) == true)
        }
    }
}
