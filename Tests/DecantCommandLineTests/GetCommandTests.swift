import Decant
import DecantCommandLine
import DecantTestSupport
import Foundation
import Testing

/// `decant get URL` (issue #36 item 1) against the loopback server: what it prints is what `decode` prints for the
/// same response, content codings are decoded, errors exit 1, and the server receives the request exactly as asked.
@Suite struct GetCommandTests {
    /// What the server saw of one request.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (line: String, fields: [(name: String, value: String)], body: Data)?

        func record(_ connection: LoopbackServer.Connection, body: Data) {
            lock.withLock { stored = (connection.requestLine, connection.requestFields, body) }
        }

        var request: (line: String, fields: [(name: String, value: String)], body: Data)? { lock.withLock { stored } }

        /// The values of the fields called `name`, in order.
        func values(_ name: String) -> [String] {
            (request?.fields ?? []).filter { $0.name.lowercased() == name.lowercased() }.map(\.value)
        }
    }

    /// Runs `decant get` on a thread of its own (the command waits for URLSession there, as the tool's main thread
    /// does) and returns what it printed.
    static func get(_ arguments: [String], tool: DecantTool = DecantTool()) async -> DecantTool.Outcome {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: tool.capture(["get"] + arguments)) }.start()
        }
    }

    /// A raw HTTP/1.1 response with `Content-Length` and `Connection: close`.
    static func message(status: String = "200 OK", _ fields: [String], body: Data) -> Data {
        let head = (["HTTP/1.1 \(status)", "Content-Length: \(body.count)", "Connection: close"] + fields)
            .joined(separator: "\r\n")
        return Data((head + "\r\n\r\n").utf8) + body
    }

    /// A server with one route, `/r`, that reads the request body, records the request and writes `response`.
    static func server(_ received: Received = Received(), writing response: Data) throws -> LoopbackServer {
        try LoopbackServer(routes: [
            "/r": { connection in
                let body = (try? connection.readBody()) ?? Data()
                received.record(connection, body: body)
                connection.write(response)
            }
        ])
    }

    static func temporaryFile(_ bytes: Data) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decant-get-\(UUID().uuidString)")
        try bytes.write(to: url)
        return url.path
    }

    static func jsonObject(_ data: Data) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? NSObject)
    }

    static let json = Data(#"{"data": [{"name": "Zoë", "id": 7}], "next": null, "n": 1.50}"#.utf8)

    @Test(arguments: [[], ["--json"], ["--explain"], ["--json", "--explain"]])
    func theOutputIsDecodesOutputForTheSameResponse(_ options: [String]) async throws {
        let raw = Self.message(["Content-Type: application/json"], body: Self.json)
        let server = try Self.server(writing: raw)
        defer { server.stop() }
        let fetched = await Self.get(options + [server.url("/r").absoluteString])
        #expect(fetched.status == 0, "\(fetched.standardError)")
        let path = try Self.temporaryFile(raw)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoded = DecantTool().capture(["decode"] + options + [path])
        #expect(decoded.status == 0)
        #expect(fetched.standardOutputBytes == decoded.standardOutputBytes)
        #expect(fetched.standardError == decoded.standardError)
        if options == ["--json"] {
            // Foundation's JSONSerialization reads the value printed and the body sent.
            let printed = try #require(try Self.jsonObject(fetched.standardOutputBytes) as? [String: Any])
            #expect((printed["value"] as? NSObject) == (try Self.jsonObject(Self.json)))
        }
    }

    @Test func textInALegacyEncodingPrintsAsDecodePrintsIt() async throws {
        // Python: "café ½".encode("cp1252") == b"caf\xe9 \xbd".
        let raw = Self.message(
            ["Content-Type: text/plain; charset=windows-1252"], body: Data([0x63, 0x61, 0x66, 0xE9, 0x20, 0xBD]))
        let server = try Self.server(writing: raw)
        defer { server.stop() }
        let fetched = await Self.get([server.url("/r").absoluteString])
        let path = try Self.temporaryFile(raw)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(fetched.status == 0, "\(fetched.standardError)")
        #expect(fetched.standardOutput == DecantTool().capture(["decode", path]).standardOutput)
        #expect(fetched.standardOutput.contains("text:\ncafé ½\n"))
    }

    @Test(
        .enabled(if: Python.isAvailable),
        arguments: [("gzip", "gzip.compress(body)"), ("deflate", "zlib.compress(body)")])
    func aContentCodingIsDecoded(_ coding: String, _ expression: String) async throws {
        // Python's gzip and zlib compress the body (real deflate blocks, not stored ones).
        let encoded = try Python.run(
            "import sys, gzip, zlib; body = sys.argv[1].encode(); sys.stdout.buffer.write(\(expression))",
            [String(decoding: Self.json, as: UTF8.self)])
        #expect(encoded != Self.json)
        let server = try Self.server(
            writing: Self.message(["Content-Type: application/json", "Content-Encoding: \(coding)"], body: encoded))
        defer { server.stop() }
        let fetched = await Self.get(["--json", server.url("/r").absoluteString])
        #expect(fetched.status == 0, "\(fetched.standardError)")
        let printed = try #require(try Self.jsonObject(fetched.standardOutputBytes) as? [String: Any])
        #expect((printed["value"] as? NSObject) == (try Self.jsonObject(Self.json)))
        // The same as `decode` prints for the body without its coding.
        let path = try Self.temporaryFile(Self.message(["Content-Type: application/json"], body: Self.json))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(fetched.standardOutputBytes == DecantTool().capture(["decode", "--json", path]).standardOutputBytes)
    }

    static let problem = Data(#"{"type": "https://example.com/probs/gone", "title": "Not here", "status": 404}"#.utf8)

    @Test func aStatusOutside2xxExitsOneWithTheStatusAndTheDecodedErrorBody() async throws {
        let server = try Self.server(
            writing: Self.message(
                status: "404 Not Found", ["Content-Type: application/problem+json"], body: Self.problem))
        defer { server.stop() }
        let text = await Self.get([server.url("/r").absoluteString])
        #expect(text.status == 1)
        #expect(text.standardOutputBytes.isEmpty)
        #expect(text.standardError.contains("[unacceptableStatusCode] The server answered with status 404"))
        #expect(text.standardError.contains("error value:\n{\n  \"type\": \"https://example.com/probs/gone\""))
        let json = await Self.get(["--json", server.url("/r").absoluteString])
        #expect(json.status == 1)
        let error = try #require(
            (try Self.jsonObject(json.standardOutputBytes) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? String == "unacceptableStatusCode")
        #expect(error["status"] as? Int == 404)
        #expect((error["errorValue"] as? NSObject) == (try Self.jsonObject(Self.problem)))
    }

    @Test func decodePrintsALargeDecodedErrorBodyCutAtACharacter() throws {
        // 3,000 two-byte characters: 6,000 bytes of text, more than the 4 KiB printed.
        let body = Data(String(repeating: "é", count: 3_000).utf8)
        let path = try Self.temporaryFile(
            Self.message(status: "500 Internal Server Error", ["Content-Type: text/plain; charset=utf-8"], body: body))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = DecantTool().capture(["decode", path])
        #expect(outcome.status == 1)
        let printed = try #require(outcome.standardError.components(separatedBy: "error value:\n").last)
        let value = try #require(printed.components(separatedBy: "\n… (").first)
        #expect(value.hasPrefix("{\n  \"text\": \"éé"))
        #expect(value.utf8.count <= 4_096 && value.utf8.count >= 4_095)
        #expect(!value.contains("\u{FFFD}"))
        #expect(printed.contains("bytes in all; --json prints the whole value)"))
    }

    @Test func theServerReceivesTheMethodHeaderFieldsAndBodyAsGiven() async throws {
        let received = Received()
        let server = try Self.server(
            received, writing: Self.message(["Content-Type: application/json"], body: Data("1".utf8)))
        defer { server.stop() }
        // Every byte value, NUL and CR LF included: the body is sent as it is.
        let body = Data((0...255).map { UInt8($0) } + Array("\r\n--end".utf8))
        let path = try Self.temporaryFile(body)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = await Self.get([
            "--method", "PATCH", "--header", "X-Trace: a b;c=\"d\"", "--header", "Authorization:Bearer t0k3n",
            "--header", "X-Multi: 1", "--header", "x-multi: 2",
            "--accept", "application/json;q=0.9, text/*;q=0.1", "--data", path, "--data-content-type",
            "application/octet-stream", server.url("/r").absoluteString,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let request = try #require(received.request)
        #expect(request.line == "PATCH /r HTTP/1.1")
        #expect(request.body == body)
        #expect(received.values("X-Trace") == [#"a b;c="d""#])
        #expect(received.values("Authorization") == ["Bearer t0k3n"])
        #expect(received.values("X-Multi") == ["1,2"])
        #expect(received.values("Accept") == ["application/json;q=0.9, text/*;q=0.1"])
        #expect(received.values("Content-Type") == ["application/octet-stream"])
        #expect(received.values("Content-Length") == ["\(body.count)"])
    }

    @Test func withoutOptionsItIsAGetWithTheRegistrysAccept() async throws {
        let received = Received()
        let server = try Self.server(
            received, writing: Self.message(["Content-Type: application/json"], body: Data("1".utf8)))
        defer { server.stop() }
        let outcome = await Self.get([server.url("/r").absoluteString])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(received.request?.line == "GET /r HTTP/1.1")
        #expect(received.request?.body.isEmpty == true)
        #expect(received.values("Accept") == [SerializerRegistry.standard.acceptHeader.description])
        // A body without --method is a POST.
        let path = try Self.temporaryFile(Data("a=1".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let posted = await Self.get([
            "--data", path, "--header", "Content-Type: application/x-www-form-urlencoded",
            server.url("/r").absoluteString,
        ])
        #expect(posted.status == 0, "\(posted.standardError)")
        #expect(received.request?.line == "POST /r HTTP/1.1")
        #expect(received.values("Content-Type") == ["application/x-www-form-urlencoded"])
        #expect(received.request?.body == Data("a=1".utf8))
    }

    @Test func dataJSONIsWrittenAsTheContentTypeAsked() async throws {
        let received = Received()
        let server = try Self.server(
            received, writing: Self.message(["Content-Type: application/json"], body: Data("1".utf8)))
        defer { server.stop() }
        let text = try Self.temporaryFile(Data(#"{"text": "café", "encoding": "UTF-8"}"#.utf8))
        defer { try? FileManager.default.removeItem(atPath: text) }
        let outcome = await Self.get([
            "--method", "PUT", "--data-json", text, "--data-content-type", "text/plain;charset=windows-1252",
            server.url("/r").absoluteString,
        ])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(received.request?.line == "PUT /r HTTP/1.1")
        // Python: "café".encode("cp1252") == b"caf\xe9".
        #expect(received.request?.body == Data([0x63, 0x61, 0x66, 0xE9]))
        #expect(received.values("Content-Type") == ["text/plain;charset=windows-1252"])
        // JSON by default; JSONSerialization reads what the server received.
        let value = #"{"users": [{"id": 7, "name": "Zoë"}], "ok": true, "x": -1.25e-3}"#
        let json = try Self.temporaryFile(Data(value.utf8))
        defer { try? FileManager.default.removeItem(atPath: json) }
        let posted = await Self.get(["--data-json", json, server.url("/r").absoluteString])
        #expect(posted.status == 0, "\(posted.standardError)")
        #expect(received.request?.line == "POST /r HTTP/1.1")
        #expect(received.values("Content-Type") == ["application/json"])
        #expect(try Self.jsonObject(received.request?.body ?? Data()) == Self.jsonObject(Data(value.utf8)))
    }

    @Test func aValueThatTheFormatCannotWriteSendsNothing() async throws {
        let received = Received()
        let server = try Self.server(received, writing: Self.message([], body: Data()))
        defer { server.stop() }
        let path = try Self.temporaryFile(Data("[1, 2]".utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let outcome = await Self.get([
            "--data-json", path, "--data-content-type", "text/plain", server.url("/r").absoluteString,
        ])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("[unsupportedValue]"))
        #expect(received.request == nil)
    }

    @Test func thePointerSelectsAValue() async throws {
        let server = try Self.server(writing: Self.message(["Content-Type: application/json"], body: Self.json))
        defer { server.stop() }
        let outcome = await Self.get(["--json", "--pointer", "/data/0/name", server.url("/r").absoluteString])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let printed = try #require(try Self.jsonObject(outcome.standardOutputBytes) as? [String: Any])
        #expect(printed["value"] as? String == "Zoë")
        let missing = await Self.get(["--pointer", "/data/1", server.url("/r").absoluteString])
        #expect(missing.status == 1)
        #expect(missing.standardError.contains("[pointerNotFound]"))
    }

    @Test func aRefusedConnectionNamesTheURL() async throws {
        // A port nothing listens on, held so that no other test's server is given it meanwhile.
        let refused = try RefusedPort()
        defer { refused.close() }
        let url = refused.url("/gone").absoluteString
        for options in [[], ["--json"]] {
            let outcome = await Self.get(options + [url])
            #expect(outcome.status == 1)
            #expect(outcome.standardOutputBytes.isEmpty)
            #expect(outcome.standardError.hasPrefix("decant get: cannot fetch \(url): could not connect to the server"))
        }
    }

    @Test func aBodyCutShortIsATruncatedBody() async throws {
        let server = try LoopbackServer(routes: [
            "/r": { connection in
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n[1, 2, 3")
                connection.pause(milliseconds: 50)
            }
        ])
        defer { server.stop() }
        let outcome = await Self.get(["--json", server.url("/r").absoluteString])
        #expect(outcome.status == 1)
        let error = try #require(
            (try Self.jsonObject(outcome.standardOutputBytes) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? String == "truncatedBody")
        #expect(error["status"] as? Int == 200)
    }

    @Test(arguments: [true, false])
    func aBodyOverTheLimitIsBodyTooLarge(_ announced: Bool) async throws {
        let body = Data(("[" + String(repeating: "1,", count: 4_000) + "1]").utf8)
        let server = try LoopbackServer(routes: [
            "/r": { connection in
                if announced {
                    connection.write(Self.message(["Content-Type: application/json"], body: body))
                } else {
                    // No Content-Length: the download stops once the bytes received pass the limit.
                    connection.write(
                        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
                    for start in stride(from: 0, to: body.count, by: 1_000) {
                        guard connection.writeChunk(body[start..<min(start + 1_000, body.count)]) else { return }
                    }
                    connection.writeChunk(Data())
                }
            }
        ])
        defer { server.stop() }
        var registry = SerializerRegistry.standard
        registry.bodySizeLimit = BodySizeLimit(maxBytes: 2_048)
        let outcome = await Self.get(["--json", server.url("/r").absoluteString], tool: DecantTool(registry: registry))
        #expect(outcome.status == 1)
        let error = try #require(
            (try Self.jsonObject(outcome.standardOutputBytes) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? String == "bodyTooLarge")
        // Within the limit, the same body decodes.
        let whole = await Self.get(["--json", server.url("/r").absoluteString])
        #expect(whole.status == 0, "\(whole.standardError)")
    }

    @Test func aConfiguredChainsLimitBoundsTheDownload() async throws {
        let server = try Self.server(writing: Self.message(["Content-Type: application/json"], body: Self.json))
        defer { server.stop() }
        let config = try Self.temporaryFile(
            Data(
                #"{"version": 1, "chains": [{"name": "small", "serializers": ["json"], "limits": {"maxBodyBytes": 20}}]}"#
                    .utf8))
        defer { try? FileManager.default.removeItem(atPath: config) }
        let outcome = await Self.get(["--config", config, server.url("/r").absoluteString])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.hasPrefix("[bodyTooLarge] The Content-Length announces \(Self.json.count) bytes"))
    }

    @Test func aServerThatDoesNotAnswerTimesOut() async throws {
        let server = try LoopbackServer(routes: ["/r": { connection in connection.pause(milliseconds: 3_000) }])
        defer { server.stop() }
        let outcome = await Self.get(["--timeout", "1", server.url("/r").absoluteString])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("no complete response within 1 second (raise it with --timeout S)"))
    }

    @Test(arguments: [
        [], ["ftp://example.com/"], ["example.com"], ["http://"], ["--header", "NoColon", "http://127.0.0.1:1/"],
        ["--header", "Bad Name: x", "http://127.0.0.1:1/"], ["--method", "GE T", "http://127.0.0.1:1/"],
        ["--data", "/dev/null", "http://127.0.0.1:1/"],
        ["--data", "/dev/null", "--data-json", "/dev/null", "--data-content-type", "a/b", "http://127.0.0.1:1/"],
        ["--data-content-type", "a/b", "http://127.0.0.1:1/"], ["--timeout", "0", "http://127.0.0.1:1/"],
        ["--timeout", "0.5", "http://127.0.0.1:1/"],
        ["--accept", "nonsense", "http://127.0.0.1:1/"], ["--stream", "--pointer", "/a", "http://127.0.0.1:1/"],
        ["--method", "HEAD", "--data", "/dev/null", "--data-content-type", "a/b", "http://127.0.0.1:1/"],
        ["--method", "get", "--data", "/dev/null", "--data-content-type", "a/b", "http://127.0.0.1:1/"],
    ])
    func usageErrorsExitTwoWithoutARequest(_ arguments: [String]) async throws {
        let outcome = await Self.get(arguments)
        #expect(outcome.status == 2, "\(outcome.standardError)")
        #expect(outcome.standardError.contains("Usage: decant get"))
    }
}
