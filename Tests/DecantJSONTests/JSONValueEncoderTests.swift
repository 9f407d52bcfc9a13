import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantJSON

// MARK: - Models

struct EncodingAddress: Codable, Equatable {
    var street: String
    var zip: String?
    var tags: [String]
}

struct EncodingUser: Codable, Equatable {
    enum Role: String, Codable { case admin, guest }
    var id: Int
    var name: String
    var email: String?
    var score: Double
    var ratio: Float
    var active: Bool
    var role: Role
    var addresses: [EncodingAddress]
    var attributes: [String: Int]
    var matrix: [[Int]]
    var nickname: String?
    var balance: Decimal?
    var misc: [Int?]
}

struct EncodingDates: Codable, Equatable {
    var created: Date
    var updated: Date?
    var history: [Date]
}

struct EncodingBlobs: Codable, Equatable {
    var payload: Data
    var empty: Data
    var more: [Data]
}

struct SnakeKeys: Codable, Equatable {
    var userID: Int
    var myURLKey: String
    var oneTwoThree: Int
    var _leading: Int
    var trailing_: Int
    var plain: Int
    var nested: [String: Int]
    var intKeyed: [Int: String]
}

/// One member `v`.
struct Boxed<T> {
    var v: T
}

extension Boxed: Encodable where T: Encodable {}
extension Boxed: Decodable where T: Decodable {}
extension Boxed: Equatable where T: Equatable {}

/// One optional member `v`.
struct OptionalBoxed<T> {
    var v: T?
}

extension OptionalBoxed: Encodable where T: Encodable {}
extension OptionalBoxed: Decodable where T: Decodable {}
extension OptionalBoxed: Equatable where T: Equatable {}

/// Uses every container API out of order: nested containers written after their parent moved on, super encoders,
/// a key written twice.
struct ContainerAcrobatics: Encodable {
    enum Key: String, CodingKey { case x, y, z, n, w, u, deep }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(Int?.none, forKey: .x)
        try container.encode(1, forKey: .z)
        try container.encode(2, forKey: .z)
        var nested = container.nestedContainer(keyedBy: Key.self, forKey: .n)
        try container.encode(3, forKey: .w)
        try nested.encode(4, forKey: .x)
        var deeper = nested.nestedUnkeyedContainer(forKey: .deep)
        try nested.encode("after", forKey: .y)
        try deeper.encode(true)
        var single = container.superEncoder().singleValueContainer()
        try single.encode("super value")
        _ = container.superEncoder(forKey: .y)
        var unkeyed = container.nestedUnkeyedContainer(forKey: .u)
        let elementEncoder = unkeyed.superEncoder()
        try unkeyed.encode(9)
        var inner = elementEncoder.unkeyedContainer()
        try inner.encode(1)
        var object = unkeyed.nestedContainer(keyedBy: Key.self)
        try unkeyed.encode(10)
        try object.encode([1, 2], forKey: .x)
    }
}

/// A class hierarchy sharing one keyed container, with a key both levels write.
class Animal: Encodable {
    var name = "generic"
    var legs = 4
    enum Key: String, CodingKey { case name, legs }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: .name)
        try container.encode(legs, forKey: .legs)
    }
}

final class Bird: Animal {
    var wingspan = 0.35
    enum BirdKey: String, CodingKey { case wingspan, legs }
    override func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: BirdKey.self)
        try container.encode(2, forKey: .legs)
        try container.encode(wingspan, forKey: .wingspan)
        try super.encode(to: encoder)
    }
}

/// Reads `userInfo` while encoding.
struct UserInfoReader: Encodable {
    static let key = CodingUserInfoKey(rawValue: "prefix")!
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode((encoder.userInfo[Self.key] as? String ?? "none") + "-value")
    }
}

/// A linked list through a class: `next` may point back to itself.
final class Node: Encodable {
    var value: Int
    var next: Node?
    init(_ value: Int, next: Node? = nil) {
        self.value = value
        self.next = next
    }
}

