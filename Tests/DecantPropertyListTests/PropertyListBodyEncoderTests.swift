import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantPropertyList

/// The `propertyList` format's `BodyEncoder`: which media type means which format, the factory's `outputFormat`
/// option, the encoding options that apply, and what a registry reads back.
@Suite struct PropertyListBodyEncoderTests {
    struct Settings: Codable, Equatable, Sendable {
        var userName: String
        var updatedAt: Date
        var blob: Data
    }

    static let settings = Settings(
        userName: "ada", updatedAt: Date(timeIntervalSince1970: 1_700_000_000), blob: Data([1, 2, 3]))
    static let registry: SerializerRegistry = {
        var registry = SerializerRegistry()
        registry.install(.propertyList)
        return registry
    }()

    static func isBinary(_ body: EncodedBody) -> Bool { body.body.starts(with: Array("bplist00".utf8)) }

    @Test(arguments: [
        ("application/x-plist", false), ("application/plist", false), ("application/x-bplist", true),
        ("Application/X-BPlist; charset=utf-8", true),
    ])
    func mediaTypeChoosesTheFormat(type: String, binary: Bool) throws {
        let mediaType = try MediaType(parsing: type)
        let body = try Self.registry.encode(Self.settings, as: mediaType)
        #expect(Self.isBinary(body) == binary)
        #expect(body.contentType == mediaType.withoutParameters)
        #expect(body.serializerID == "propertyList")
        #expect(try Self.registry.decode(Settings.self, from: body.response()) == Self.settings)
        #expect(try PropertyListDecoder().decode(Settings.self, from: body.body) == Self.settings)
    }

    @Test func valuesWithUIDsAreBinaryUnlessXMLIsDemanded() throws {
        let archive = PropertyListValue.dictionary(PropertyListDictionary([("$top", .uid(1))]))
        let body = try Self.registry.encode(archive, as: "application/x-plist")
        #expect(Self.isBinary(body))
        #expect(try Self.registry.serialize(body.response()).value as? PropertyListValue == archive)
        let xmlOnly = PropertyListBodyEncoder(outputFormat: .xml)
        let error = try #require(throws: SerializationError.self) {
            try xmlOnly.encode(archive, as: "application/x-plist", options: EncodingOptions())
        }
        #expect(error.code == .encodingFailed)
        #expect(error.mediaType == "application/x-plist")
        #expect(error.serializerID == "propertyList")
    }

    @Test func factoryOutputFormatOption() throws {
        let factory = PropertyListSerializerFactory()
        let binary = try #require(try factory.makeEncoder(configuration: ["outputFormat": .string("binary")]))
        let body = try binary.encode(Self.settings, as: "application/x-plist", options: EncodingOptions())
        #expect(Self.isBinary(body))
        let lowered = try #require(try factory.makeEncoder(configuration: ["maxDepth": .integer(2)]))
        let deep = PropertyListValue.array([.array([.array([])])])
        let error = try #require(throws: SerializationError.self) {
            try lowered.encode(deep, as: "application/x-plist", options: EncodingOptions())
        }
        #expect(error.code == .limitExceeded)
        #expect(throws: SerializationError.self) {
            try factory.makeEncoder(configuration: ["outputFormat": .string("openStep")])
        }
    }

    @Test func encodingOptionsThatApply() throws {
        let options = EncodingOptions(
            keyEncodingStrategy: .convertToSnakeCase, dateEncodingStrategy: .iso8601, outputFormatting: [.sortedKeys])
        let body = try Self.registry.encode(Self.settings, as: "application/x-plist", options: options)
        guard case .dictionary(let read) = try PlistTestSupport.parse(body.body) else {
            Issue.record("not a dictionary")
            return
        }
        // Dates stay dates; keys are converted and sorted.
        #expect(read.keys == ["blob", "updated_at", "user_name"])
        #expect(read["updated_at"] == .date(Self.settings.updatedAt))
        let value = PropertyListValue.dictionary(PropertyListDictionary([("b", .bool(true)), ("a", .bool(false))]))
        let sorted = try Self.registry.encode(value, as: "application/x-plist", options: options)
        let text = String(decoding: sorted.body, as: UTF8.self)
        let first = try #require(text.range(of: "<key>a</key>"))
        let second = try #require(text.range(of: "<key>b</key>"))
        #expect(first.lowerBound < second.lowerBound)
    }

    final class NotEncodable: Sendable {}

    @Test func canEncode() throws {
        let encoder = PropertyListBodyEncoder()
        #expect(encoder.canEncode(PropertyListValue.bool(true)))
        #expect(encoder.canEncode(Self.settings))
        #expect(!encoder.canEncode(NotEncodable()))
        let error = try #require(throws: SerializationError.self) {
            try encoder.encode(NotEncodable(), as: "application/x-plist", options: EncodingOptions())
        }
        #expect(error.code == .unsupportedValue)
    }
}
