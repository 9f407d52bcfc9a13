import Foundation
import Testing

/// `decant archive`: every response of a WARC file (written by Python's warcio) or a HAR file (a browser's export
/// format, written with Python's json module) decoded through the tool's registry, one JSON line each, compared with
/// what warcio reads back and Python's json module decodes (`Archives/archives.py` wrote both).
@Suite struct DecantArchiveTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Archives")

    /// One response as `Archives/expected.json` describes it.
    struct Expected {
        var index: Int
        var url: String
        var status: Int
        var ok: Bool
        var truncated: String?
        var value: Any?
    }

    static func expected(_ file: String) throws -> [Expected] {
        let data = try Data(contentsOf: folder.appendingPathComponent("expected.json"))
        let all = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let responses = try #require(all[file] as? [[String: Any]])
        return try responses.map { response in
            Expected(
                index: try #require(response["index"] as? Int), url: try #require(response["url"] as? String),
                status: try #require(response["status"] as? Int), ok: try #require(response["ok"] as? Bool),
                truncated: response["truncated"] as? String,
                value: response["value"] is NSNull ? nil : response["value"])
        }
    }

    /// The JSON lines of `output`, parsed.
    static func lines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
        }
    }

    /// `value` as sorted JSON text, so that two parsed documents compare by content.
    static func canonical(_ value: Any) throws -> String {
        String(
            decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .fragmentsAllowed]),
            as: UTF8.self)
    }

    @Test(arguments: ["mixed.warc", "mixed.warc.gz", "page.har"])
    func everyResponseIsDecodedAsIndependentReadersReadIt(file: String) throws {
        let expected = try Self.expected(file)
        let run = try DecantToolTests.run(["archive", "--values", Self.folder.appendingPathComponent(file).path])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = try Self.lines(run.stdout)
        #expect(lines.count == expected.count)
        for (line, response) in zip(lines, expected) {
            #expect(line["index"] as? Int == response.index)
            #expect(line["url"] as? String == response.url)
            #expect(line["status"] as? Int == response.status)
            #expect(line["ok"] as? Bool == response.ok, "\(response.url): \(line)")
            let truncation = line["truncated"] as? [String: Any]
            #expect(truncation?["reason"] as? String == response.truncated, "\(response.url): \(line)")
            if let value = response.value {
                let decoded = try #require(line["value"], "\(response.url): \(line)")
                #expect(try Self.canonical(decoded) == Self.canonical(value), "\(response.url)")
            }
            if !response.ok {
                let error = line["error"] as? [String: Any]
                #expect(error?["code"] is String && error?["message"] is String, "\(response.url): \(line)")
            }
        }
        let failed = expected.filter { !$0.ok }.count
        #expect(run.stderr.contains("\(expected.count) responses"), "\(run.stderr)")
        #expect(run.stderr.contains("\(expected.count - failed) decoded, \(failed) failed"), "\(run.stderr)")
    }

    /// A status outside 200-299 fails by default (as `decode` reports it); `--any-status` decodes the body.
    @Test func anyStatusDecodesTheBodyOfAnErrorResponse() throws {
        let path = Self.folder.appendingPathComponent("mixed.warc").path
        let strict = try Self.lines(try DecantToolTests.run(["archive", path]).stdout)
        let missing = try #require(strict.first { $0["status"] as? Int == 404 })
        #expect((missing["error"] as? [String: Any])?["code"] as? String == "unacceptableStatusCode")
        let any = try Self.lines(try DecantToolTests.run(["archive", "--any-status", "--values", path]).stdout)
        let decoded = try #require(any.first { $0["status"] as? Int == 404 })
        #expect(decoded["ok"] as? Bool == true)
        #expect((decoded["value"] as? [String: Any])?["title"] as? String == "Not Found")
    }

    /// `--strict` turns a failed response into exit status 1; without it, an archive read to its end is 0.
    @Test func strictFailsWhenAResponseFailed() throws {
        let path = Self.folder.appendingPathComponent("mixed.warc").path
        #expect(try DecantToolTests.run(["archive", path]).status == 0)
        #expect(try DecantToolTests.run(["archive", "--strict", path]).status == 1)
    }

    /// Standard input is read like a file, compressed or not.
    @Test(arguments: ["mixed.warc", "mixed.warc.gz", "page.har"])
    func standardInputIsReadLikeAFile(file: String) throws {
        let url = Self.folder.appendingPathComponent(file)
        let fromFile = try DecantToolTests.run(["archive", url.path])
        let fromInput = try DecantToolTests.run(["archive", "-"], stdin: try Data(contentsOf: url))
        #expect(fromInput.status == 0)
        #expect(fromInput.stdout == fromFile.stdout)
    }

    /// A generated WARC of 3,000 responses (JSON, text, malformed JSON, XML, errors) gives the same output, byte for
    /// byte and in order, on 1, 2 and 5 threads.
    @Test func everyNumberOfJobsPrintsTheSameLines() throws {
        var archive = Data()
        for index in 0..<3000 {
            let (type, body): (String, String) =
                switch index % 5 {
                case 0: ("application/json", #"{"id": \#(index), "name": "item \#(index)", "tags": ["a", "b"]}"#)
                case 1: ("text/plain; charset=utf-8", "line \(index)\n")
                case 2: ("application/json", #"{"id": \#(index), "broken": "#)
                case 3: ("application/xml", "<item id=\"\(index)\"><name>n\(index)</name></item>")
                default: ("application/json", "[\(index), \(index * 2)]")
                }
            let status = index % 7 == 0 ? "500 Internal Server Error" : "200 OK"
            let message =
                "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            let head =
                "WARC/1.0\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/item/\(index)\r\n"
                + "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-\(String(format: "%012d", index))>\r\n"
                + "WARC-Date: 2026-12-07T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n"
                + "Content-Length: \(message.utf8.count)\r\n\r\n"
            archive.append(contentsOf: (head + message + "\r\n\r\n").utf8)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-jobs-\(UUID()).warc")
        try archive.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let one = try DecantToolTests.run(["archive", "--values", "--jobs", "1", file.path])
        #expect(one.status == 0, "\(one.stderr)")
        let lines = try Self.lines(one.stdout)
        #expect(lines.count == 3000)
        #expect(lines.map { $0["index"] as? Int } == Array(0..<3000))
        let failed = lines.filter { $0["ok"] as? Bool == false }.count
        let malformedOrErrors = (0..<3000).filter { index in index % 5 == 2 || index % 7 == 0 }.count
        #expect(failed == malformedOrErrors)
        for jobs in ["2", "5"] {
            let many = try DecantToolTests.run(["archive", "--values", "--jobs", jobs, file.path])
            #expect(many.status == 0)
            #expect(many.stdout == one.stdout, "--jobs \(jobs)")
        }
    }

    /// `--max-record-bytes`: a record larger than the limit is printed as a failed response (`limitExceeded`) and
    /// skipped, and the records after it are still read; the same holds for a HAR entry.
    @Test func aRecordOverTheLimitFailsAndTheNextIsRead() throws {
        func record(_ index: Int, body: String) -> String {
            let message =
                "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
            return "WARC/1.1\r\nWARC-Type: response\r\nWARC-Target-URI: https://example.com/\(index)\r\n"
                + "WARC-Record-ID: <urn:uuid:00000000-0000-0000-0000-00000000000\(index)>\r\n"
                + "WARC-Date: 2026-12-07T00:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n"
                + "Content-Length: \(message.utf8.count)\r\n\r\n\(message)\r\n\r\n"
        }
        let large = "[" + Array(repeating: "1", count: 2000).joined(separator: ",") + "]"
        let warc = record(0, body: large) + record(1, body: "[1, 2]")
        let entries = [large, "[1, 2]"].enumerated().map { index, body in
            #"{"request": {"method": "GET", "url": "https://example.com/\#(index)"}, "response": {"status": 200, "#
                + #""headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"size": "#
                + #"\#(body.utf8.count), "mimeType": "application/json", "text": "\#(body)"}}}"#
        }
        let har = #"{"log": {"version": "1.2", "entries": ["# + entries.joined(separator: ", ") + "]}}"
        for archive in [warc, har] {
            let run = try DecantToolTests.run(
                ["archive", "--max-record-bytes", "1000", "-"], stdin: Data(archive.utf8))
            #expect(run.status == 0, "\(run.stderr)")
            let lines = try Self.lines(run.stdout)
            #expect(lines.count == 2)
            #expect((lines.first?["error"] as? [String: Any])?["code"] as? String == "limitExceeded", "\(lines)")
            #expect(lines.last?["ok"] as? Bool == true, "\(lines)")
            #expect(lines.last?["url"] as? String == "https://example.com/1")
        }
    }

    /// An archive cut inside a gzip member: the responses before the cut are printed, then exit status 1 with a
    /// message that says the file could not be read to its end.
    @Test func aTruncatedGzipMemberEndsWithStatus1AfterTheResponsesBeforeIt() throws {
        let data = try Data(contentsOf: Self.folder.appendingPathComponent("mixed.warc.gz"))
        let run = try DecantToolTests.run(["archive", "-"], stdin: data.prefix(data.count * 2 / 3))
        #expect(run.status == 1)
        let lines = try Self.lines(run.stdout)
        let expected = try Self.expected("mixed.warc.gz")
        #expect(!lines.isEmpty && lines.count < expected.count)
        #expect(lines.map { $0["url"] as? String } == expected.prefix(lines.count).map(\.url))
        #expect(run.stderr.contains("could not be read to its end"), "\(run.stderr)")
    }

    /// Input that is neither WARC nor HAR is refused with a message naming both, exit status 1; a bad --jobs is a
    /// usage error.
    @Test func anInputThatIsNoArchiveIsRefused() throws {
        let garbage = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) })
        // From a file: the tool stops reading after the first bytes, and a pipe written after that would be broken.
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-garbage-\(UUID())")
        try garbage.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let run = try DecantToolTests.run(["archive", file.path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("neither a WARC file"), "\(run.stderr)")
        #expect(run.stdout.isEmpty)
        let empty = try DecantToolTests.run(["archive", "-"])
        #expect(empty.status == 1)
        #expect(empty.stderr.contains("it is empty"))
        #expect(try DecantToolTests.run(["archive", "--jobs", "0", "-"]).status == 2)
    }
}
