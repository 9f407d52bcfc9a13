import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// `Decodable` through `PropertyListValueDecoder`, with Foundation's `PropertyListDecoder` as the oracle on valid
/// input, and the serializer through a registry.
@Suite struct PropertyListDecodingTests {
    struct Inner: Codable, Equatable, Sendable {
        var name: String
        var tags: [String]
    }

    struct Sample: Codable, Equatable, Sendable {
        var text: String
        var count: Int
        var small: UInt8
        var big: Int64
        var ratio: Double
        var single: Float
        var flag: Bool
        var when: Date
        var blob: Data
        var numbers: [Int]
        var inner: Inner
        var nested: [String: [Double]]
        var missing: String?
    }

    static let sample = Sample(
        text: "Mässig & <ok>", count: -42, small: 255, big: Int64.min, ratio: 0.1, single: 1.5, flag: true,
        when: Date(timeIntervalSinceReferenceDate: 120_000_000), blob: Data([0, 1, 2, 0xFF]), numbers: [1, 2, 3],
        inner: Inner(name: "n", tags: ["a", "b"]), nested: ["x": [1.25, -2]], missing: nil)

    @Test(arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func decodesLikeFoundation(format: PropertyListSerialization.PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let data = try encoder.encode(Self.sample)
        let oracle = try PropertyListDecoder().decode(Sample.self, from: data)
        let ours = try PropertyListValueDecoder().decode(Sample.self, from: data)
        #expect(ours == oracle)
        #expect(ours == Self.sample)
    }

    struct TestData: Decodable, Equatable {
        var aString: String
        var anInt: Int
        var aFloat: Double
        var aDate: Date
        var aList: [Item]
        var aDict: [String: Item]
        var someData: Data
        var aBigInt: UInt64

        enum Item: Decodable, Equatable {
            case text(String), number(Double), list([Item]), bool(Bool), dictionary([String: Item])

            init(from decoder: any Decoder) throws {
                let container = try decoder.singleValueContainer()
                if let value = try? container.decode(Bool.self) {
                    self = .bool(value)
                } else if let value = try? container.decode(String.self) {
                    self = .text(value)
                } else if let value = try? container.decode(Double.self) {
                    self = .number(value)
                } else if let value = try? container.decode([Item].self) {
                    self = .list(value)
                } else {
                    self = .dictionary(try container.decode([String: Item].self))
                }
            }
        }
    }

    @Test(
        .enabled(if: Corpora.isAvailable, "needs ../shared/corpora"),
        arguments: ["plist/cpython/valid/testdata.xml.plist", "plist/cpython/valid/testdata.binary.plist"])
    func corpusFileDecodesLikeFoundation(path: String) throws {
        let data = try Data(contentsOf: try #require(Corpora.url(path)))
        let oracle = try PropertyListDecoder().decode(TestData.self, from: data)
        let ours = try PropertyListValueDecoder().decode(TestData.self, from: data)
        #expect(ours == oracle)
    }

    @Test func errorsCarryTheCodingPath() throws {
        let xml = "<plist><dict><key>inner</key><dict><key>name</key><integer>1</integer></dict></dict></plist>"
        struct Outer: Decodable { var inner: Inner }
        let error = #expect(throws: SerializationError.self) {
            try PropertyListValueDecoder().decode(Outer.self, from: Data(xml.utf8))
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.codingPath == ["inner", "name"])
        #expect(error?.message.contains("inner.name") == true)
        let missing = #expect(throws: SerializationError.self) {
            try PropertyListValueDecoder().decode(Outer.self, from: Data("<plist><dict/></plist>".utf8))
        }
        #expect(missing?.codingPath == ["inner"])
    }

    static func response(type: String?, body: Data) -> Response {
        var headers = HTTPHeaderFields()
        if let type { headers.append(name: "Content-Type", value: type) }
        return Response(status: 200, headers: headers, body: body)
    }

    @Test(arguments: ["application/x-plist", "application/x-bplist", "application/plist", "Application/X-Plist; q=1"])
    func registryResolvesPropertyLists(type: String) throws {
        var registry = SerializerRegistry()
        registry.install(.propertyList)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let response = Self.response(type: type, body: try encoder.encode(Self.sample))
        #expect(registry.resolve(response).chosen?.id == "propertyList")
        let value = try registry.serialize(response, as: PropertyListValue.self)
        #expect(value["count"]?.intValue == -42)
        #expect(try registry.decode(Sample.self, from: response) == Self.sample)
    }

    @Test func sniffedPropertyListsAreDecoded() throws {
        var registry = SerializerRegistry()
        registry.install(.propertyList)
        let text =
            "<?xml version=\"1.0\"?>\n<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"x\">\n"
            + "<plist version=\"1.0\"><true/></plist>"
        let xml = Data(text.utf8)
        let response = Self.response(type: "application/octet-stream", body: xml)
        let value = try registry.serialize(response, as: PropertyListValue.self, sniffing: .sniffWhenGeneric)
        #expect(value == .bool(true))
    }

    @Test func invalidBodiesReportWhereAndHow() throws {
        let serializer = PropertyListResponseSerializer()
        let response = Self.response(type: "application/x-plist", body: Data("<plist>\n  <array>\n    <intger/>".utf8))
        let error = #expect(throws: SerializationError.self) { try serializer.serialize(response) }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains("line 3, column 5") == true)
        #expect(error?.offset == 22)
        #expect(error?.serializerID == "propertyList")
        #expect(error?.response == response)
    }

    @Test func factoryBuildsFromConfiguration() throws {
        let factory = PropertyListSerializerFactory()
        #expect(factory.id == "propertyList")
        #expect(
            factory.optionSchema.map(\.name) == [
                "format", "maxDepth", "maxObjects", "maxValueBytes", "mediaRanges", "outputFormat",
            ])
        let serializer = try factory.makeSerializer(configuration: [
            "format": .string("openStep"), "maxDepth": .integer(2), "maxValueBytes": .integer(4096),
        ])
        #expect(serializer.options.format == .openStep)
        #expect(serializer.options.maxDepth == 2)
        #expect(serializer.options.maxValueBytes == 4096)
        let unknown = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxDepht": .integer(2)])
        }
        #expect(unknown?.code == .unknownOption)
        #expect(unknown?.message.contains("maxDepth") == true)
        let wrong = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["format": .string("json")])
        }
        #expect(wrong?.code == .invalidOption)
        #expect(try factory.makeDecoder(configuration: [:]) is PropertyListResponseDecoder)
        #expect(SerializerModule.propertyList.name == "DecantPropertyList")
    }
}
