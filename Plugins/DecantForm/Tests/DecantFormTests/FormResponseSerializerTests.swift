import Decant
import DecantConformance
import DecantForm
import Foundation
import Testing

@Suite struct FormResponseSerializerTests {
    static func response(_ body: String, contentType: String = "application/x-www-form-urlencoded") -> Response {
        Response(status: 200, headers: ["Content-Type": contentType], body: Data(body.utf8))
    }

    @Test func registryResolvesTheFormMediaType() throws {
        let registry = SerializerRegistry.standard.installing(.form)
        let form = try registry.serialize(Self.response("a=1&b=x+y"), as: FormData.self)
        #expect(form == FormData([("a", "1"), ("b", "x y")]))
        let result = try registry.serialize(Self.response("a=1", contentType: "Application/X-WWW-Form-URLEncoded"))
        #expect(result.serializerID == "form")
    }

    @Test func charsetParameterIsIgnored() throws {
        // "%E9" is Latin-1 for "é" but not UTF-8: the format is UTF-8 only, so it becomes U+FFFD whatever the label.
        let serializer = FormResponseSerializer()
        let body = "name=Jos%E9&ok=%C3%A9"
        let latin1 = try serializer.serialize(
            Self.response(body, contentType: "application/x-www-form-urlencoded; charset=iso-8859-1"))
        let plain = try serializer.serialize(Self.response(body))
        #expect(latin1 == plain)
        #expect(plain == FormData([("name", "Jos\u{FFFD}"), ("ok", "\u{E9}")]))
    }

    @Test func emptyValueIsAnEmptyForm() throws {
        #expect(try FormResponseSerializer().emptyValue(for: Self.response("")) == FormData())
        let registry = SerializerRegistry.standard.installing(.form)
        #expect(try registry.serialize(Self.response(""), as: FormData.self).isEmpty)
    }

    @Test func limitErrorsCarryTheSerializerAndResponse() throws {
        let serializer = FormResponseSerializer(options: FormParsingOptions(maxPairs: 1))
        let error = try #require(throws: SerializationError.self) { try serializer.serialize(Self.response("a&b")) }
        #expect(error.code == .limitExceeded)
        #expect(error.serializerID == "form")
        #expect(error.status == 200)
        #expect(error.mediaType?.essence == "application/x-www-form-urlencoded")
    }

    @Test func factoryReadsLimitOptions() throws {
        let factory = FormSerializerFactory()
        #expect(factory.id == "form")
        let serializer = try factory.makeSerializer(configuration: ["maxPairs": .integer(2), "maxBytes": .number(100)])
        #expect(serializer.parser.options == FormParsingOptions(maxPairs: 2, maxBytes: 100))
        let defaults = try factory.makeSerializer(configuration: [:])
        #expect(defaults.parser.options == FormParsingOptions())
        #expect(defaults.mediaRanges == MediaFormat.form.mediaRanges)
        let ranges = try factory.makeSerializer(configuration: ["mediaRanges": .array([.string("text/plain")])])
        #expect(ranges.mediaRanges.map(\.description) == ["text/plain"])
    }

    @Test func factoryRejectsBadOptions() throws {
        let factory = FormSerializerFactory()
        let unknown = try #require(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxPair": .integer(2)])
        }
        #expect(unknown.code == .unknownOption)
        #expect(unknown.message.contains("maxPairs"))
        let invalid = try #require(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxBytes": .integer(0)])
        }
        #expect(invalid.code == .invalidOption)
        #expect(invalid.codingPath == ["maxBytes"])
    }

    @Test func conformanceFixturesPass() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("form"))
        let runner = ConformanceRunner(registry: SerializerRegistry.standard.installing(.form))
        try runner.check(fixtures)
        #expect(fixtures.count >= 15)
        // The writing cases (`write-*.encode.json`, bytes from Python's writer) pass too.
        let writing = try FixtureLoader.encodingFixtures(in: root.appendingPathComponent("form"))
        #expect(try runner.check(writing: writing).results.count >= 1)
    }

    /// The serializer rules every format must follow, with fixture bodies as samples.
    @Test func followsTheSerializerRules() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("form"))
        try SerializerRules(samplesFrom: fixtures).check(.form)
    }
}