/// Encodes nothing.
struct Silent: Encodable {
    func encode(to encoder: any Encoder) throws {}
}

// MARK: - Tests

/// `JSONValueEncoder` against Foundation's `JSONEncoder`: the same value and strategies give the same text.
@Suite struct JSONValueEncoderTests {
    static let date = Date(timeIntervalSince1970: 1_714_564_800.25)
    static let user = EncodingUser(
        id: 42, name: "Ada \"the\" Lovelace / é 😀 \u{1}\t", email: nil, score: 0.1, ratio: 0.1, active: true,
        role: .admin,
        addresses: [
            EncodingAddress(street: "1 Main St", zip: "12345", tags: []),
            EncodingAddress(street: "2 Side\nRoad", zip: nil, tags: ["a", "b"]),
        ],
        attributes: ["b": 2, "a": 1, "B": 3, "a10": 4, "a9": 5, "é": 6, "_": 7], matrix: [[], [1], [2, 3]],
        nickname: "", balance: Decimal(string: "12.345"), misc: [1, nil, -3])

    /// Each case is one value with one set of options, written by both encoders.
    enum Case: String, CaseIterable, CustomTestStringConvertible {
        case user, userSnakeKeys, users, optionalNil, optionalSome, doubleOptional, topLevelInt, topLevelString,
            topLevelNull, topLevelArray, emptyArray, emptyObject, dictionary, intKeyedDictionary, nestedDictionary
        case datesDeferred, datesSeconds, datesMilliseconds, datesISO8601, datesISO8601Fractional, datesCustom
        case dataBase64, dataDeferred, dataCustom
        case snakeCase, customKeys, nonConformingStrings, floatNonConforming, userInfo, acrobatics, inheritance
        case decimals, urls, silentNested, strings

        var testDescription: String { rawValue }

