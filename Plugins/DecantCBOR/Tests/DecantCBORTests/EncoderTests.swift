import Decant
import DecantCBOR
import DecantConformance
import Foundation
import Testing

/// ``CBOREncoder``, ``CBORBodyEncoder`` and the inverse of the canonical form.
@Suite struct EncoderTests {
    struct Record: Codable, Equatable {
        var id: Int
        var name: String
        var scores: [Double]
        var active: Bool
        var data: Data
        var created: Date
        var updated: Date
        var big: UInt64
        var negative: Int64
        var nothing: Int?

        enum CodingKeys: String, CodingKey {
            case id, name, scores, active, data, created, updated, big
            case negative = "neg"
            case nothing
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            try container.encode(name, forKey: .name)
            try container.encode(scores, forKey: .scores)
            try container.encode(active, forKey: .active)
            try container.encode(data, forKey: .data)
            try container.encode(created, forKey: .created)
            try container.encode(updated, forKey: .updated)
            try container.encode(big, forKey: .big)
            try container.encode(negative, forKey: .negative)
            try container.encode(nothing, forKey: .nothing)
        }
    }

    static let record = Record(
        id: 7, name: "Ada", scores: [1.5, 0.1], active: true, data: Data([1, 2]),
        created: Date(timeIntervalSince1970: 1_363_896_240), updated: Date(timeIntervalSince1970: 1_363_896_240.5),
        big: .max, negative: .min, nothing: nil)

