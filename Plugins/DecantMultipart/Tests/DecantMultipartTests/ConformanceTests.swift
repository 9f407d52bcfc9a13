import Decant
import DecantConformance
import DecantMultipart
import Foundation
import Testing

@Suite struct ConformanceTests {
    /// Every fixture of Fixtures/multipart (written by Plugins/DecantMultipart/fixtures.py) passes with the plugin
    /// installed, parts decoded by the standard registry plus `data`.
    @Test func fixtures() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("multipart"))
        try ConformanceRunner(registry: MultipartTestSupport.registry).check(fixtures)
        #expect(fixtures.count >= 20)
    }

    /// The serializer rules every format must follow, with fixture bodies as samples (parts decoded with the
    /// built-ins).
    @Test func followsTheSerializerRules() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("multipart"))
        try SerializerRules(samplesFrom: fixtures).check(
            .multipart(decodingPartsWith: MultipartTestSupport.partRegistry))
    }

    /// The five multipart media types resolve to this serializer, without conflicts with the built-ins; other
    /// multipart subtypes are left alone.
    @Test(arguments: [
        ("multipart/mixed; boundary=x", true), ("Multipart/Form-Data; boundary=x", true),
        ("multipart/alternative", true), ("multipart/related; type=\"text/html\"", true),
        ("multipart/byteranges; boundary=x", true), ("multipart/digest; boundary=x", false),
    ])
    func mediaTypesResolveToMultipart(contentType: String, resolves: Bool) throws {
        let registry = MultipartTestSupport.registry
        let mediaType = try #require(MediaType(contentType))
        #expect((registry.resolve(mediaType).chosen?.id == "multipart") == resolves)
        #expect(registry.conflicts.isEmpty)
    }

    /// Configuration options reach the serializer; unknown and ill-typed ones are reported.
    @Test func factoryOptions() throws {
        let factory = MultipartSerializerFactory(decodingPartsWith: MultipartTestSupport.partRegistry)
        let serializer = try factory.makeSerializer(configuration: [
            "maxParts": 3, "maxPartHeaderBytes": 100, "maxDepth": 2, "failsOnPartError": true,
        ])
        #expect(
            serializer.options
                == MultipartParsingOptions(maxParts: 3, maxPartHeaderBytes: 100, maxDepth: 2, failsOnPartError: true))
        let unknown = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxPart": 3])
        }
        #expect(unknown?.code == .unknownOption)
        let invalid = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["failsOnPartError": "yes"])
        }
        #expect(invalid?.code == .invalidOption)
    }
}