        func check() {
            switch self {
            case .user: EncodingOracle.expectSame(JSONValueEncoderTests.user)
            case .userSnakeKeys:
                EncodingOracle.expectSame(
                    JSONValueEncoderTests.user, EncodingOptions(keyEncodingStrategy: .convertToSnakeCase))
            case .users: EncodingOracle.expectSame(Array(repeating: JSONValueEncoderTests.user, count: 3))
            case .optionalNil: EncodingOracle.expectSame(OptionalBoxed<Int>(v: nil))
            case .optionalSome: EncodingOracle.expectSame(OptionalBoxed<Int>(v: 3))
            case .doubleOptional: EncodingOracle.expectSame([Int??.some(nil), 1, nil])
            case .topLevelInt: EncodingOracle.expectSame(7)
            case .topLevelString: EncodingOracle.expectSame("text")
            case .topLevelNull: EncodingOracle.expectSame(Int?.none)
            case .topLevelArray: EncodingOracle.expectSame([1, 2, 3])
            case .emptyArray: EncodingOracle.expectSame([Int]())
            case .emptyObject: EncodingOracle.expectSame([String: Int]())
            case .dictionary: EncodingOracle.expectSame(["zeta": 1, "alpha": 2, "Mid": 3, "mid": 4, "": 5])
            case .intKeyedDictionary: EncodingOracle.expectSame([3: "c", 1: "a", 20: "t"])
            case .nestedDictionary: EncodingOracle.expectSame(["a": ["y": [1.5], "x": []], "b": [:]])
            case .datesDeferred: Self.dates(.deferredToDate)
            case .datesSeconds: Self.dates(.secondsSince1970)
            case .datesMilliseconds: Self.dates(.millisecondsSince1970)
            case .datesISO8601: Self.dates(.iso8601)
            case .datesISO8601Fractional: Self.dates(.iso8601WithFractionalSeconds)
            case .datesCustom:
                Self.dates(
                    .custom { date, encoder in
                        var container = encoder.unkeyedContainer()
                        try container.encode(Int(date.timeIntervalSince1970))
                        try container.encode("s")
                    })
            case .dataBase64: Self.data(.base64)
            case .dataDeferred: Self.data(.deferredToData)
            case .dataCustom:
                Self.data(
                    .custom { data, encoder in
                        var container = encoder.singleValueContainer()
                        try container.encode(data.map { String($0, radix: 16) }.joined())
                    })
            case .snakeCase:
                EncodingOracle.expectSame(
                    SnakeKeys(
                        userID: 1, myURLKey: "u", oneTwoThree: 3, _leading: 4, trailing_: 5, plain: 6,
                        nested: ["camelCase": 1, "snake_case": 2], intKeyed: [1: "one"]),
                    EncodingOptions(keyEncodingStrategy: .convertToSnakeCase))
            case .customKeys:
                EncodingOracle.expectSame(
                    Boxed(v: EncodingAddress(street: "s", zip: "z", tags: ["t"])),
                    EncodingOptions(
                        keyEncodingStrategy: .custom { path in
                            let last = path.last!
                            return EncodingCodingKey("\(path.count)-\(last.stringValue.uppercased())")
                        }))
            case .nonConformingStrings:
                EncodingOracle.expectSame(
                    [Double.nan, .infinity, -.infinity, 1.5],
                    EncodingOptions(
                        nonConformingFloatEncodingStrategy: .convertToString(
                            positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "NaN")))
            case .floatNonConforming:
                EncodingOracle.expectSame(
                    Boxed(v: [Float.nan, .infinity, -.infinity]),
                    EncodingOptions(
                        nonConformingFloatEncodingStrategy: .convertToString(
                            positiveInfinity: "p", negativeInfinity: "n", nan: "x")))
            case .userInfo:
                EncodingOracle.expectSame(
                    [UserInfoReader()], EncodingOptions(userInfo: [UserInfoReader.key: "custom"]))
            case .acrobatics: EncodingOracle.expectSame(ContainerAcrobatics())
            case .inheritance: EncodingOracle.expectSame([Bird(), Animal()])
            case .decimals:
                EncodingOracle.expectSame(
                    [
                        Decimal(string: "0")!, Decimal(string: "-12.5")!, Decimal(string: "1e30")!,
                        Decimal(string: "0.001")!,
                    ])
            case .urls: EncodingOracle.expectSame([URL(string: "https://example.com/a?b=c#d")!])
            case .silentNested: EncodingOracle.expectSame([Silent()])
            case .strings:
                EncodingOracle.expectSame(
                    [
                        "", "\"", "\\", "/", "\u{0}\u{1f}\u{7f}", "\u{8}\u{c}\n\r\t", "\u{2028}\u{2029}", "é", "😀",
                        "a\u{301}",
                    ])
            }
        }

        static func dates(_ strategy: EncodingOptions.DateEncodingStrategy) {
            let value = EncodingDates(
                created: JSONValueEncoderTests.date, updated: nil,
                history: [Date(timeIntervalSince1970: 0), Date(timeIntervalSinceReferenceDate: 0.125)])
            EncodingOracle.expectSame(value, EncodingOptions(dateEncodingStrategy: strategy))
            EncodingOracle.expectSame(JSONValueEncoderTests.date, EncodingOptions(dateEncodingStrategy: strategy))
        }

        static func data(_ strategy: EncodingOptions.DataEncodingStrategy) {
            let value = EncodingBlobs(
                payload: Data("hello, world?>>".utf8), empty: Data(), more: [Data([0, 255, 128]), Data([0xFB, 0xFF])])
            EncodingOracle.expectSame(value, EncodingOptions(dataEncodingStrategy: strategy))
        }
    }

    @Test(arguments: Case.allCases)
    func sameTextAsJSONEncoder(_ testCase: Case) {
        testCase.check()
    }

