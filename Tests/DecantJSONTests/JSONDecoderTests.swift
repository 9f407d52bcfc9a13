import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantJSON

/// `JSONValueDecoder` against Foundation's `JSONDecoder` on the same inputs: same values, same success or failure.
@Suite struct JSONDecoderTests {
    // MARK: - Scalars

    /// The scalar types `Decodable` containers have dedicated methods for, plus `Decimal`.
    enum Scalar: String, CaseIterable, CustomTestStringConvertible {
        case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, double, float, decimal, bool, string

        var testDescription: String { rawValue }

        /// Decodes `json` as the type at the top level, in an array, as a member and as an optional member.
        func check(_ json: String) {
            switch self {
            case .int: Self.check(Int.self, json)
            case .int8: Self.check(Int8.self, json)
            case .int16: Self.check(Int16.self, json)
            case .int32: Self.check(Int32.self, json)
            case .int64: Self.check(Int64.self, json)
            case .uint: Self.check(UInt.self, json)
            case .uint8: Self.check(UInt8.self, json)
            case .uint16: Self.check(UInt16.self, json)
            case .uint32: Self.check(UInt32.self, json)
            case .uint64: Self.check(UInt64.self, json)
            case .double: Self.check(Double.self, json)
            case .float: Self.check(Float.self, json)
            case .decimal: Self.check(Decimal.self, json)
            case .bool: Self.check(Bool.self, json)
            case .string: Self.check(String.self, json)
            }
        }

