import Decant
import DecantConformance
import DecantWARC
import Foundation
import Testing

@Suite struct WARCConformanceTests {
    /// Every fixture of Fixtures/warc (archives written by warcio, expectations read back by warcio's
    /// ArchiveIterator) passes with the plugin installed.
    @Test func fixtures() throws {
        try ConformanceRunner(registry: WARCTestSupport.registry).check(WARCTestSupport.fixtures)
        #expect(WARCTestSupport.fixtures.count >= 18)
    }

    /// The serializer rules every format must follow, with fixture bodies as samples.
    @Test func followsTheSerializerRules() throws {
        try SerializerRules(samplesFrom: WARCTestSupport.fixtures).check(.warc)
    }

    /// Every fixture's archive fed in chunks of 1 byte, 7 bytes and whole gives the same responses and the same
    /// ending error (code and offset).
    @Test(arguments: [1, 7, Int.max])
    func anyChunkingGivesTheSameRecords(chunk: Int) throws {
        for fixture in WARCTestSupport.fixtures {
            let body = try Response(raw: fixture.raw).body
            let whole = WARCTestSupport.read(body, chunk: body.count)
            let chunked = WARCTestSupport.read(body, chunk: chunk)
            #expect(chunked.records == whole.records, "\(fixture.name)")
            #expect(chunked.error == whole.error, "\(fixture.name)")
        }
    }

    /// `application/warc` resolves to this serializer, without conflicts with the built-ins.
    @Test(arguments: [
        ("application/warc", true), ("Application/WARC; version=1.1", true), ("application/x-tar", false),
    ])
    func mediaTypesResolveToWARC(contentType: String, resolves: Bool) throws {
        let mediaType = try #require(MediaType(contentType))
        #expect((WARCTestSupport.registry.resolve(mediaType).chosen?.id == "warc") == resolves)
        #expect(WARCTestSupport.registry.conflicts.isEmpty)
    }

    /// Configuration options reach the serializer; unknown and ill-typed ones are reported.
    @Test func factoryOptions() throws {
        let factory = WARCSerializerFactory()
        let serializer = try factory.makeSerializer(configuration: ["maxRecordBytes": 1000, "maxHeadBytes": 200])
        #expect(serializer.maxRecordBytes == 1000)
        #expect(serializer.maxHeadBytes == 200)
        let unknown = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxRecord": 3])
        }
        #expect(unknown?.code == .unknownOption)
        let invalid = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxHeadBytes": "big"])
        }
        #expect(invalid?.code == .invalidOption)
    }
}