    /// Doubles at the edges of their range and formatting, at the top level, in arrays and as members.
    static let doubles: [Double] = [
        0, -0.0, 1, -1, 0.1, 0.2, 0.30000000000000004, 1.5, 100, 1e15, 1e16, 1e17, 123456789012345680, 1e21, 1e22,
        1e-5, 1e-4, 0.0001234, 1e300, -1e300, Double(bitPattern: 1), 2.2250738585072014e-308, .greatestFiniteMagnitude,
        .leastNormalMagnitude, .leastNonzeroMagnitude, 9007199254740992, 3.141592653589793, -2.5e-7, 1.0 / 3,
    ]

    @Test(arguments: doubles)
    func doublesAsJSONEncoderWrites(_ value: Double) {
        EncodingOracle.expectSame(value)
        EncodingOracle.expectSame([value, value])
        EncodingOracle.expectSame(Boxed(v: value))
        EncodingOracle.expectSame(OptionalBoxed(v: value))
    }

    static let floats: [Float] = [
        0, -0.0, 0.1, 1, 1.5, 3.4028235e38, Float(bitPattern: 1), .leastNormalMagnitude, 16_777_216, 1e20,
        0.3,
    ]

    @Test(arguments: floats)
    func floatsAsJSONEncoderWrites(_ value: Float) {
        EncodingOracle.expectSame(value)
        EncodingOracle.expectSame([value])
        EncodingOracle.expectSame(Boxed(v: value))
    }

    @Test func integersAtTheirLimits() {
        EncodingOracle.expectSame([Int.min, Int.max, 0, -1])
        EncodingOracle.expectSame([UInt64.max, UInt64.min])
        EncodingOracle.expectSame([Int8.min, Int8.max])
        EncodingOracle.expectSame([Int16.min, Int16.max])
        EncodingOracle.expectSame([Int32.min, Int32.max])
        EncodingOracle.expectSame([Int64.min, Int64.max])
        EncodingOracle.expectSame([UInt8.max, 0])
        EncodingOracle.expectSame([UInt16.max])
        EncodingOracle.expectSame([UInt32.max])
        EncodingOracle.expectSame([UInt.max])
        EncodingOracle.expectSame(Boxed(v: Int.min))
        EncodingOracle.expectSame(Boxed(v: UInt64.max))
        EncodingOracle.expectSame(Int.min)
        EncodingOracle.expectSame(UInt64.max)
        EncodingOracle.expectSame(OptionalBoxed(v: Decimal(string: "-0.5")))
        EncodingOracle.expectSame(OptionalBoxed<Decimal>(v: nil))
    }

    // MARK: - Differences from JSONEncoder, on purpose

    /// `JSONEncoder` escapes `/` as `\/` unless `.withoutEscapingSlashes` is set; Decant never does (both are valid
    /// JSON: RFC 8259 §7 allows either).
    @Test func slashesAreNotEscaped() throws {
        let value = ["path": "a/b", "url": "https://x/y"]
        let ours = try EncodingOracle.decant(value)
        let foundation = JSONEncoder()
        foundation.outputFormatting = [.sortedKeys]
        let theirs = String(decoding: try foundation.encode(value), as: UTF8.self)
        #expect(ours == #"{"path":"a/b","url":"https://x/y"}"#)
        #expect(theirs == #"{"path":"a\/b","url":"https:\/\/x\/y"}"#)
        #expect(ours == theirs.replacingOccurrences(of: "\\/", with: "/"))
    }

    /// Pretty text has the layout of `JSONValue.jsonData(options: .prettyPrinted)`: `": "` after keys and `[]`/`{}`
    /// for empty containers where `JSONEncoder` writes `" : "` and a blank line; otherwise the same lines and
    /// indentation.
    @Test func prettyPrintingDiffersOnlyInTheDocumentedWays() throws {
        let value = Boxed(v: JSONValueEncoderTests.userWithoutNewlines)
        let options = EncodingOptions(outputFormatting: [.prettyPrinted])
        let ours = try EncodingOracle.decant(value, options)
        let theirs = try EncodingOracle.foundation(value, options)
        #expect(theirs.contains("\" : "))
        #expect(theirs != ours)
        #expect(ours == EncodingOracle.foundationPrettyInDecantLayout(theirs))
        // The same layout as the JSONValue writer's, for the same document.
        let parsed = try JSONParser().parse(Data(ours.utf8))
        #expect(String(decoding: parsed.jsonData(options: [.prettyPrinted, .sortedKeys]), as: UTF8.self) == ours)
    }