    /// The bytes Python's cbor2 writes for the same map, entry by entry in this order (`cbor2.dumps(x,
    /// canonical=True)` of each key and value, so that floats are shortest): dates as tag 1 epoch numbers (an
    /// integer for a whole second), `Data` as a byte string, `UInt64.max` and `Int64.min` exactly.
    @Test func encodesLikeCBOR2() throws {
        let bytes = try CBOREncoder().encode(Self.record)
        #expect(
            WriterTests.hexString(bytes)
                == "aa62696407646e616d65634164616673636f72657382f93e00fb3fb999999999999a66616374697665f5646461746142"
                + "01026763726561746564c11a514b67b06775706461746564c1fb41d452d9ec200000636269671bffffffffffffffff63"
                + "6e65673b7fffffffffffffff676e6f7468696e67f6")
        #expect(try CBORDecoder().decode(Record.self, from: bytes) == Self.record)
    }

    /// The date strategies: tag 0 text for ISO 8601 (`cbor2.dumps(CBORTag(0, "2013-03-21T20:04:00Z"))`), plain
    /// floats for the epoch ones, `Date`'s own encoding (seconds since 2001) when deferred (`cbor2.dumps([x],
    /// canonical=True)` of 1363896240.0, 1363896240000.0 and 385589040.0).
    @Test func dateStrategies() throws {
        let date = Date(timeIntervalSince1970: 1_363_896_240)
        func hex(_ strategy: EncodingOptions.DateEncodingStrategy) throws -> String {
            WriterTests.hexString(try CBOREncoder(dateEncodingStrategy: strategy).encode([date]))
        }
        #expect(try hex(.iso8601) == "81c074323031332d30332d32315432303a30343a30305a")
        #expect(try hex(.secondsSince1970) == "81fb41d452d9ec000000")
        #expect(try hex(.millisecondsSince1970) == "81fb4273d8e8d0780000")
        #expect(try hex(.deferredToDate) == "81fb41b6fb9f30000000")
        let iso = try CBOREncoder(dateEncodingStrategy: .iso8601WithFractionalSeconds).encode(date)
        #expect(try CBORParser().parse(iso) == .tag(0, .text("2013-03-21T20:04:00.000Z")))
        #expect(try CBORDecoder().decode(Date.self, from: iso) == date)
    }

    /// The data strategies, the key strategy (not applied to `[String: V]` keys), and `.sortedKeys` as deterministic
    /// encoding.
    @Test func strategies() throws {
        struct Keys: Encodable {
            var userID = 1
            var tags = ["zKey": 1, "aKey": 2]
        }
        var encoder = CBOREncoder(options: EncodingOptions(keyEncodingStrategy: .convertToSnakeCase))
        encoder.writingOptions.deterministic = true
        let value = try CBORParser().parse(try encoder.encode(Keys()))
        #expect(
            value
                == .map([
                    .init(
                        key: .text("tags"),
                        value: .map([
                            .init(key: .text("aKey"), value: .unsignedInteger(2)),
                            .init(key: .text("zKey"), value: .unsignedInteger(1)),
                        ])),
                    .init(key: .text("user_id"), value: .unsignedInteger(1)),
                ]))
        let data = Data([0xFF, 0x00])
        #expect(try CBOREncoder(dataEncodingStrategy: .base64).encodeValue(data) == .text("/wA="))
        #expect(
            try CBOREncoder(dataEncodingStrategy: .deferredToData).encodeValue(data)
                == .array([.unsignedInteger(255), .unsignedInteger(0)]))
        #expect(try CBOREncoder().encodeValue(data) == .bytes(data))
    }

    indirect enum Chain: Codable, Equatable {
        case end
        case link(Chain)
    }

    /// A value nested past ``CBOREncoder/maxDepth`` fails with `limitExceeded` instead of overflowing the stack.
    @Test func depthIsBounded() throws {
        var chain = Chain.end
        for _ in 0..<2_000 { chain = .link(chain) }
        let error = #expect(throws: SerializationError.self) { try CBOREncoder().encode(chain) }
        #expect(error?.code == .limitExceeded)
        var shallow = Chain.end
        for _ in 0..<50 { shallow = .link(shallow) }
        #expect(try CBORDecoder().decode(Chain.self, from: try CBOREncoder().encode(shallow)) == shallow)
    }

    /// Misuse that `JSONEncoder` stops the process for throws `encodingFailed`.
    @Test func misuseThrows() throws {
        struct Twice: Encodable {
            func encode(to encoder: any Encoder) throws {
                var single = encoder.singleValueContainer()
                try single.encode(1)
                try single.encode(2)
            }
        }
        let error = #expect(throws: SerializationError.self) { try CBOREncoder().encode([Twice()]) }
        #expect(error?.code == .encodingFailed)
    }

    struct Generated: Codable, Equatable {
        var int: Int
        var int8: Int8
        var uint16: UInt16
        var uint64: UInt64
        var int64: Int64
        var double: Double
        var float: Float
        var text: String
        var flag: Bool
        var optional: String?
        var bytes: Data
        var date: Date
        var list: [Int32]
        var table: [String: Double]
        var children: [Generated]
    }

    /// A seeded generator (SplitMix64), so that failures reproduce.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    static func generate(_ random: inout Seeded, depth: Int) -> Generated {
        let alphabet = Array("aZ09 é水𐅑\u{0}\"\\")
        func text() -> String {
            String((0..<Int.random(in: 0...12, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
        }
        let doubles: [Double] = [
            0, -0.0, 1.5, 0.1, 65504, 1e300, .leastNonzeroMagnitude, .infinity, -.infinity, 3.4028234663852886e+38,
        ]
        return Generated(
            int: Int.random(in: .min ... .max, using: &random), int8: Int8.random(in: .min ... .max, using: &random),
            uint16: UInt16.random(in: .min ... .max, using: &random),
            uint64: UInt64.random(in: .min ... .max, using: &random) >> UInt64.random(in: 0...63, using: &random),
            int64: Int64.random(in: .min ... .max, using: &random) >> Int64.random(in: 0...63, using: &random),
            double: Bool.random(using: &random)
                ? doubles.randomElement(using: &random)!
                : Double(bitPattern: random.next()).isNaN ? 2.5 : Double(bitPattern: random.next()),
            float: Float(bitPattern: UInt32.random(in: 0...0x7F7F_FFFF, using: &random)),
            text: text(), flag: Bool.random(using: &random), optional: Bool.random(using: &random) ? text() : nil,
            bytes: Data(
                (0..<Int.random(in: 0...8, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }),
            date: Date(timeIntervalSince1970: Double(Int32.random(in: .min ... .max, using: &random))),
            list: (0..<Int.random(in: 0...5, using: &random)).map { _ in Int32.random(in: .min ... .max, using: &random)
            },
            table: Dictionary(
                uniqueKeysWithValues: (0..<Int.random(in: 0...4, using: &random)).map { index in
                    ("k\(index)" + text(), Double(Int16.random(in: .min ... .max, using: &random)) / 8)
                }),
            children: depth > 2
                ? [] : (0..<Int.random(in: 0...2, using: &random)).map { _ in generate(&random, depth: depth + 1) })
    }

    /// Seeded generated values decode back equal, in preferred and deterministic encoding, and through the registry.
    @Test(arguments: [1, 2, 3, 42, 2024]) func generatedValuesRoundTrip(seed: UInt64) throws {
        var random = Seeded(state: seed)
        let registry = SerializerRegistry().installing(.cbor)
        for _ in 0..<40 {
            let value = Self.generate(&random, depth: 0)
            #expect(try CBORDecoder().decode(Generated.self, from: try CBOREncoder().encode(value)) == value)
            let sorted = CBOREncoder(writingOptions: CBORWritingOptions(deterministic: true))
            #expect(try CBORDecoder().decode(Generated.self, from: try sorted.encode(value)) == value)
            let body = try registry.encode(value, as: "application/cbor")
            #expect(body.contentType == MediaType(type: "application", subtype: "cbor"))
            #expect(try registry.decode(Generated.self, from: body.response()) == value)
        }
    }

    /// A registry with `.cbor` writes a `CBORValue` by media type, and reading the body back gives the value.
    @Test func registryRoundTripsValues() throws {
        let registry = SerializerRegistry.standard.installing(.cbor)
        let value = WriterTests.mixedMap
        let body = try registry.encode(value, as: "application/cbor")
        #expect(body.serializerID == "cbor")
        #expect(try registry.serialize(body.response(), as: CBORValue.self) == value)
        let sorted = try registry.encode(
            value, as: "application/cbor", options: EncodingOptions(outputFormatting: [.sortedKeys]))
        #expect(WriterTests.hexString(sorted.body) == "a90a071864002001410004617a0262616103810105f406f93e0008")
        let sequence = try registry.encode(
            CBORValue.array([.unsignedInteger(1), .text("a")]), as: "application/cbor-seq")
        #expect(WriterTests.hexString(sequence.body) == "016161")
        #expect(sequence.contentType.essence == "application/cbor-seq")
        #expect(
            try registry.serialize(sequence.response(), as: CBORValue.self)
                == .array([.unsignedInteger(1), .text("a")]))
        let error = #expect(throws: SerializationError.self) {
            try registry.encode(CBORValue.null, as: "application/cbor-seq")
        }
        #expect(error?.code == .encodingFailed)
        let negotiated = try registry.encode(
            value, accepting: AcceptHeader(parsing: "application/cbor, application/json;q=0.5"))
        #expect(negotiated.serializerID == "cbor")
    }

    /// A configured factory writes deterministic encoding when its `deterministic` option is set.
    @Test func factoryOption() throws {
        let factory = CBORSerializerFactory()
        let options = try factory.options(from: ["deterministic": .bool(true)])
        let encoder = try #require(factory.makeEncoder(options: options))
        let body = try encoder.encode(WriterTests.mixedMap, as: "application/cbor", options: EncodingOptions())
        #expect(WriterTests.hexString(body.body) == "a90a071864002001410004617a0262616103810105f406f93e0008")
    }

    /// `CBORValue(conformanceValue: v.conformanceValue())` is `v` for every Appendix A value (compared by their
    /// bytes, since NaN is not equal to itself) and every fixture body.
    @Test(.enabled(if: CBORTestSupport.corpora.isAvailable)) func canonicalFormInverts() throws {
        let file = try #require(CBORTestSupport.corpora.root)
            .appendingPathComponent("cbor/test-vectors/appendix_a.json")
        var values: [CBORValue] = []
        for vector in try #require(try JSONParser().parse(Data(contentsOf: file)).arrayValue) {
            let hex = try #require(vector["hex"]?.stringValue)
            values.append(try WriterTests.lenient.parse(CBORTestSupport.hex(hex)))
        }
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let registry = SerializerRegistry().installing(.cbor)
        for fixture in try FixtureLoader.fixtures(in: root.appendingPathComponent("cbor")) {
            let response = try Response(raw: fixture.raw)
            if let value = try? registry.serialize(response, as: CBORValue.self) { values.append(value) }
        }
        #expect(values.count > 90)
        for value in values {
            let rebuilt = try CBORValue(conformanceValue: value.conformanceValue())
            #expect(try CBORWriter().write(rebuilt) == CBORWriter().write(value), "\(value)")
            if !value.description.contains("NaN") { #expect(rebuilt == value) }
        }
    }

    /// JSON that is not a canonical form is rejected with `unsupportedValue`.
    @Test(arguments: [
        #"{"$bytes": 1}"#, #"{"$tag": -1, "value": 1}"#, #"{"$map": [[1]]}"#, #"{"$simple": 256}"#,
        #"{"$float": "nan"}"#,
    ])
    func badCanonicalForms(json: String) throws {
        let form = try JSONParser().parse(Data(json.utf8))
        let error = #expect(throws: SerializationError.self) { try CBORValue(conformanceValue: form) }
        #expect(error?.code == .unsupportedValue)
    }
}
