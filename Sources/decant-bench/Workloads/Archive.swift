import Decant
import DecantCSV
import DecantCommandLine
import DecantCompression
import DecantWARC
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `archive.warc*`: `decant archive` (the tool's command, run in this process with its output sent to /dev/null) over
/// a generated WARC of mixed responses, in wall time: MB/s and µs per response on one job against Python's warcio
/// iterating the same file (reading every response's payload, de-chunked and decompressed, without decoding it), and
/// the throughput of two jobs over one.
enum ArchiveWorkloads {
    /// `archive.warc`, `archive.warc.response`, `archive.warc.jobs`.
    static var all: [Workload] {
        [
            Workload(
                name: "archive.warc", unit: .megabytesPerSecond, baselineName: "warcio, payloads read",
                summary: "decant archive --jobs 1 over a generated WARC of mixed responses (JSON, gzip JSON, HTML, "
                    + "XML, CSV, errors), every response decoded, wall time"
            ) { settings in
                let result = try measured(settings)
                return .direct(
                    DirectResult(
                        decant: Double(result.bytes) / result.oneJob / 1e6,
                        baseline: result.warcio.map { Double(result.bytes) / $0 / 1e6 },
                        baselineName: result.warcio == nil ? nil : "warcio, payloads read", rounds: result.rounds,
                        spread: result.oneJobSpread, baselineSpread: nil, note: result.note))
            },
            Workload(
                name: "archive.warc.response", unit: .microsecondsPerOperation, baselineName: "warcio, payloads read",
                summary: "archive.warc per response (1e6 / this = responses per second)"
            ) { settings in
                let result = try measured(settings)
                return .direct(
                    DirectResult(
                        decant: result.oneJob / Double(result.responses) * 1e6,
                        baseline: result.warcio.map { $0 / Double(result.responses) * 1e6 },
                        baselineName: result.warcio == nil ? nil : "warcio, payloads read", rounds: result.rounds,
                        spread: result.oneJobSpread, baselineSpread: nil, note: nil))
            },
            Workload(
                name: "archive.warc.jobs", unit: .speedup, baselineName: nil,
                summary: "decant archive --jobs 2 over --jobs 1 on the same WARC, wall time (2.0 is perfect scaling)"
            ) { settings in
                let result = try measured(settings)
                return .direct(
                    DirectResult(
                        decant: Statistics.median(result.speedups), baseline: nil, baselineName: nil,
                        rounds: result.rounds, spread: MemoryWorkloads.spread(result.speedups), baselineSpread: nil,
                        note: "archive.warc.jobs: the target is 1.8 on two idle cores; this machine has "
                            + "\(ProcessInfo.processInfo.activeProcessorCount)"))
            },
        ]
    }

    /// What the three rows report, measured once.
    struct Measurement {
        var bytes: Int
        var responses: Int
        var rounds: Int
        /// Median wall seconds of one pass with one job.
        var oneJob: Double
        var oneJobSpread: Double?
        /// One job's seconds over two jobs', per round.
        var speedups: [Double]
        /// Median wall seconds of one warcio pass, when warcio is installed.
        var warcio: Double?
        var note: String
    }

    nonisolated(unsafe) private static var cache: Measurement?

    /// The tool the rows run: the standard registry with the WARC reader and the CSV format.
    private static let tool = DecantTool(
        name: "decant", registry: SerializerRegistry.standard.installing(.warc).installing(.csv))

    private static func measured(_ settings: RunSettings) throws -> Measurement {
        if let cache { return cache }
        let (archive, responses) = generate(bytes: settings.quick ? 4_000_000 : 40_000_000)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-bench-\(UUID()).warc")
        try archive.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        // The output is checked once: every response printed, as many decoded as the generator made decodable.
        let check = tool.capture(["archive", file.path])
        let lines = check.standardOutput.split(separator: "\n")
        let decoded = lines.filter { $0.contains(#""ok":true"#) }.count
        guard check.status == 0, lines.count == responses.total, decoded == responses.decodable else {
            throw BenchError(
                description: "archive.warc: decant archive printed \(lines.count) lines (\(decoded) ok) for "
                    + "\(responses.total) responses (\(responses.decodable) decodable): \(check.standardError)")
        }

        run(file, jobs: 1)  // warm up
        let rounds = settings.quick ? 1 : 5
        var one: [Double] = []
        var speedups: [Double] = []
        for _ in 0..<rounds {
            let single = run(file, jobs: 1)
            let double = run(file, jobs: 2)
            one.append(single)
            speedups.append(single / double)
        }
        let warcio = try? warcioSeconds(file, passes: rounds)
        let measurement = Measurement(
            bytes: archive.count, responses: responses.total, rounds: rounds, oneJob: Statistics.median(one),
            oneJobSpread: MemoryWorkloads.spread(one), speedups: speedups, warcio: warcio,
            note: "archive.warc: \(archive.count) bytes, \(responses.total) responses (and as many request records), "
                + "\(responses.decodable) decodable"
                + (warcio == nil ? "; no baseline: Python's warcio is not installed (pip install warcio)" : ""))
        cache = measurement
        return measurement
    }

    /// Wall seconds of one `decant archive --jobs N FILE`, its standard output and error sent to /dev/null.
    @discardableResult
    private static func run(_ file: URL, jobs: Int) -> Double {
        fflush(nil)
        let savedOutput = dup(1)
        let savedError = dup(2)
        let null = open("/dev/null", O_WRONLY)
        dup2(null, 1)
        dup2(null, 2)
        let start = Clock.wallSeconds()
        let status = tool.run(["archive", "--jobs", String(jobs), file.path])
        let seconds = Clock.wallSeconds() - start
        dup2(savedOutput, 1)
        dup2(savedError, 2)
        close(null)
        close(savedOutput)
        close(savedError)
        consume(Int(status))
        return seconds
    }

    /// Median wall seconds of warcio iterating `file` and reading every response's payload.
    private static func warcioSeconds(_ file: URL, passes: Int) throws -> Double {
        let script = """
            import sys, time
            from warcio.archiveiterator import ArchiveIterator
            times = []
            for _ in range(int(sys.argv[2])):
                start = time.perf_counter()
                with open(sys.argv[1], 'rb') as stream:
                    for record in ArchiveIterator(stream):
                        if record.rec_type == 'response':
                            record.content_stream().read()
                times.append(time.perf_counter() - start)
            times.sort()
            print(times[len(times) // 2])
            """
        // python3 as the shell finds it (warcio is often installed for a python3 other than /usr/bin's).
        let output: String
        if let python = ExternalTool.named("python3", by: "DECANT_PYTHON") {
            output = try python.output(["-c", script, file.path, String(passes)])
        } else {
            let env = ExternalTool(name: "python3", path: "/usr/bin/env")
            output = try env.output(["python3", "-c", script, file.path, String(passes)])
        }
        guard let seconds = Double(output.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw BenchError(description: "warcio printed '\(output)'")
        }
        return seconds
    }

    /// A WARC of about `bytes` bytes: a request record and a response record per exchange, the responses cycling
    /// through API JSON, gzip-coded JSON, HTML, XML, CSV, a malformed JSON body and a 404 problem document.
    static func generate(bytes: Int) -> (Data, (total: Int, decodable: Int)) {
        var archive = Data()
        archive.reserveCapacity(bytes + 64 * 1024)
        var total = 0
        var decodable = 0
        var index = 0
        while archive.count < bytes {
            let url = "https://api.example.com/v1/items/\(index)"
            var headers = ""
            let body: [UInt8]
            var status = "200 OK"
            var ok = true
            switch index % 10 {
            case 0, 1, 2:
                headers = "Content-Type: application/json; charset=utf-8\r\n"
                body = Array(apiJSON(index).utf8)
            case 3:
                headers = "Content-Type: application/json\r\nContent-Encoding: gzip\r\n"
                body = Deflate.gzip(
                    Array(("[" + (0..<6).map { apiJSON(index + $0) }.joined(separator: ",") + "]").utf8))
            case 4, 5:
                headers = "Content-Type: text/html; charset=utf-8\r\n"
                body = Array(html(index).utf8)
            case 6:
                headers = "Content-Type: application/xml\r\n"
                body = Array(xml(index).utf8)
            case 7:
                headers = "Content-Type: text/csv; header=present\r\n"
                body = Array(csv(index).utf8)
            case 8:
                headers = "Content-Type: application/json\r\n"
                body = Array(#"{"id": \#(index), "name": "truncated"#.utf8)
                ok = false
            default:
                status = "404 Not Found"
                headers = "Content-Type: application/problem+json\r\n"
                body = Array(#"{"type": "about:blank", "title": "Not Found", "status": 404}"#.utf8)
                ok = false
            }
            let request = "GET /v1/items/\(index) HTTP/1.1\r\nHost: api.example.com\r\nAccept: */*\r\n\r\n"
            append(
                type: "request", url: url, index: index, block: Array(request.utf8), msgtype: "request", to: &archive)
            let head = "HTTP/1.1 \(status)\r\n\(headers)Content-Length: \(body.count)\r\n\r\n"
            append(
                type: "response", url: url, index: index, block: Array(head.utf8) + body, msgtype: "response",
                to: &archive)
            total += 1
            if ok { decodable += 1 }
            index += 1
        }
        return (archive, (total, decodable))
    }

    private static func append(
        type: String, url: String, index: Int, block: [UInt8], msgtype: String, to archive: inout Data
    ) {
        let head =
            "WARC/1.1\r\nWARC-Type: \(type)\r\nWARC-Target-URI: \(url)\r\nWARC-Date: 2026-12-07T10:00:00Z\r\n"
            + "WARC-Record-ID: <urn:uuid:\(type == "request" ? "1" : "2")0000000-0000-4000-8000-"
            + String(format: "%012d", index) + ">\r\nContent-Type: application/http; msgtype=\(msgtype)\r\n"
            + "Content-Length: \(block.count)\r\n\r\n"
        archive.append(contentsOf: head.utf8)
        archive.append(contentsOf: block)
        archive.append(contentsOf: "\r\n\r\n".utf8)
    }

    private static func apiJSON(_ index: Int) -> String {
        let tags = (0..<(index % 5 + 1)).map { "\"tag-\($0)\"" }.joined(separator: ", ")
        return """
            {"id": \(index), "name": "Item \(index)", "price": \(Double(index % 1000) / 4), "available": \
            \(index % 3 == 0), "tags": [\(tags)], "owner": {"id": \(index * 7 % 1013), "login": "user\(index % 97)", \
            "url": "https://api.example.com/v1/users/\(index * 7 % 1013)"}, "created_at": \
            "2026-12-\(String(format: "%02d", index % 28 + 1))T10:00:00Z", "description": \
            "Item number \(index), caf\u{e9} cr\u{e8}me \u{2014} \\"quoted\\" and escaped\\n text."}
            """
    }

    private static func html(_ index: Int) -> String {
        let rows = (0..<30).map { "<tr><td>\($0)</td><td>row \($0) of page \(index)</td></tr>" }.joined()
        return "<!doctype html><html><head><title>Page \(index)</title></head><body><h1>Page \(index)</h1><table>"
            + rows + "</table></body></html>"
    }

    private static func xml(_ index: Int) -> String {
        let entries = (0..<20).map { "<entry id=\"\($0)\"><title>Entry \($0)</title><n>\(index)</n></entry>" }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?><feed xmlns=\"http://www.w3.org/2005/Atom\">"
            + entries.joined() + "</feed>"
    }

    private static func csv(_ index: Int) -> String {
        "id,name,price,note\r\n"
            + (0..<40).map { "\($0),item \($0),\(Double($0) / 4),\"page \(index), row \($0)\"\r\n" }.joined()
    }
}