    static let userWithoutNewlines: EncodingUser = {
        var user = JSONValueEncoderTests.user
        user.name = "Ada"
        user.addresses[1].street = "2 Side Road"
        return user
    }()

    /// Pretty text is what Python's `json.dumps(value, indent=2, ensure_ascii=False)` writes (for a value whose numbers
    /// both write alike).
    @Test(.enabled(if: Python.isAvailable, "needs python3")) func prettyTextIsPythonsIndent2() throws {
        let value = ["b": [1, 2], "a": [], "c": [3]]
        let nested = Boxed(v: [Boxed(v: value), Boxed(v: [:])])
        let ours = try EncodingOracle.decant(nested, EncodingOptions(outputFormatting: [.prettyPrinted]))
        let python = try Python.run(
            "import json,sys; print(json.dumps(json.loads(sys.argv[1]), indent=2, ensure_ascii=False, sort_keys=True),"
                + " end='')", [try EncodingOracle.decant(nested)])
        #expect(ours == String(decoding: python, as: UTF8.self))
    }

    /// Keys sort by their UTF-8 bytes (`B` before `a`, `a10` before `a9`), which is also what `JSONEncoder` does on
    /// Linux; Python's `sort_keys` (code points) agrees.
    @Test(.enabled(if: Python.isAvailable, "needs python3")) func sortedKeysInByteOrder() throws {
        let value = ["a9": 1, "a10": 2, "B": 3, "a": 4, "é": 5, "e": 6, "_": 7, "\u{1}": 8, "\"": 9, "~": 10]
        let ours = try EncodingOracle.decant(value)
        let python = try Python.run(
            "import json,sys; print(json.dumps(json.loads(sys.argv[1]), separators=(',',':'), ensure_ascii=False,"
                + " sort_keys=True), end='')", [ours])
        #expect(ours == String(decoding: python, as: UTF8.self))
    }

    // MARK: - Errors

