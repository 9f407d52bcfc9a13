import Decant
import DecantConformance
import DecantWARC
import Foundation
import Testing

@Suite struct WARCHostileTests {
    /// 1 MB of pseudo-random bytes is not a WARC: invalidBody at offset 0, at once.
    @Test func garbage() {
        var generator = SplitMix64(seed: 36)
        var bytes = generator.bytes(count: 1 << 20)
        bytes[0] = UInt8(ascii: "x")
        let result = WARCTestSupport.read(Data(bytes), chunk: 4096)
        #expect(result.records.isEmpty)
        #expect(result.error == "invalidBody at 0")
    }

    /// A version line followed by 1 MB without a blank line: the head limit ends the stream.
    @Test func headWithoutEnd() {
        var body = Data("WARC/1.0\r\n".utf8)
        body.append(Data(repeating: UInt8(ascii: "a"), count: 1 << 20))
        let result = WARCTestSupport.read(body, chunk: 65536)
        #expect(result.error == "limitExceeded at 0")
    }

    /// A response record claiming 10^12 bytes in a few: a limitExceeded failure for that response (no allocation
    /// sized by the claim), then the end of the file inside its block.
    @Test func recordClaimingATerabyte() throws {
        let body = Data(
            "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: http://a/\r\nContent-Length: 1000000000000\r\n\r\nHTTP"
                .utf8)
        let result = WARCTestSupport.read(body, chunk: 7)
        #expect(result.records.count == 1)
        #expect(result.records.first?.contains(#""error":"limitExceeded""#) == true)
        #expect(result.error?.hasPrefix("truncatedBody") == true)
        let skipped = WARCTestSupport.read(
            Data("WARC/1.0\r\nWARC-Type: resource\r\nContent-Length: 1000000000000\r\n\r\nabc".utf8), chunk: 3)
        #expect(skipped.records.isEmpty)
        #expect(skipped.error?.hasPrefix("truncatedBody") == true)
        let absurd = WARCTestSupport.read(
            Data("WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 99999999999999999999\r\n\r\n".utf8), chunk: 5)
        #expect(absurd.error?.hasPrefix("invalidBody") == true)
    }

    /// A gzip member cut short ends with truncatedBody; a corrupt one with invalidBody, at the member's offset.
    @Test func damagedGzipMembers() throws {
        let archive = try WARCTestSupport.archive("gzip-warc-1.0")
        let cut = WARCTestSupport.read(archive.prefix(archive.count / 2), chunk: 7)
        #expect(cut.error?.hasPrefix("truncatedBody") == true)
        var corrupt = [UInt8](archive)
        for index in 20..<60 { corrupt[index] ^= 0x5A }
        let damaged = WARCTestSupport.read(Data(corrupt), chunk: 7)
        #expect(damaged.error?.hasPrefix("invalidBody") == true)
        var trailing = archive
        trailing.append(Data("WARC/1.0\r\n".utf8))
        #expect(WARCTestSupport.read(trailing, chunk: 1).error?.hasPrefix("invalidBody") == true)
    }

    /// A gzip member inflating beyond maxRecordBytes ends the stream with limitExceeded.
    /// Inputs FuzzWARC found (base64, without the fuzzer's control byte): gzip members whose DEFLATE data is corrupt
    /// fail with the same error and offset whether they arrive whole or a byte at a time. The first made the reader
    /// report the offset of the bytes the decoder had read ahead, which depends on how many had arrived.
    @Test(arguments: ["H4sIAP//AP//QRMAtQAAH4sIAAAAAAAAAAAAAE9wdGlvbmFsAIuodkiVqHZIlg=="])
    func fuzzFindingsReadTheSameInChunks(base64: String) throws {
        let body = try #require(Data(base64Encoded: base64))
        let whole = WARCTestSupport.read(body, chunk: body.count)
        #expect(whole.error != nil)
        for chunk in [1, 2, 7] {
            let chunked = WARCTestSupport.read(body, chunk: chunk)
            #expect(chunked.records == whole.records, "chunks of \(chunk)")
            #expect(chunked.error == whole.error, "chunks of \(chunk)")
        }
    }

    @Test func gzipMemberOverTheLimit() throws {
        let archive = try WARCTestSupport.archive("gzip-warc-1.0")
        let result = WARCTestSupport.read(archive, chunk: 7, reader: WARCRecordReader(maxRecordBytes: 300))
        #expect(result.records.isEmpty)
        #expect(result.error == "limitExceeded at 0")
    }

    /// 2^20 (over 10^6) empty warcinfo records: read in one pass, no responses.
    @Test func aMillionEmptyRecords() throws {
        var body = Data("WARC/1.0\r\nWARC-Type: warcinfo\r\nContent-Length: 0\r\n\r\n\r\n\r\n".utf8)
        for _ in 0..<20 { body.append(body) }
        let responses = try WARCResponseSerializer().serialize(
            Response(status: 200, headers: ["Content-Type": "application/warc"], body: body))
        #expect(responses.responses.isEmpty)
    }

    /// A response record over the limit is a limitExceeded failure whose block is skipped; the next one is read.
    @Test(arguments: [1, 7, 100_000])
    func recordOverTheLimitThenAGoodOne(chunk: Int) throws {
        var body = WARCTestSupport.response("http://a/big", body: String(repeating: "x", count: 5000))
        body.append(WARCTestSupport.response("http://a/small", body: "small"))
        let result = WARCTestSupport.read(body, chunk: chunk, reader: WARCRecordReader(maxRecordBytes: 1000))
        #expect(result.error == nil)
        #expect(result.records.count == 2)
        #expect(result.records.first?.contains(#""index":0"#) == true)
        #expect(result.records.first?.contains(#""error":"limitExceeded""#) == true)
        #expect(result.records.last?.contains(#""index":1"#) == true)
        #expect(result.records.last?.contains(#""body_base64":"c21hbGw=""#) == true)  // base64 of "small"
    }

    /// A stream with the default `.stop` policy still reads past a response over the limit: the failure is the
    /// response's, not the stream's.
    @Test func streamReadsPastAnOversizedResponse() async throws {
        var body = WARCTestSupport.response("http://a/big", body: String(repeating: "x", count: 5000))
        body.append(WARCTestSupport.response("http://a/small", body: "small"))
        let registry = WARCTestSupport.registry
        let stream = try await registry.records(
            Response(status: 200, headers: ["Content-Type": "application/warc"]),
            body: ChunkedBody(body, seed: 3, maxChunk: 64), as: ArchivedResponse.self,
            options: StreamOptions(maxRecordBytes: 1000))
        var codes: [String] = []
        for try await archived in stream {
            switch archived.response {
            case .success(let response): codes.append("\(response.status)")
            case .failure(let error): codes.append(error.code.rawValue)
            }
        }
        #expect(codes == ["limitExceeded", "200"])
    }
}
