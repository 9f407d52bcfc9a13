import Decant
import DecantConformance
import DecantMessagePack
import Foundation
import Testing

@Suite struct MessagePackResponseSerializerTests {
    static func response(_ hex: String, contentType: String = "application/msgpack", status: Int = 200) -> Response {
        Response(
            status: status, headers: ["Content-Type": contentType], body: Data(MessagePackTestSupport.hex(hex)))
    }

    struct User: Decodable, Equatable {
        var id: Int
        var name: String
        var scores: [Double]
        var avatar: Data
        var created: Date
        var nickname: String?
    }

    // {"id": 7, "name": "Ada", "scores": [1.5, 2], "avatar": b"\x01\x02", "created": Timestamp(1, 500000000),
    //  "ignored": nil}, written by hand from spec.md.
    static let userHex =
        "86 a2 69 64 07 a4 6e 61 6d 65 a3 41 64 61 a6 73 63 6f 72 65 73 92 ca 3f c0 00 00 02 "
        + "a6 61 76 61 74 61 72 c4 02 01 02 a7 63 72 65 61 74 65 64 d7 ff 77 35 94 00 00 00 00 01 "
        + "a7 69 67 6e 6f 72 65 64 c0"

    @Test(arguments: ["application/msgpack", "application/x-msgpack", "application/vnd.msgpack"])
    func registryResolvesEachMediaType(contentType: String) throws {
        let registry = SerializerRegistry.standard.installing(.msgpack)
        let result = try registry.serialize(Self.response("81 a1 61 01", contentType: contentType))
        #expect(result.serializerID == "msgpack")
        let value = try registry.serialize(
            Self.response("81 a1 61 01", contentType: contentType),
            as: MessagePackValue.self)
        #expect(value == .map([MessagePackValue.Entry(.string("a"), .int(1))]))
    }

    @Test func registryDecodesDecodableTypes() throws {
        let registry = SerializerRegistry.standard.installing(.msgpack)
        let user = try registry.decode(User.self, from: Self.response(Self.userHex))
        let expected = User(
            id: 7, name: "Ada", scores: [1.5, 2], avatar: Data([1, 2]),
            created: Date(timeIntervalSince1970: 1.5), nickname: nil)
        #expect(user == expected)
    }

    @Test func numberConversionsAreExact() throws {
        let decoder = MessagePackDecoder()
        #expect(try decoder.decode(UInt8.self, from: .int(255)) == 255)
        #expect(try decoder.decode(Int.self, from: .float64(3)) == 3)
        #expect(try decoder.decode(UInt64.self, from: .uint(UInt64.max)) == UInt64.max)
        #expect(try decoder.decode(Float.self, from: .float64(0.5)) == 0.5)
        for (type, value) in [
            (Int8.self as any Decodable.Type, MessagePackValue.int(300)), (Int.self, .float64(1.5)),
            (Int64.self, .uint(UInt64.max)), (Float.self, .float64(0.1)), (UInt.self, .int(-1)),
        ] {
            let error = try #require(throws: SerializationError.self) { try decoder.decode(type, from: value) }
            #expect(error.code == .decodingFailed)
        }
    }

    @Test func containersReadArraysBinAndStringKeyedMaps() throws {
        struct Record: Decodable, Equatable {
            var bytes: [UInt8]
            var pairs: [[Int]]
            var flag: Bool?
        }
        // {1: "skipped", "bytes": b"\x00\xff", "pairs": [[1, 2], []], "flag": nil}
        let value = MessagePackValue.map([
            MessagePackValue.Entry(.int(1), .string("skipped")),
            MessagePackValue.Entry(.string("bytes"), .binary([0, 255])),
            MessagePackValue.Entry(.string("pairs"), .array([.array([.int(1), .int(2)]), .array([])])),
            MessagePackValue.Entry(.string("flag"), .nil),
        ])
        let record = try MessagePackDecoder().decode(Record.self, from: value)
        #expect(record == Record(bytes: [0, 255], pairs: [[1, 2], []], flag: nil))
        let date = try MessagePackDecoder().decode(Date.self, from: .timestamp(seconds: -1, nanoseconds: 500_000_000))
        #expect(date == Date(timeIntervalSince1970: -0.5))
    }

    @Test func decodingErrorsCarryTheCodingPath() throws {
        struct Outer: Decodable { var items: [Inner] }
        struct Inner: Decodable { var count: Int }
        // {"items": [{"count": 1}, {"count": "x"}]}
        let hex = "81 a5 69 74 65 6d 73 92 81 a5 63 6f 75 6e 74 01 81 a5 63 6f 75 6e 74 a1 78"
        let error = try #require(throws: SerializationError.self) {
            try MessagePackDecoder().decode(Outer.self, from: Data(MessagePackTestSupport.hex(hex)))
        }
        #expect(error.code == .decodingFailed)
        #expect(error.codingPath == ["items", "1", "count"])
        let registry = SerializerRegistry.standard.installing(.msgpack)
        let parse = try #require(throws: SerializationError.self) {
            try registry.decode(Outer.self, from: Self.response("81 c1 02"))
        }
        #expect(parse.code == .invalidBody)
        #expect(parse.offset == 1)
        #expect(parse.serializerID == "msgpack")
    }

    @Test func errorsCarryTheSerializerAndResponse() throws {
        let error = try #require(throws: SerializationError.self) {
            try MessagePackResponseSerializer().serialize(Self.response("92 01"))
        }
        #expect(error.code == .invalidBody)
        #expect(error.serializerID == "msgpack")
        #expect(error.status == 200)
        #expect(error.mediaType?.essence == "application/msgpack")
    }

    @Test func factoryReadsOptions() throws {
        let factory = MessagePackSerializerFactory()
        #expect(factory.id == "msgpack")
        let serializer = try factory.makeSerializer(configuration: [
            "maxDepth": .integer(3), "maxBytes": .number(100), "maxItems": .integer(7),
            "replaceInvalidUTF8": .bool(true), "allowsMultipleValues": .bool(true),
        ])
        #expect(
            serializer.parser.options
                == MessagePackParsingOptions(
                    maxDepth: 3, maxBytes: 100, maxItems: 7, replacesInvalidUTF8: true, allowsMultipleValues: true))
        #expect(try factory.makeSerializer(configuration: [:]).parser.options == MessagePackParsingOptions())
        let unknown = try #require(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxDepht": .integer(2)])
        }
        #expect(unknown.code == .unknownOption)
        let invalid = try #require(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxDepth": .integer(0)])
        }
        #expect(invalid.code == .invalidOption)
    }

    @Test func conformanceFixturesPass() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("msgpack"))
        let runner = ConformanceRunner(registry: SerializerRegistry.standard.installing(.msgpack))
        try runner.check(fixtures)
        #expect(fixtures.count >= 15)
        // The writing cases (`write-*.encode.json`, bytes from Python's writer) pass too.
        let writing = try FixtureLoader.encodingFixtures(in: root.appendingPathComponent("msgpack"))
        #expect(try runner.check(writing: writing).results.count >= 1)
    }

    /// The serializer rules every format must follow, with fixture bodies as samples.
    @Test func followsTheSerializerRules() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("msgpack"))
        try SerializerRules(samplesFrom: fixtures).check(.msgpack)
    }
}
