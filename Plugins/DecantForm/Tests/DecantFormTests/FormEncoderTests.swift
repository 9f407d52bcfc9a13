import Decant
import DecantForm
import Foundation
import Testing

@Suite struct FormEncoderTests {
    struct Login: Codable, Equatable {
        var userName: String
        var scopes: [String]
        var remember: Bool
        var otp: String?
    }

    static let login = Login(userName: "ada l", scopes: ["read", "write"], remember: true, otp: nil)
    static let snakeCase = EncodingOptions(keyEncodingStrategy: .convertToSnakeCase)

    /// The body `encoding_cases.py` computed with Python's `urlencode` for the case `name`.
    func expected(_ name: String) throws -> String {
        try #require(FormTestSupport.encoderCase(name), "encoding-cases.json lacks '\(name)'").body
    }

    func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    @Test func encodesAFlatStruct() throws {
        let body = try FormEncoder(encodingOptions: Self.snakeCase).encode(Self.login)
        #expect(text(body) == (try expected("login")))
    }

    @Test(arguments: [
        (FormEncodingOptions.ArrayEncoding.brackets, "login-brackets"), (.indexed, "login-indexed"),
        (.repeatedName, "login"),
    ])
    func arrayEncodings(encoding: FormEncodingOptions.ArrayEncoding, name: String) throws {
        let encoder = FormEncoder(
            options: FormEncodingOptions(arrayEncoding: encoding), encodingOptions: Self.snakeCase)
        #expect(text(try encoder.encode(Self.login)) == (try expected(name)))
    }

    @Test func numericBooleans() throws {
        let encoder = FormEncoder(options: FormEncodingOptions(boolEncoding: .numeric), encodingOptions: Self.snakeCase)
        #expect(text(try encoder.encode(Self.login)) == (try expected("login-numeric")))
        struct Flags: Encodable { var on: Bool; var off: Bool }
        #expect(try encoder.encodeFields(Flags(on: true, off: false)) == FormData([("on", "1"), ("off", "0")]))
    }

    @Test func numbers() throws {
        struct Numbers: Encodable {
            var int = -42
            var uint8: UInt8 = 255
            var int64 = Int64.min
            var uint64 = UInt64.max
            var double = 0.1 + 0.2
            var whole = 3.0
            var small = 1e-7
            var big = 1e16
            var float: Float = 0.5
        }
        #expect(text(try FormEncoder().encode(Numbers())) == (try expected("numbers")))
    }

    static let mayDay = Date(timeIntervalSince1970: 1_714_564_800)

    @Test(
        arguments: [
            (nil, "dates-deferred"), (.deferredToDate, "dates-deferred"), (.secondsSince1970, "dates-seconds"),
            (.millisecondsSince1970, "dates-milliseconds"), (.iso8601, "dates-iso8601"),
        ] as [(EncodingOptions.DateEncodingStrategy?, String)])
    func dateStrategies(strategy: EncodingOptions.DateEncodingStrategy?, name: String) throws {
        struct Event: Encodable { var at: Date }
        let encoder = FormEncoder(encodingOptions: EncodingOptions(dateEncodingStrategy: strategy))
        #expect(text(try encoder.encode(Event(at: Self.mayDay))) == (try expected(name)))
    }

    @Test func fractionalSecondsAndCustomDates() throws {
        struct Event: Encodable { var at: Date }
        let quarterPast = Event(at: Self.mayDay.addingTimeInterval(0.25))
        let fractional = FormEncoder(
            encodingOptions: EncodingOptions(dateEncodingStrategy: .iso8601WithFractionalSeconds))
        #expect(text(try fractional.encode(quarterPast)) == (try expected("dates-iso8601-fractional")))
        let custom = FormEncoder(
            encodingOptions: EncodingOptions(
                dateEncodingStrategy: .custom { date, encoder in
                    var container = encoder.singleValueContainer()
                    try container.encode("day \(Int(date.timeIntervalSince1970) / 86_400)")
                }))
        #expect(try custom.encodeFields(Event(at: Self.mayDay)) == FormData([("at", "day 19844")]))
    }

    @Test func dataStrategies() throws {
        struct Blob: Encodable { var bytes: Data }
        let blob = Blob(bytes: Data([0, 1, 0xFF]))
        // base64.b64encode(bytes([0, 1, 255])) == b"AAH/"
        #expect(try FormEncoder().encodeFields(blob) == FormData([("bytes", "AAH/")]))
        let deferred = FormEncoder(encodingOptions: EncodingOptions(dataEncodingStrategy: .deferredToData))
        #expect(try deferred.encodeFields(blob) == FormData([("bytes", "0"), ("bytes", "1"), ("bytes", "255")]))
    }

