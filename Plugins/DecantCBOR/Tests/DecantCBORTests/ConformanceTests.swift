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
        let report = ConformanceRunner(registry: SerializerRegistry.standard.installing(.cbor)).run(fixtures)
        #expect(report.failed == 0, "\(report.failures.map { "\($0.name): \($0.failure ?? "")" })")
        #expect(fixtures.count >= 15)
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