        static func check<T: Codable & Equatable>(_ type: T.Type, _ json: String) {
            DecodingOracle.expectAgreement(T.self, json)
            DecodingOracle.expectAgreement([T].self, "[\(json)]")
            DecodingOracle.expectAgreement([T].self, "[\(json), \(json)]")
            DecodingOracle.expectAgreement(Wrapper<T>.self, #"{"v": \#(json)}"#)
            DecodingOracle.expectAgreement(OptionalWrapper<T>.self, #"{"v": \#(json)}"#)
            DecodingOracle.expectAgreement([T?].self, "[\(json), null]")
            DecodingOracle.expectAgreement([String: T].self, #"{"a": \#(json)}"#)
        }
    }

    /// Numbers at every boundary of the integer and floating-point types, fractions and exponents, values beyond
    /// `Double` and `Decimal`, and the other kinds of value.
    static let scalarTexts = [
        "0", "-0", "1", "-1", "127", "128", "-128", "-129", "255", "256", "32767", "32768", "-32769", "65535", "65536",
        "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296", "576460752303423487",
        "576460752303423488", "-576460752303423489", "9007199254740993", "9223372036854775807", "9223372036854775808",
        "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
        "123456789012345678901234567890", "1.0", "-0.0", "0.5", "1.5", "-1.5", "1e2", "1E2", "1e+2", "1e-2",
        "100e-2", "1.0e0", "0.1", "0.30000000000000004", "1e20", "1e-400", "-1e-400", "0e400", "1e400", "-1e400",
        "9007199254740993.0", "9007199254740993.5", "-9007199254740993.5", "9223372036854775000.0",
        "1.8446744073709551615e19", "90071992547409930000000e-7", "1.0000000000000001", "1.7976931348623157e308",
        "1.7976931348623159e308", "2.2250738585072014e-308", "4.9e-324", "5e-324", "2e-324", "3.4028235e38",
        "3.4028236e38", "3.4028235677973366e38", "1.17549435e-38", "1e-45", "1e-46", "16777217", "16777217.0",
        "1.00000000000000011102230246251565404236316680908203125", "0.1e-130", "1e127", "1e128", "1e-128",
        "3.14159265358979323846264338327950288419716939937510", "true", "false", "null", #""1""#, #""abc""#,
        #""""#, #""é\n\u00e9\ud83d\ude00""#, "[]", "{}", "[1]", #"{"a":1}"#,
    ]

    @Test(arguments: Scalar.allCases)
    func scalarsMatchJSONDecoder(_ scalar: Scalar) {
        for text in Self.scalarTexts { scalar.check(text) }
    }

    @Test func randomNumbersMatchJSONDecoder() {
        var generator = SplitMix64(state: 0xDEC0DE)
        for _ in 0..<3000 {
            let digits = Int.random(in: 1...22, using: &generator)
            var text = Bool.random(using: &generator) ? "-" : ""
            text += String(Int.random(in: 1...9, using: &generator))
            for _ in 1..<digits { text += String(Int.random(in: 0...9, using: &generator)) }
            switch Int.random(in: 0..<4, using: &generator) {
            case 0:
                text.insert(
                    ".", at: text.index(text.endIndex, offsetBy: -Int.random(in: 0..<digits, using: &generator)))
            case 1: text += "e\(Int.random(in: -30...30, using: &generator))"
            case 2: text += ".0"
            default: break
            }
            if text.hasSuffix(".") { text += "0" }
            if text.hasPrefix("-.") || text.hasPrefix(".") { continue }
            for scalar in [Scalar.int, .int32, .uint64, .double, .float, .decimal] {
                switch scalar {
                case .int: DecodingOracle.expectAgreement(Int.self, text)
                case .int32: DecodingOracle.expectAgreement([Int32].self, "[\(text)]")
                case .uint64: DecodingOracle.expectAgreement(Wrapper<UInt64>.self, #"{"v":\#(text)}"#)
                case .double: DecodingOracle.expectAgreement([Double].self, "[\(text)]")
                case .float: DecodingOracle.expectAgreement(Float.self, text)
                default: DecodingOracle.expectAgreement(Decimal.self, text)
                }
            }
        }
    }

    @Test func largeIntegersMatchJSONDecoder() {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            for text in [
                "0", "-1", "170141183460469231731687303715884105727", "170141183460469231731687303715884105728",
                "-170141183460469231731687303715884105728", "340282366920938463463374607431768211455", "1e30", "1.5",
                "18446744073709551616", "\"1\"", "null",
            ] {
                DecodingOracle.expectAgreement(Int128.self, text)
                DecodingOracle.expectAgreement(UInt128.self, text)
                DecodingOracle.expectAgreement(Wrapper<Int128>.self, #"{"v":\#(text)}"#)
                DecodingOracle.expectAgreement([UInt128].self, "[\(text)]")
            }
        }
    }

    // MARK: - Structure

    struct Address: Codable, Equatable {
        var street: String
        var zip: String?
        var number: Int?
    }

    struct Person: Codable, Equatable {
        var name: String
        var age: Int
        var nickname: String?
        var tags: [String]
        var addresses: [Address]
        var scores: [String: Double]
        var matrix: [[Int]]
        var flags: [Bool?]
        var nested: [String: [Address]]?
    }

    static let people = [
        #"{"name":"Ada","age":36,"nickname":null,"tags":["a","b"],"addresses":[{"street":"x","zip":"1"}],"#
            + #""scores":{"m":1.5,"n":-2},"matrix":[[1,2],[],[3]],"flags":[true,null,false]}"#,
        #"{"age":36,"name":"Ada","tags":[],"addresses":[],"scores":{},"matrix":[],"flags":[],"#
            + #""nested":{"home":[{"street":"y","number":4}]}}"#,
        #"{"name":"Ada","age":36,"tags":[],"addresses":[{"street":"x","zip":5}],"scores":{},"matrix":[],"flags":[]}"#,
        #"{"name":"Ada","age":36.5,"tags":[],"addresses":[],"scores":{},"matrix":[],"flags":[]}"#,
        #"{"name":"Ada","tags":[],"addresses":[],"scores":{},"matrix":[],"flags":[]}"#,
        #"{"name":"Ada","age":null,"tags":[],"addresses":[],"scores":{},"matrix":[],"flags":[]}"#,
        #"{"name":"Ada","age":1,"tags":[1],"addresses":[],"scores":{},"matrix":[],"flags":[]}"#,
        #"{"name":"Ada","age":1,"tags":[],"addresses":{},"scores":{},"matrix":[],"flags":[]}"#,
        #"{"name":"Ada","age":1,"tags":[],"addresses":[],"scores":[],"matrix":[],"flags":[]}"#,
        #"{"name":"Ada","age":1,"tags":[],"addresses":[],"scores":{},"matrix":[[1,"2"]],"flags":[]}"#,
        #"{"name":"Ada","age":1,"tags":[],"addresses":[null],"scores":{},"matrix":[],"flags":[]}"#,
        #"{"name":"Ada","age":1,"tags":null,"addresses":[],"scores":{},"matrix":[],"flags":[1]}"#,
        #"[{"name":"Ada"}]"#, "null", "1", #""x""#,
    ]

    @Test(arguments: people)
    func structuresMatchJSONDecoder(_ json: String) {
        DecodingOracle.expectAgreement(Person.self, json)
        DecodingOracle.expectAgreement([Person].self, "[\(json)]")
        DecodingOracle.expectAgreement(Wrapper<Person?>.self, #"{"v":\#(json)}"#)
    }

    @Test func membersInAnyOrderAndLargeObjectsMatchJSONDecoder() {
        // 40 members in document order, in reverse and shuffled, with some absent: hints, scans and tables.
        struct Wide: Codable, Equatable {
            var values: [String: Int]
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: AnyKey.self)
                values = [:]
                for name in (0..<48).map({ "key\($0)" }).reversed() {
                    values[name] = try container.decodeIfPresent(Int.self, forKey: AnyKey(name))
                }
                for name in ["key3", "key30", "key7", "key47", "key0"] {
                    values[name + "!"] = try container.decodeIfPresent(Int.self, forKey: AnyKey(name))
                }
            }
            func encode(to encoder: any Encoder) throws {}
        }
        var generator = SplitMix64(state: 7)
        for count in [0, 1, 5, 16, 17, 40] {
            var members = (0..<count).map { #""key\#($0)":\#($0)"# }
            for _ in 0..<3 {
                DecodingOracle.expectAgreement(Wide.self, "{" + members.joined(separator: ",") + "}")
                members.shuffle(using: &generator)
            }
        }
    }

    // MARK: - Keys

    struct SnakeModel: Codable, Equatable {
        var userId: Int
        var firstName: String?
        var _private: Int?
        var urlString: String?
        var httpStatusCode: Int?
        var x: Int?
        var already_snake: Int?
        var aBC: Int?
    }

    @Test(arguments: [
        #"{"user_id": 1, "first_name": "A", "_private": 2, "url_string": "u", "http_status_code": 200}"#,
        #"{"userId": 1, "user_id": 2}"#, #"{"user_id": 2, "userId": 1}"#, #"{"USER_ID": 3, "FIRST_NAME": "B"}"#,
        #"{"user__id": 4, "x": 5, "a_b_c": 6, "already_snake": 7}"#, #"{"_user_id_": 8}"#, #"{"user_id": "1"}"#,
        #"{"first_name": "A"}"#, #"{"user_id": 1, "a_b_c": 1, "aBC": 2}"#,
    ])
    func snakeCaseKeysMatchJSONDecoder(_ json: String) {
        let (ours, foundation) = DecodingOracle.pair { ours, foundation in
            ours.keyDecodingStrategy = .convertFromSnakeCase
            foundation.keyDecodingStrategy = .convertFromSnakeCase
        }
        DecodingOracle.expectAgreement(SnakeModel.self, json, ours: ours, foundation: foundation)
        DecodingOracle.expectAgreement([SnakeModel].self, "[\(json)]", ours: ours, foundation: foundation)
        // Dictionaries keep their keys as they are.
        DecodingOracle.expectAgreement([String: Int].self, #"{"a_b": 1, "c_d": 2}"#, ours: ours, foundation: foundation)
        DecodingOracle.expectAgreement(
            Wrapper<[String: [String: Int]]>.self, #"{"v": {"a_b": {"c_d": 1}}}"#, ours: ours, foundation: foundation)
    }

    /// The converted keys of an object and the value of each.
    struct KeyMap: Decodable, Equatable {
        var values: [String: Int]
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyKey.self)
            values = [:]
            for key in container.allKeys {
                values[key.stringValue] = try container.decode(Int.self, forKey: key)
                guard container.contains(key) else {
                    throw DecodingError.keyNotFound(key, .init(codingPath: [], debugDescription: ""))
                }
            }
            if container.contains(AnyKey("absent")) { values["absent"] = -1 }
        }
    }

    @Test func randomSnakeCaseKeysMatchJSONDecoder() {
        // Words, underscores, digits, case-ignorable and word-breaking punctuation, and letters whose case mappings
        // are not one-to-one.
        let pieces = [
            "a", "b", "Z", "Q", "_", "__", "1", "é", "É", "ß", "'", "^", "`", "-", ".", ":", "Σ", "ǆ", "ǅ", "İ", "ı",
            " ", "x", "ab", "CD", "\u{301}", "ŉ", "😀", "ﬁ", "’", "·",
        ]
        var generator = SplitMix64(state: 0x5_4A4E)
        let (ours, foundation) = DecodingOracle.pair { ours, foundation in
            ours.keyDecodingStrategy = .convertFromSnakeCase
            foundation.keyDecodingStrategy = .convertFromSnakeCase
        }
        for round in 0..<300 {
            var keys: [String] = []
            for _ in 0..<Int.random(in: 1...(round % 3 == 0 ? 30 : 8), using: &generator) {
                var key = ""
                for _ in 0..<Int.random(in: 0...6, using: &generator) {
                    key += pieces.randomElement(using: &generator)!
                }
                keys.append(key)
            }
            let members = keys.enumerated().map { index, key in
                "\"\(key.replacingOccurrences(of: "\"", with: "\\\""))\": \(index)"
            }
            let json = "{" + members.joined(separator: ", ") + "}"
            // Repeated keys: JSONDecoder keeps the first, Decant's parser the last (deliberately); skip them.
            guard Set(keys).count == keys.count else { continue }
            DecodingOracle.expectAgreement(KeyMap.self, json, ours: ours, foundation: foundation)
        }
        for key in [
            "a_b", "_a_b_", "__a__b__", "ABC_DEF", "a__b", "___", "", "a_1b", "a_b-c", "a_b c", "a_bC_d", "é_é",
        ] {
            #expect(SnakeCase.convert(key) == Self.foundationConversion(key), "\(key)")
        }
    }

    /// The key `JSONDecoder` converts `key` to.
    static func foundationConversion(_ key: String) -> String {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        let json = Data("{\"\(key)\": 1}".utf8)
        return (try? decoder.decode(KeyMap.self, from: json))?.values.keys.first ?? "?"
    }

    @Test func customKeyStrategyMatchesJSONDecoder() {
        // Upper-cases the last component and records the paths it saw.
        let convert: @Sendable ([any CodingKey]) -> any CodingKey = { path in
            AnyKey(path.last!.stringValue.uppercased() + "\(path.count)")
        }
        let (ours, foundation) = DecodingOracle.pair { ours, foundation in
            ours.keyDecodingStrategy = .custom(convert)
            foundation.keyDecodingStrategy = .custom(convert)
        }
        struct Custom: Codable, Equatable {
            struct Inner: Codable, Equatable {
                var B2: Int
            }
            var A1: Int
            var N1: [Inner]
            var D1: [String: Int]?
        }
        for json in [
            #"{"a": 1, "n": [{"b": 2}, {"b": 3}]}"#, #"{"a": 1, "A": 5, "n": []}"#, #"{"a": 1, "n": [{"c": 2}]}"#,
            #"{"a": 1, "n": [], "d": {"x_y": 1}}"#, #"{"A1": 1, "n": []}"#,
        ] {
            DecodingOracle.expectAgreement(Custom.self, json, ours: ours, foundation: foundation)
        }
        DecodingOracle.expectAgreement(KeyMap.self, #"{"a": 1, "b": 2, "A": 3}"#, ours: ours, foundation: foundation)
    }

    // MARK: - Dates

    @Test func numericDateStrategiesMatchJSONDecoder() {
        let strategies: [(JSONValueDecoder.DateDecodingStrategy, JSONDecoder.DateDecodingStrategy)] = [
            (.deferredToDate, .deferredToDate), (.secondsSince1970, .secondsSince1970),
            (.millisecondsSince1970, .millisecondsSince1970),
        ]
        for (mine, theirs) in strategies {
            let (ours, foundation) = DecodingOracle.pair { ours, foundation in
                ours.dateDecodingStrategy = mine
                foundation.dateDecodingStrategy = theirs
            }
            for json in [
                "0", "1.5", "-1e3", "1700000000123", "1e400", "null", #""2024-01-01T00:00:00Z""#, "[1]", "true",
            ] {
                DecodingOracle.expectAgreement(Date.self, json, ours: ours, foundation: foundation)
                DecodingOracle.expectAgreement([Date].self, "[\(json)]", ours: ours, foundation: foundation)
                DecodingOracle.expectAgreement(
                    OptionalWrapper<Date>.self, #"{"v": \#(json)}"#, ours: ours, foundation: foundation)
            }
        }
    }

    static let isoDates = [
        "2024-01-02T03:04:05Z", "2024-01-02T03:04:05+01:00", "2024-01-02T03:04:05-23:30", "2024-01-02T03:04:05+0100",
        "2024-01-02T03:04:05.123Z", "2024-01-02T03:04:05.5+01:00", "2024-01-02T03:04:05.123456789Z",
        "2024-01-02 03:04:05Z", "2024-01-02t03:04:05z", "20240102T030405Z", "2024-01-02T03:04:05", "2024-01-02",
        "2024-01-02T03:04Z", "2024-13-02T03:04:05Z", "2024-02-30T03:04:05Z", "2024-01-02T24:00:00Z",
        "2024-01-02T03:04:60Z", "2024-01-02T03:04:05GMT", "+2024-01-02T03:04:05Z", "1582-10-10T00:00:00Z",
        "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2024-1-2T3:4:5Z", " 2024-01-02T03:04:05Z",
        "2024-01-02T03:04:05Z ", "2024-01-02T03:04:05.Z", "2024-01-02T03:04:05,5Z", "", "yesterday",
    ]

    @Test(arguments: isoDates)
    func iso8601DatesMatchJSONDecoder(_ date: String) {
        let (ours, foundation) = DecodingOracle.pair { ours, foundation in
            ours.dateDecodingStrategy = .iso8601
            foundation.dateDecodingStrategy = .iso8601
        }
        DecodingOracle.expectAgreement(Date.self, "\"\(date)\"", ours: ours, foundation: foundation)
        DecodingOracle.expectAgreement(Wrapper<Date>.self, #"{"v": "\#(date)"}"#, ours: ours, foundation: foundation)
        // With fractional seconds, against JSONDecoder with the same format style in a custom strategy.
        let (fractional, custom) = DecodingOracle.pair { ours, foundation in
            ours.dateDecodingStrategy = .iso8601WithFractionalSeconds
            foundation.dateDecodingStrategy = .custom { decoder in
                let text = try decoder.singleValueContainer().decode(String.self)
                return try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
            }
        }
        DecodingOracle.expectAgreement([Date].self, "[\"\(date)\"]", ours: fractional, foundation: custom)
    }

    @Test func isoDatesOfOtherKindsMatchJSONDecoder() {
        let (ours, foundation) = DecodingOracle.pair { ours, foundation in
            ours.dateDecodingStrategy = .iso8601
            foundation.dateDecodingStrategy = .iso8601
        }
        for json in ["null", "5", "[]", "{}", "true"] {
            DecodingOracle.expectAgreement(Date.self, json, ours: ours, foundation: foundation)
            DecodingOracle.expectAgreement(
                OptionalWrapper<Date>.self, #"{"v": \#(json)}"#, ours: ours, foundation: foundation)
        }
    }

    @Test func customDateStrategyMatchesJSONDecoder() {
        let decode: @Sendable (any Decoder) throws -> Date = { decoder in
            let container = try decoder.singleValueContainer()
            if let days = try? container.decode(Int.self) { return Date(timeIntervalSince1970: Double(days) * 86_400) }
            let text = try container.decode(String.self)
            guard let days = Double(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "Not a day count: \(text)")
            }
            return Date(timeIntervalSince1970: days * 86_400)
        }
        let (ours, foundation) = DecodingOracle.pair { ours, foundation in
            ours.dateDecodingStrategy = .custom(decode)
            foundation.dateDecodingStrategy = .custom(decode)
        }
        for json in ["3", #""4.5""#, #""x""#, "null", "[1]"] {
            DecodingOracle.expectAgreement(Date.self, json, ours: ours, foundation: foundation)
            DecodingOracle.expectAgreement([Date?].self, "[\(json)]", ours: ours, foundation: foundation)
            DecodingOracle.expectAgreement(
                OptionalWrapper<Date>.self, #"{"v": \#(json)}"#, ours: ours, foundation: foundation)
        }
    }

    // MARK: - Data

    static let base64Texts = [
        #""""#, #""YQ==""#, #""YWI=""#, #""YWJj""#, #""YQ""#, #""YQ=""#, #""Y Q==""#, #""YQ==\n""#, #""Y\u0051==""#,
        #""!!!!""#, #""YR==""#, #""AAECAwQFBgcICQ==""#, #""/+8=""#, #""_-8=""#, "null", "[1,2,255]", "[256]", "5",
    ]

    @Test(arguments: base64Texts)
    func dataStrategiesMatchJSONDecoder(_ json: String) {
        let strategies: [(JSONValueDecoder.DataDecodingStrategy, JSONDecoder.DataDecodingStrategy)] = [
            (.base64, .base64), (.deferredToData, .deferredToData),
            (
                .custom { try Data($0.singleValueContainer().decode(String.self).utf8.reversed()) },
                .custom { try Data($0.singleValueContainer().decode(String.self).utf8.reversed()) }
            ),
        ]
        for (mine, theirs) in strategies {
            let (ours, foundation) = DecodingOracle.pair { ours, foundation in
                ours.dataDecodingStrategy = mine
                foundation.dataDecodingStrategy = theirs
            }
            DecodingOracle.expectAgreement(Data.self, json, ours: ours, foundation: foundation)
            DecodingOracle.expectAgreement([Data].self, "[\(json)]", ours: ours, foundation: foundation)
            DecodingOracle.expectAgreement(
                OptionalWrapper<Data>.self, #"{"v": \#(json)}"#, ours: ours, foundation: foundation)
        }
    }

    // MARK: - URL and Decimal

    @Test func urlsMatchJSONDecoder() {
        for text in [
            "https://example.com/a?b=c#d", "https://x.com/a b", "", "http://a/%zz", "héllo", "mailto:a@b.c", "//x",
            "http://[::1]:80/", "http://exa mple.com", "a:b:c",
        ] {
            DecodingOracle.expectAgreement(URL.self, "\"\(text)\"")
            DecodingOracle.expectAgreement(Wrapper<URL>.self, #"{"v": "\#(text)"}"#)
            DecodingOracle.expectAgreement([URL?].self, #"["\#(text)", null]"#)
        }
        for json in ["null", "1", "[]"] {
            DecodingOracle.expectAgreement(OptionalWrapper<URL>.self, #"{"v": \#(json)}"#)
        }
    }

    // MARK: - Non-conforming floats

    struct Floats: Codable, Equatable {
        var double: Double
        var float: Float

        // NaN is not equal to itself: compare bit patterns.
        static func == (lhs: Floats, rhs: Floats) -> Bool {
            lhs.double.bitPattern == rhs.double.bitPattern && lhs.float.bitPattern == rhs.float.bitPattern
        }
    }

    @Test(arguments: [
        #""inf""#, #""-inf""#, #""nan""#, #""NaN""#, #""Infinity""#, #""INF""#, #""inf ""#, "1.5", "1e400", "null",
    ])
    func nonConformingFloatsMatchJSONDecoder(_ json: String) {
        let (ours, foundation) = DecodingOracle.pair { ours, foundation in
            ours.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
            foundation.nonConformingFloatDecodingStrategy = .convertFromString(
                positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        }
        let object = #"{"double": \#(json), "float": \#(json)}"#
        DecodingOracle.expectAgreement(Floats.self, object, ours: ours, foundation: foundation)
        DecodingOracle.expectAgreement(Floats.self, object)
        DecodingOracle.expectAgreement(Int.self, json, ours: ours, foundation: foundation)
        DecodingOracle.expectAgreement(Decimal.self, json, ours: ours, foundation: foundation)
    }

    // MARK: - Containers

    /// Exercises the `Decoder` and container API, recording what each call returns, for both decoders to agree on.
    struct Transcript: Decodable, Equatable {
        var lines: [String] = []

        enum Keys: String, CodingKey {
            case a, b, c, missing, null, array, object, `super`
        }

        init(from decoder: any Decoder) throws {
            func record(_ label: String, _ body: () throws -> Any) {
                do {
                    lines.append("\(label): \(try body())")
                } catch {
                    lines.append("\(label) threw \(summary(error))")
                }
            }
            let container = try decoder.container(keyedBy: Keys.self)
            lines.append("path \(decoder.codingPath.map(\.stringValue))")
            lines.append("allKeys \(container.allKeys.map(\.stringValue).sorted())")
            for key in [Keys.a, .missing, .null] {
                lines.append("contains \(key): \(container.contains(key))")
                record("decodeNil \(key)") { try container.decodeNil(forKey: key) }
                record("decodeIfPresent Int \(key)") { try container.decodeIfPresent(Int.self, forKey: key) as Any }
                record("decodeIfPresent [Int] \(key)") { try container.decodeIfPresent([Int].self, forKey: key) as Any }
                record("decode Int? \(key)") { try container.decode(Int?.self, forKey: key) as Any }
            }
            record("decode String a") { try container.decode(String.self, forKey: .a) }
            record("nested keyed object") {
                let nested = try container.nestedContainer(keyedBy: Keys.self, forKey: .object)
                return "\(nested.codingPath.map(\.stringValue)) \(try nested.decode(Int.self, forKey: .b))"
            }
            record("nested keyed object error") {
                let nested = try container.nestedContainer(keyedBy: Keys.self, forKey: .object)
                _ = try nested.decode(Int.self, forKey: .c)
                return "no error"
            }
            record("nested keyed array") { _ = try container.nestedContainer(keyedBy: Keys.self, forKey: .array) }
            record("nested keyed missing") { _ = try container.nestedContainer(keyedBy: Keys.self, forKey: .missing) }
            record("nested unkeyed") {
                var nested = try container.nestedUnkeyedContainer(forKey: .array)
                var seen: [String] = ["count \(nested.count as Any)", "path \(nested.codingPath.map(\.stringValue))"]
                while !nested.isAtEnd {
                    let index = nested.currentIndex
                    if try nested.decodeNil() {
                        seen.append("\(index): nil")
                    } else if let value = try? nested.decode(Int.self) {
                        seen.append("\(index): \(value)")
                    } else {
                        var inner = try nested.nestedUnkeyedContainer()
                        seen.append("\(index): inner \(inner.codingPath.map(\.stringValue)) \(inner.count as Any)")
                        do {
                            seen.append("inner: \(try inner.decode(String.self))")
                        } catch {
                            seen.append("inner error: \(summary(error))")
                        }
                    }
                }
                seen.append("at end \(nested.currentIndex)")
                seen.append("decodeIfPresent at end \(String(describing: try nested.decodeIfPresent(Int.self)))")
                seen.append("index after \(nested.currentIndex) \(nested.isAtEnd)")
                do {
                    _ = try nested.decode(Int.self)
                } catch {
                    seen.append("decode at end: \(summary(error))")
                }
                do {
                    _ = try nested.decodeNil()
                } catch {
                    seen.append("decodeNil at end: \(summary(error))")
                }
                return seen
            }
            record("nested unkeyed of object") { _ = try container.nestedUnkeyedContainer(forKey: .object) }
            record("superDecoder") {
                let superDecoder = try container.superDecoder()
                return "\(superDecoder.codingPath.map(\.stringValue)) "
                    + "\(try superDecoder.singleValueContainer().decode(Int.self))"
            }
            record("superDecoder(forKey:) missing") {
                let superDecoder = try container.superDecoder(forKey: .missing)
                return
                    "\(superDecoder.codingPath.map(\.stringValue)) \(try superDecoder.singleValueContainer().decodeNil())"
            }
            record("superDecoder(forKey:) object") {
                let superDecoder = try container.superDecoder(forKey: .object)
                let nested = try superDecoder.container(keyedBy: Keys.self)
                return "\(nested.codingPath.map(\.stringValue)) \(try nested.decode(Int.self, forKey: .b))"
            }
            record("single value") { try decoder.singleValueContainer().decode(Int.self) }
            record("unkeyed of object") { _ = try decoder.unkeyedContainer() }
            record("decode Int from a") { try container.decode(Int.self, forKey: .a) }
            record("decode Double from null") { try container.decode(Double.self, forKey: .null) }
            record("decode [String: Int] from object") {
                try container.decode([String: Int].self, forKey: .object).sorted { $0.key < $1.key }.map { "\($0)" }
            }
        }
    }

    @Test(arguments: [
        #"{"a": "x", "null": null, "array": [1, null, [2], 3], "object": {"b": 2, "c": "s"}, "super": 7}"#,
        #"{"a": 1, "array": [], "object": {"b": null}}"#, #"{"array": [[]], "object": {}, "super": null}"#,
        #"{"a": null, "null": 1, "array": {}, "object": []}"#,
    ])
    func containerSemanticsMatchJSONDecoder(_ json: String) {
        let outcome = DecodingOracle.expectAgreement(Transcript.self, json)
        #expect(!outcome.isFailure)
    }

    @Test func allKeysAreInDocumentOrder() throws {
        struct Order: Decodable {
            var keys: [String]
            init(from decoder: any Decoder) throws {
                keys = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            }
        }
        let json = #"{"zeta": 1, "alpha": 2, "mid_dle": 3, "beta": 4}"#
        #expect(
            try JSONValueDecoder().decode(Order.self, from: Data(json.utf8)).keys == [
                "zeta", "alpha", "mid_dle", "beta",
            ])
        var snake = JSONValueDecoder()
        snake.keyDecodingStrategy = .convertFromSnakeCase
        #expect(try snake.decode(Order.self, from: Data(json.utf8)).keys == ["zeta", "alpha", "midDle", "beta"])
    }

    @Test func decodesFromParsedValues() throws {
        let value = try JSONParser().parse(#"{"people": [{"street": "x", "zip": "1"}]}"#)
        let addresses = try JSONValueDecoder().decode([Address].self, from: value["people"]!)
        #expect(addresses == [Address(street: "x", zip: "1", number: nil)])
        let built: JSONValue = ["street": "y", "number": 3]
        #expect(try JSONValueDecoder().decode(Address.self, from: built) == Address(street: "y", zip: nil, number: 3))
    }

    @Test func userInfoReachesInitializers() throws {
        struct Reader: Decodable {
            var info: String
            init(from decoder: any Decoder) throws {
                info = decoder.userInfo[CodingUserInfoKey(rawValue: "tenant")!] as? String ?? "none"
            }
        }
        var decoder = JSONValueDecoder()
        decoder.userInfo[CodingUserInfoKey(rawValue: "tenant")!] = "acme"
        #expect(try decoder.decode(Reader.self, from: Data("{}".utf8)).info == "acme")
        #expect(try decoder.decode([Reader].self, from: Data("[1]".utf8)).first?.info == "acme")
    }

    @Test func detectsTheTextEncodingAsJSONDecoderDoes() {
        let json = #"{"name":"Zoë","age":3,"tags":[],"addresses":[],"scores":{},"matrix":[],"flags":[]}"#
        let encodings: [String.Encoding] = [
            .utf8, .utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian,
        ]
        for encoding in encodings {
            let data = json.data(using: encoding)!
            DecodingOracle.expectAgreement(Person.self, data)
            DecodingOracle.expectAgreement(Person.self, Data([0xEF, 0xBB, 0xBF]) + Data(json.utf8))
        }
    }

    @Test func decodesTheSameValueTwiceFromOneDecoder() throws {
        let decoder = JSONValueDecoder()
        let data = Data(Self.people[0].utf8)
        #expect(try decoder.decode(Person.self, from: data) == decoder.decode(Person.self, from: data))
    }

    @Test func decodesConcurrently() async throws {
        let decoder = JSONValueDecoder()
        let data = Data(Self.people[1].utf8)
        let expected = try JSONDecoder().decode(Person.self, from: data)
        try await withThrowingTaskGroup(of: Person.self) { group in
            for _ in 0..<16 { group.addTask { try decoder.decode(Person.self, from: data) } }
            for try await person in group { #expect(person == expected) }
        }
    }
}
