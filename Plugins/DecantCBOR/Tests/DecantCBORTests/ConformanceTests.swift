import Decant
import DecantCBOR
import DecantConformance
import Foundation
import Testing

@Suite struct ConformanceTests {
    /// Every fixture of Fixtures/cbor (written by Plugins/DecantCBOR/fixtures.py) passes with the plugin installed.
    @Test func fixtures() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("cbor"))
        let runner = ConformanceRunner(registry: SerializerRegistry.standard.installing(.cbor))
        try runner.check(fixtures)
        #expect(fixtures.count >= 15)
        // The writing cases (`write-*.encode.json`, bytes from Python's writer) pass too.
        let writing = try FixtureLoader.encodingFixtures(in: root.appendingPathComponent("cbor"))
        #expect(try runner.check(writing: writing).results.count >= 1)
    }

    /// The serializer rules every format must follow, with fixture bodies as samples.
    @Test func followsTheSerializerRules() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("cbor"))
        try SerializerRules(samplesFrom: fixtures).check(.cbor)
    }

    /// The CBOR media types resolve to this serializer, without conflicts with the built-ins.
    @Test(arguments: [
        "application/cbor", "Application/CBOR", "application/cbor-seq", "application/vnd.example+cbor",
        "application/senml+cbor-seq",
    ])
    func mediaTypesResolveToCBOR(contentType: String) throws {
        let registry = SerializerRegistry.standard.installing(.cbor)
        let mediaType = try #require(MediaType(contentType))
        #expect(registry.resolve(mediaType).chosen?.id == "cbor")
        #expect(registry.conflicts.isEmpty)
    }
}
