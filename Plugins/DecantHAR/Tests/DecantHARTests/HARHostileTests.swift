import Decant
import DecantHAR
import Foundation
import Testing

/// Hostile and broken files: each ends with a clear error or the records it can honestly give, in bounded memory.
@Suite struct HARHostileTests {
    private static func data(_ text: String) -> Data { Data(text.utf8) }

    /// 1 MB of pseudo-random bytes is not a HAR file: `invalidBody` at the first byte that is not JSON.
    @Test func garbage() {
        var generator = SystemRandomNumberGenerator()
        var bytes = [UInt8](repeating: 0, count: 1 << 20)
        for index in bytes.indices { bytes[index] = generator.next() }
        bytes[0] = 0x41  // not whitespace, not `{`
        let error = #expect(throws: SerializationError.self) { try HARTestSupport.read([Data(bytes)], chunk: 4096) }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == 0)
    }

    /// A 100 MB string inside an entry: that entry fails with `limitExceeded` (its bytes not kept) and the next
    /// entry is read.
    @Test func hugeStringInsideAnEntry() throws {
        let megabyte = Data(repeating: UInt8(ascii: "a"), count: 1 << 20)
        let head = Self.data(#"{"log": {"entries": [{"response": {"status": 200, "content": {"text": ""#)
        let tail = Self.data(
            #""}}}, {"request": {"url": "https://example.com/next"}, "response": {"status": 201}}]}}"#)
        let records = try HARTestSupport.read([head] + Array(repeating: megabyte, count: 100) + [tail])
        #expect(records.count == 2)
        #expect(records[0].index == 0 && records[0].offset == 21)
        #expect(throws: SerializationError.self) { try records[0].response.get() }
        if case .failure(let error) = records[0].response { #expect(error.code == .limitExceeded) }
        #expect(records[1].index == 1)
        #expect(records[1].targetURI == "https://example.com/next")
        #expect(try records[1].response.get().status == 201)
    }

    /// A 100 MB `log.comment` is skipped without being kept; the entries after it are read.
    @Test func hugeStringOutsideTheEntries() throws {
        let megabyte = Data(repeating: UInt8(ascii: "b"), count: 1 << 20)
        let head = Self.data(#"{"log": {"comment": ""#)
        let tail = Self.data(#"", "entries": [{"response": {"status": 200}}]}}"#)
        let records = try HARTestSupport.read([head] + Array(repeating: megabyte, count: 100) + [tail])
        #expect(records.count == 1)
        #expect(try records[0].response.get().status == 200)
    }

    /// 10^6 empty entries `{}`: 10^6 records, each a `malformedMessage` failure naming its index and the missing
    /// member, read in one pass.
    @Test func aMillionEmptyEntries() throws {
        let count = 1_000_000
        var text = #"{"log": {"entries": ["#
        text += String(repeating: "{},", count: count - 1) + "{}]}}"
        var reader = HARRecordReader()
        var records: [Result<ArchivedResponse, SerializationError>] = []
        var failures = 0
        var last: SerializationError?
        let body = Data(text.utf8)
        for start in stride(from: 0, to: body.count, by: 1 << 16) {
            try HARTestSupport.consume(body[start..<min(body.count, start + (1 << 16))], by: &reader, into: &records)
            for record in records {
                if case .failure(let error) = try record.get().response, error.code == .malformedMessage {
                    failures += 1
                    last = error
                }
            }
            records.removeAll(keepingCapacity: true)
        }
        try reader.finish(into: &records)
        #expect(records.isEmpty)
        #expect(failures == count)
        #expect(last?.message.contains("Entry 999999") == true)
        #expect(last?.message.contains("'response'") == true)
    }

    /// A file cut in the middle of an entry: the entries before it are read, then `finish` throws `truncatedBody`
    /// naming the cut entry.
    @Test(arguments: [1, 7, Int.max])
    func cutMidEntry(chunk: Int) throws {
        let text = #"{"log": {"entries": [{"response": {"status": 200}}, {"response": {"status": 404, "he"#
        var reader = HARRecordReader()
        var records: [Result<ArchivedResponse, SerializationError>] = []
        let body = Self.data(text)
        for start in stride(from: 0, to: body.count, by: min(chunk, body.count)) {
            try HARTestSupport.consume(body[start..<min(body.count, start + chunk)], by: &reader, into: &records)
        }
        #expect(records.count == 1)
        let error = #expect(throws: SerializationError.self) { try reader.finish(into: &records) }
        #expect(error?.code == .truncatedBody)
        #expect(error?.offset == body.count)
        #expect(error?.message.contains("entry 1") == true)
    }

    /// A few bytes claiming a huge size allocate nothing: the record says what the file claims.
    @Test func hugeStatedSize() throws {
        let records = try HARTestSupport.read([
            Self.data(#"{"log": {"entries": [{"response": {"status": 200, "content": {"size": 1e18}}}]}}"#)
        ])
        #expect(records.count == 1)
        #expect(
            records[0].truncation
                == ArchivedResponse.Truncation(reason: "length", keptBytes: 0, statedBytes: 1_000_000_000_000_000_000))
        #expect(try records[0].response.get().body.isEmpty)
    }

    /// Nesting deeper than `maxDepth` throws `limitExceeded`, inside an entry or outside, without recursion.
    @Test func deepNesting() {
        let deep = String(repeating: "[", count: 100_000)
        // The prefixes open 4 and 2 containers; the bracket that would open container 513 is the one refused.
        for (prefix, open) in [(#"{"log": {"entries": [{"x": "#, 4), (#"{"log": {"pages": "#, 2)] {
            let error = #expect(throws: SerializationError.self) {
                try HARTestSupport.read([Self.data(prefix + deep)])
            }
            #expect(error?.code == .limitExceeded)
            #expect(error?.offset == prefix.utf8.count + HARRecordReader.defaultMaxDepth - open)
        }
    }

    /// An entry over `maxRecordBytes` is skipped whatever the chunking, and reading goes on.
    @Test(arguments: [1, 7, Int.max])
    func entryOverTheLimit(chunk: Int) throws {
        let text =
            #"{"log": {"entries": [{"response": {"status": 200, "x": [1, 2, 3, 4]}}, {"response": {"status": 1}}]}}"#
        let records = try HARTestSupport.read(
            [Self.data(text)], chunk: chunk, reader: HARRecordReader(maxRecordBytes: 40))
        #expect(records.count == 2)
        if case .failure(let error) = records[0].response {
            #expect(error.code == .limitExceeded)
            #expect(error.offset == 21)
        } else {
            Issue.record("the first entry should fail")
        }
        #expect(try records[1].response.get().status == 1)
    }

    /// Documents that are JSON but not HAR, or not JSON at all, fail with `invalidBody` at the byte that is wrong.
    @Test(arguments: [
        (#"[]"#, 0), (#"{"log": []}"#, 8), (#"{"log": {"entries": {}}}"#, 20), (#"{"log": {}}"#, 11),
        (#"{"other": 1}"#, 12), (#"{"log": {"entries": []}} x"#, 25), (#"{"log" {"entries": []}}"#, 7),
        (#"{"log": {"entries": [}]}}"#, 21), (#"{"log": {"entries": [1,]}}"#, 23), ("", 0), ("  \n", 3),
    ])
    func notAHARFile(text: String, offset: Int) {
        let error = #expect(throws: SerializationError.self) { try HARTestSupport.read([Self.data(text)]) }
        #expect(error?.code == .invalidBody, "\(text)")
        #expect(error?.offset == offset, "\(text)")
    }
}