    @Test func nanThrowsWithTheCodingPath() {
        struct Reading: Encodable { var values: [Double] }
        struct Report: Encodable { var readings: [Reading] }
        let report = Report(readings: [Reading(values: [1]), Reading(values: [2, .nan])])
        #expect {
            try JSONValueEncoder().encode(report)
        } throws: { error in
            let error = error as! SerializationError
            return error.code == .encodingFailed && error.codingPath == ["readings", "1", "values", "1"]
                && error.underlying is EncodingError && error.message.contains("convertToString")
        }
        #expect(throws: SerializationError.self) { try JSONValueEncoder().encode(Boxed(v: Float.infinity)) }
        #expect(throws: SerializationError.self) { try JSONValueEncoder().encode(-Double.infinity) }
    }

    /// A value whose `encode(to:)` contains itself (a cycle through a class) stops at `maxDepth` with
    /// `limitExceeded`, never a stack overflow.
    @Test func selfNestingValueHitsTheDepthLimit() {
        let node = Node(1)
        node.next = node
        #expect {
            try JSONValueEncoder().encode(node)
        } throws: { error in
            (error as? SerializationError)?.code == .limitExceeded
        }
        // A finite chain within the limit is written; one past it is not.
        var chain = Node(0)
        for index in 1..<200 { chain = Node(index, next: chain) }
        #expect(throws: Never.self) { try JSONValueEncoder().encode(chain) }
        var shallow = JSONValueEncoder()
        shallow.maxDepth = 100
        #expect(throws: SerializationError.self) { try shallow.encode(chain) }
    }

    @Test func topLevelValueThatEncodesNothingFails() {
        #expect {
            try JSONValueEncoder().encode(Silent())
        } throws: { error in
            (error as? SerializationError)?.code == .encodingFailed
        }
        // Nested, it is `{}` as in JSONEncoder (checked in the .silentNested case).
    }

    @Test func misuseThrowsInsteadOfStopping() {
        struct TwoValues: Encodable {
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                try container.encode(1)
                try container.encode(2)
            }
        }
        struct KeyedAfterUnkeyed: Encodable {
            enum Key: CodingKey { case a }
            func encode(to encoder: any Encoder) throws {
                var unkeyed = encoder.unkeyedContainer()
                try unkeyed.encode(1)
                var keyed = encoder.container(keyedBy: Key.self)
                try keyed.encode(1, forKey: .a)
            }
        }
        #expect(throws: SerializationError.self) { try JSONValueEncoder().encode(TwoValues()) }
        #expect(throws: SerializationError.self) { try JSONValueEncoder().encode([KeyedAfterUnkeyed()]) }
    }

    /// An error thrown by an `encode(to:)` is kept as `underlying`, with the path where it was thrown; a member whose
    /// value failed and whose error was caught leaves nothing behind.
    @Test func errorsFromEncodeToAreWrapped() throws {
        struct Refusal: Error {}
        struct Refuses: Encodable {
            func encode(to encoder: any Encoder) throws { throw Refusal() }
        }
        struct Forgiving: Encodable {
            enum Key: CodingKey { case a, b, c }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Key.self)
                try container.encode(1, forKey: .a)
                try? container.encode([Boxed(v: 1)], forKey: .b)
                try? container.encode(Refuses(), forKey: .b)
                try? container.encode(Double.nan, forKey: .b)
                try container.encode(3, forKey: .c)
            }
        }
        #expect {
            try JSONValueEncoder().encode(Boxed(v: [Boxed(v: Refuses())]))
        } throws: { error in
            let error = error as! SerializationError
            return error.code == .encodingFailed && error.underlying is Refusal && error.codingPath == ["v", "0", "v"]
        }
        EncodingOracle.expectSame(Forgiving())
        #expect(try EncodingOracle.decant(Forgiving()) == #"{"a":1,"b":[{"v":1}],"c":3}"#)
    }

    /// A key written twice keeps its first position and its last value, in small and large objects alike (as
    /// `JSONEncoder` keeps the last value); the data matches `JSONEncoder`'s.
    @Test(arguments: [3, 40, 100])
    func repeatedKeysKeepTheFirstPositionAndTheLastValue(_ count: Int) throws {
        struct Repeats: Encodable {
            let count: Int
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: EncodingCodingKey.self)
                for index in 0..<count { try container.encode(index, forKey: EncodingCodingKey("k\(index)")) }
                try container.encode("again", forKey: EncodingCodingKey("k1"))
            }
        }
        let text = try JSONValueEncoder().encode(Repeats(count: count))
        let value = try JSONParser().parse(text)
        #expect(value.keys == (0..<count).map { "k\($0)" })
        #expect(value["k1"] == "again")
        EncodingOracle.expectSame(Repeats(count: count))
    }

    /// The keys of `[String: Value]` are not converted; the keys of coding keys are, in every container.
    @Test func dictionaryKeysStayUnderCustomKeyStrategy() {
        EncodingOracle.expectSame(
            Boxed(v: ["someKey": Boxed(v: 1)]),
            EncodingOptions(keyEncodingStrategy: .custom { EncodingCodingKey($0.last!.stringValue + "!") }))
    }
}

/// A coding key made from a string.
struct EncodingCodingKey: CodingKey {
    var stringValue: String
    init(_ stringValue: String) { self.stringValue = stringValue }
    init?(stringValue: String) { self.stringValue = stringValue }
    var intValue: Int? { nil }
    init?(intValue: Int) { nil }
}