    @Test func dictionariesAreSortedAndKeepTheirKeys() throws {
        let fields = ["b": "2", "a b": "1", "A": "3", "é": "4"]
        let body = try FormEncoder(encodingOptions: Self.snakeCase).encode(fields)
        #expect(text(body) == (try expected("dictionary")))
        let lists = try FormEncoder().encodeFields(["z": [1, 2], "y": []])
        #expect(lists == FormData([("z", "1"), ("z", "2")]))
    }

    @Test func keyStrategies() throws {
        struct Keys: Encodable { var myURLKey = 1; var plain = 2 }
        #expect(
            try FormEncoder(encodingOptions: Self.snakeCase).encodeFields(Keys())
                == FormData([("my_url_key", "1"), ("plain", "2")]))
        let custom = EncodingOptions(
            keyEncodingStrategy: .custom { path in
                AnyKey(stringValue: "x." + path.map(\.stringValue).joined(separator: "."))
            })
        #expect(
            try FormEncoder(encodingOptions: custom).encodeFields(Keys())
                == FormData([("x.myURLKey", "1"), ("x.plain", "2")]))
    }

    @Test func sortedKeysIsStable() throws {
        struct Fields: Encodable { var b = [2, 1]; var a = 0; var c = 3 }
        let options = EncodingOptions(outputFormatting: [.sortedKeys])
        #expect(
            try FormEncoder(encodingOptions: options).encodeFields(Fields())
                == FormData([("a", "0"), ("b", "2"), ("b", "1"), ("c", "3")]))
    }

    @Test func nilsWriteNothing() throws {
        struct Optionals: Encodable {
            var absent: Int?
            var present: Int? = 0
            var list: [String?] = ["a", nil, "c"]
        }
        let indexed = FormEncoder(options: FormEncodingOptions(arrayEncoding: .indexed))
        // The index counts the nil element: positions are kept.
        #expect(
            try indexed.encodeFields(Optionals())
                == FormData([("present", "0"), ("list[0]", "a"), ("list[2]", "c")]))
    }

    @Test func singleValueTypesWorkAsTheirValue() throws {
        enum Kind: String, Codable { case bearer }
        struct Token: Encodable {
            var kind = Kind.bearer
            @Trimmed var name = "  ada "
            var id = UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")!
            var site = URL(string: "https://example.com/a?b=c")!
            var price = Decimal(string: "12.50")!
            var kinds = [Kind.bearer, .bearer]
        }
        #expect(
            try FormEncoder().encodeFields(Token())
                == FormData([
                    ("kind", "bearer"), ("name", "ada"), ("id", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"),
                    ("site", "https://example.com/a?b=c"), ("price", "12.5"), ("kinds", "bearer"),
                    ("kinds", "bearer"),
                ]))
    }

    @Test func superclassFieldsSitBesideTheSubclass() throws {
        class Base: Encodable {
            var id = 1
        }
        final class Derived: Base {
            var name = "x"
            enum CodingKeys: CodingKey { case name }
            override func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: CodingKeys.self)
                try container.encode(name, forKey: .name)
                try super.encode(to: container.superEncoder())
            }
        }
        #expect(try FormEncoder().encodeFields(Derived()) == FormData([("name", "x"), ("id", "1")]))
    }

    // MARK: Round trip through FormDecoder

    @Test func roundTripsThroughFormDecoder() throws {
        struct Everything: Codable, Equatable {
            var text: String
            var number: Int
            var ratio: Double
            var small: Float
            var flag: Bool
            var tags: [String]
            var ports: [UInt16]?
            var missing: String?
            var when: Date
            var bytes: Data
        }
        let value = Everything(
            text: "a+b&c=d %é😀", number: -7, ratio: 0.1, small: 1.5, flag: false, tags: ["x", "", "y z"],
            ports: [80, 443], missing: nil, when: Date(timeIntervalSinceReferenceDate: 12.375), bytes: Data([1, 2]))
        for bools in FormEncodingOptions.BoolEncoding.allCases {
            let encoder = FormEncoder(
                options: FormEncodingOptions(boolEncoding: bools),
                encodingOptions: EncodingOptions(dataEncodingStrategy: .deferredToData))
            #expect(try FormDecoder().decode(Everything.self, from: encoder.encode(value)) == value)
        }
    }

    // MARK: Errors

    @Test func nestedStructuresThrowWithTheirPath() throws {
        struct Address: Encodable { var city = "Paris" }
        struct Person: Encodable {
            var name = "Ada"
            var address = Address()
        }
        let error = try #require(throws: SerializationError.self) { try FormEncoder().encodeFields(Person()) }
        #expect(error.code == .encodingFailed)
        #expect(error.codingPath == ["address"])
        #expect(error.message.contains("flat"))

        struct Matrix: Encodable { var rows = [[1, 2], [3]] }
        let lists = try #require(throws: SerializationError.self) { try FormEncoder().encodeFields(Matrix()) }
        #expect(lists.code == .encodingFailed)
        #expect(lists.codingPath == ["rows", "0"])
        #expect(lists.message.contains("a list inside a list"))

        struct Nested: Encodable { var inner = ["a": "b"] }
        let dictionary = try #require(throws: SerializationError.self) { try FormEncoder().encodeFields(Nested()) }
        #expect(dictionary.codingPath == ["inner"])
    }

    @Test func nestingIsReportedEvenWhenTheValueIgnoresTheError() throws {
        struct Sneaky: Encodable {
            enum Keys: CodingKey { case a, b }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                var nested = container.nestedContainer(keyedBy: Keys.self, forKey: .a)
                try? nested.encode(1, forKey: .b)
            }
        }
        let error = try #require(throws: SerializationError.self) { try FormEncoder().encodeFields(Sneaky()) }
        #expect(error.codingPath == ["a"])
    }

    @Test(arguments: [
        "a single value" as any Encodable & Sendable, 42, true, 1.5, [1, 2], Set(["a"]), Data([1]),
        Date(timeIntervalSince1970: 0),
    ])
    func topLevelValuesThatAreNoFormThrow(value: any Encodable & Sendable) throws {
        let error = try #require(throws: SerializationError.self) { try FormEncoder().encodeFields(value) }
        #expect(error.code == .encodingFailed)
        #expect(error.message.contains("named fields"))
    }

    @Test func nonFiniteNumbersThrowUnlessConverted() throws {
        struct Reading: Encodable { var values: [Double] }
        let error = try #require(throws: SerializationError.self) {
            try FormEncoder().encodeFields(Reading(values: [1, .nan]))
        }
        #expect(error.code == .encodingFailed)
        #expect(error.codingPath == ["values", "1"])
        #expect(error.message.contains("nonConformingFloatEncodingStrategy"))
        let converting = FormEncoder(
            encodingOptions: EncodingOptions(
                nonConformingFloatEncodingStrategy: .convertToString(
                    positiveInfinity: "+inf", negativeInfinity: "-inf", nan: "nan")))
        #expect(
            try converting.encodeFields(Reading(values: [.infinity, -.infinity, .nan]))
                == FormData([("values", "+inf"), ("values", "-inf"), ("values", "nan")]))
    }

    @Test func errorsOfTheValueAreWrapped() throws {
        struct Refuses: Encodable {
            func encode(to encoder: any Encoder) throws {
                throw EncodingError.invalidValue(
                    self, .init(codingPath: encoder.codingPath, debugDescription: "Refused."))
            }
        }
        struct Holder: Encodable { var field = Refuses() }
        let error = try #require(throws: SerializationError.self) { try FormEncoder().encodeFields(Holder()) }
        #expect(error.code == .encodingFailed)
        #expect(error.codingPath == ["field"])
        #expect(error.underlying is EncodingError)
        #expect(error.message.contains("Refused."))
    }

    @Test func deepSingleValueNestingIsBounded() throws {
        /// A value wrapping itself through single-value containers, `depth` times.
        indirect enum Russian: Encodable {
            case doll(Russian)
            case core
            func encode(to encoder: any Encoder) throws {
                var container = encoder.singleValueContainer()
                switch self {
                case .doll(let inner): try container.encode(inner)
                case .core: try container.encode("core")
                }
            }
        }
        struct Holder: Encodable { var doll: Russian }
        func doll(_ depth: Int) -> Russian { (0..<depth).reduce(.core) { inner, _ in .doll(inner) } }
        #expect(try FormEncoder().encodeFields(Holder(doll: doll(10))) == FormData([("doll", "core")]))
        let error = try #require(throws: SerializationError.self) {
            try FormEncoder().encodeFields(Holder(doll: doll(1_000)))
        }
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxNestingDepth"))
    }

    @Test func superEncoderChainsAreBounded() throws {
        /// A chain that writes each link's fields beside the previous ones through `superEncoder()`.
        final class Link: Encodable {
            let id: Int
            let next: Link?
            init(_ id: Int, next: Link?) {
                self.id = id
                self.next = next
            }
            enum Keys: String, CodingKey, CaseIterable { case a, b, c }
            func encode(to encoder: any Encoder) throws {
                var container = encoder.container(keyedBy: Keys.self)
                try container.encode(id, forKey: Keys.allCases[id % 3])
                if let next { try next.encode(to: container.superEncoder()) }
            }
        }
        func chain(_ count: Int) -> Link { (0..<count).reversed().reduce(Link?.none) { Link($1, next: $0) }! }
        #expect(try FormEncoder().encodeFields(chain(3)) == FormData([("a", "0"), ("b", "1"), ("c", "2")]))
        let error = try #require(throws: SerializationError.self) { try FormEncoder().encodeFields(chain(1_000)) }
        #expect(error.code == .limitExceeded)
    }
}

/// A property wrapper that encodes as a single value: its text without surrounding spaces.
@propertyWrapper private struct Trimmed: Encodable {
    var wrappedValue: String
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue.trimmingCharacters(in: .whitespaces))
    }
}

/// A coding key from a string.
private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
