import Decant
import DecantEventStream
import DecantNDJSON
import DecantTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

private let registry = SerializerRegistry.standard.installing(.ndjson).installing(.eventStream)

/// A response head with a `Content-Length`.
private func head(_ contentType: String, length: Int, extra: String = "") -> String {
    "HTTP/1.1 200 OK\r\nContent-Type: \(contentType)\r\nContent-Length: \(length)\r\n\(extra)Connection: close\r\n\r\n"
}

/// What the URLSession bridge hands over and sends, against a server on 127.0.0.1: content codings URLSession removed
/// (issue #37 item 1), the body size limit while downloading (item 5), `Accept` (item 6), bodies cut short and a bad
/// NDJSON line (item 8).
@Suite(.serialized) struct URLSessionBridgeTests {
    // MARK: - Content codings

    /// The body as sent, and how each content coding encodes it (stored deflate blocks: any decoder reads them).
    static let json = #"{"name": "décant", "items": [1, 2, 3]}"#
    static let codings: [(String, @Sendable (Data) -> Data)] = [
        ("gzip", gzipStored), ("x-gzip", gzipStored), ("deflate", zlibStored),
        ("gzip, gzip", { gzipStored(gzipStored($0)) }), ("identity, gzip", gzipStored),
    ]

    static func codingServer() throws -> LoopbackServer {
        var routes: [String: @Sendable (LoopbackServer.Connection) -> Void] = [:]
        for (index, (coding, encode)) in codings.enumerated() {
            routes["/\(index)"] = { connection in
                let encoded = encode(Data(json.utf8))
                connection.write(
                    head("application/json", length: encoded.count, extra: "Content-Encoding: \(coding)\r\n"))
                connection.write(encoded)
            }
        }
        return try LoopbackServer(routes: routes)
    }

    /// `decantResponse(for:)`: no `Content-Encoding` left, `Content-Length` the decoded size, and a chain that always
    /// decodes (`ContentDecoding()`, the README's chain) reads it.
    @Test(arguments: codings.indices)
    func decantResponseDescribesTheDecodedBody(index: Int) async throws {
        let server = try Self.codingServer()
        defer { server.stop() }
        let response = try await URLSession.shared.decantResponse(for: URLRequest(url: server.url("/\(index)")))
        #expect(response.body == Data(Self.json.utf8))
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.headers["Content-Length"] == String(Data(Self.json.utf8).count))
        var chain = ResponseChain(JSONResponseSerializer())
        chain.preprocessors.append(ContentDecoding())
        let value = try chain.serialize(response)
        #expect(value == ["name": "décant", "items": [1, 2, 3]])
    }

    /// `decant` through the registry, and the chain file's `contentDecoding` on the same responses.
    @Test(arguments: codings.indices)
    func decantAndAChainFileWithContentDecoding(index: Int) async throws {
        let server = try Self.codingServer()
        defer { server.stop() }
        let request = URLRequest(url: server.url("/\(index)"))
        let expected: JSONValue = ["name": "décant", "items": [1, 2, 3]]
        #expect(try await URLSession.shared.decant(JSONValue.self, for: request, registry: registry) == expected)
        let loaded = try registry.loadConfiguration(
            data: Data(#"{"version": 1, "chains": [{"name": "api", "serializers": ["json"], "#.utf8)
                + Data(#""preprocessors": ["contentDecoding"]}]}"#.utf8))
        let chain = try loaded.chain(named: "api")
        let response = try await URLSession.shared.decantResponse(
            for: request, bodySizeLimit: BodySizeLimit(maxBytes: chain.settings.maxBodyBytes))
        #expect(try chain.serialize(response) as? JSONValue == expected)
    }

    /// `decantStream(for:)` and `records`: the head has neither `Content-Encoding` nor the encoded `Content-Length`.
    @Test func theStreamHeadDescribesTheDecodedBody() async throws {
        let body = (0..<300).map { "{\"n\": \($0)}\n" }.joined()
        let server = try LoopbackServer(routes: [
            "/gzip": { connection in
                let encoded = gzipStored(Data(body.utf8))
                connection.write(
                    head("application/x-ndjson", length: encoded.count, extra: "Content-Encoding: gzip\r\n"))
                connection.write(encoded)
            }
        ])
        defer { server.stop() }
        let request = URLRequest(url: server.url("/gzip"))
        let (streamHead, chunks) = try await URLSession.shared.decantStream(for: request)
        #expect(streamHead.headers["Content-Encoding"] == nil)
        #expect(streamHead.headers["Content-Length"] == nil)
        var received = Data()
        for try await chunk in chunks { received.append(chunk) }
        #expect(received == Data(body.utf8))

        let stream = try await URLSession.shared.records(JSONValue.self, for: request, registry: registry)
        #expect(stream.head.headers["Content-Encoding"] == nil)
        var count = 0
        for try await record in stream where record["n"]?.intValue == count { count += 1 }
        #expect(count == 300)
    }

    // MARK: - Body size limit while downloading

    /// A body far over the limit (64 MiB, chunked, against 1 MiB): the download is cancelled once the limit is passed,
    /// so the server cannot write it all; the error keeps the status and the bytes received (at most a chunk over
    /// the limit).
    @Test func aBodyOverTheLimitIsCutOffWhileItDownloads() async throws {
        let total = 64 << 20
        let finished = Box<Bool?>(nil)
        let server = try LoopbackServer(routes: [
            "/big": { connection in
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
                        + "Connection: close\r\n\r\n")
                let chunk = Data(repeating: UInt8(ascii: " "), count: 64 << 10)
                // A pause between chunks: FoundationNetworking reads a loopback socket faster than a task can be
                // cancelled, and would otherwise have the whole body before the cancellation reaches it.
                for _ in 0..<total / chunk.count {
                    guard connection.writeChunk(chunk) else { break }
                    connection.pause(milliseconds: 1)
                }
                connection.writeChunk(Data())
                finished.set(!connection.clientWentAway)
            }
        ])
        defer { server.stop() }
        let limit = BodySizeLimit(maxBytes: 1 << 20)
        let error = await #expect(throws: SerializationError.self) {
            _ = try await URLSession.shared.decantResponse(
                for: URLRequest(url: server.url("/big")), bodySizeLimit: limit)
        }
        #expect(error?.code == .bodyTooLarge)
        #expect(error?.status == 200)
        let received = error?.response?.body.count ?? 0
        #expect(received > 1 << 20 && received < total)
        #expect(error?.response?.body.allSatisfy { $0 == UInt8(ascii: " ") } == true)
        #expect(error?.message.contains("1048576") == true)
        try await waitFor { finished.value != nil }
        #expect(finished.value == false, "the server wrote the whole body: the download was not cancelled")
    }

    /// `Content-Length: 10 GB` over the registry's limit (64 MiB): `decant` fails when the head arrives; the server,
    /// which sends a byte now and then, sees the client go away.
    @Test func aContentLengthOverTheRegistrysLimitFailsAtOnce() async throws {
        let wentAway = Box<Bool?>(nil)
        let server = try LoopbackServer(routes: [
            "/huge": { connection in
                connection.write(head("application/json", length: 10_000_000_000))
                for _ in 0..<1200 where connection.write(" ") { connection.pause(milliseconds: 50) }
                wentAway.set(connection.clientWentAway)
            }
        ])
        defer { server.stop() }
        let error = await #expect(throws: SerializationError.self) {
            _ = try await URLSession.shared.decant(
                JSONValue.self, for: URLRequest(url: server.url("/huge")), registry: registry)
        }
        #expect(error?.code == .bodyTooLarge)
        #expect(error?.status == 200)
        #expect(error?.response?.headers["Content-Length"] == "10000000000")
        #expect(error?.message.contains("10000000000") == true)
        #expect(registry.bodySizeLimit == BodySizeLimit.default)
        try await waitFor { wentAway.value != nil }
        #expect(wentAway.value == true)
    }

    /// A registry whose own limit is 1 KiB: `decant` stops at the `Content-Length` of a 1 MiB body, and a body of
    /// 1 KiB passes.
    @Test func aRegistrysOwnLimitHoldsWhileDownloading() async throws {
        let big = Data("[".utf8) + Data(repeating: UInt8(ascii: "0"), count: 1 << 20) + Data("]".utf8)
        let server = try LoopbackServer(routes: [
            "/big": { connection in
                connection.write(head("application/json", length: big.count))
                connection.write(big)
            },
            "/small": { connection in
                let body = Data("[\(String(repeating: "1,", count: 500))1]".utf8)
                connection.write(head("application/json", length: body.count))
                connection.write(body)
            },
        ])
        defer { server.stop() }
        var limited = registry
        limited.bodySizeLimit = BodySizeLimit(maxBytes: 1024)
        let error = await #expect(throws: SerializationError.self) {
            _ = try await URLSession.shared.decant(
                JSONValue.self, for: URLRequest(url: server.url("/big")), registry: limited)
        }
        #expect(error?.code == .bodyTooLarge)
        #expect(error?.message.contains("1024") == true)
        #expect((error?.response?.body.count ?? .max) < big.count)
        let small = try await URLSession.shared.decant(
            JSONValue.self, for: URLRequest(url: server.url("/small")), registry: limited)
        #expect(small.arrayValue?.count == 501)
    }

    /// A `HEAD` request's `Content-Length` describes a body that is not sent: no limit applies to it.
    @Test func aHeadRequestIsNotLimitedByItsContentLength() async throws {
        let server = try LoopbackServer(routes: [
            "/head": { connection in connection.write(head("application/json", length: 10_000_000_000)) }
        ])
        defer { server.stop() }
        var request = URLRequest(url: server.url("/head"))
        request.httpMethod = "HEAD"
        let response = try await URLSession.shared.decantResponse(
            for: request, bodySizeLimit: BodySizeLimit(maxBytes: 1))
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Length"] == "10000000000")
    }

    /// A session with a delegate runs the request itself: the limit is checked once the body has arrived, and the
    /// content codings are described the same way.
    @Test func aSessionWithADelegateRunsTheRequestItself() async throws {
        let server = try Self.codingServer()
        defer { server.stop() }
        let session = URLSession(configuration: .ephemeral, delegate: Delegate(), delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let request = URLRequest(url: server.url("/0"))
        let response = try await session.decantResponse(for: request)
        #expect(response.headers["Content-Encoding"] == nil)
        #expect(response.body == Data(Self.json.utf8))
        let error = await #expect(throws: SerializationError.self) {
            _ = try await session.decantResponse(for: request, bodySizeLimit: BodySizeLimit(maxBytes: 10))
        }
        #expect(error?.code == .bodyTooLarge)
    }

    // MARK: - Accept

    /// Without an `Accept`, `decant` sends the registry's and `records` those of the formats that stream; a request's
    /// own `Accept` is sent as it is. Checked on what the server received.
    @Test func acceptIsSent() async throws {
        let accepts = Box<[String]>([])
        let server = try LoopbackServer(routes: [
            "/json": { connection in
                accepts.set(accepts.value + [connection.requestField("Accept") ?? "(none)"])
                connection.write(head("application/json", length: 2) + "{}")
            },
            "/events": { connection in
                accepts.set(accepts.value + [connection.requestField("Accept") ?? "(none)"])
                connection.write(head("text/event-stream", length: 0))
            },
        ])
        defer { server.stop() }
        _ = try await URLSession.shared.decant(
            JSONValue.self, for: URLRequest(url: server.url("/json")), registry: registry)
        struct Empty: Decodable, Sendable {}
        _ = try await URLSession.shared.decant(
            Empty.self, for: URLRequest(url: server.url("/json")), registry: registry)
        var own = URLRequest(url: server.url("/json"))
        own.setValue("application/vnd.acme+json", forHTTPHeaderField: "accept")
        _ = try await URLSession.shared.decant(JSONValue.self, for: own, registry: registry)
        for try await _ in try await URLSession.shared.records(
            ServerSentEvent.self, for: URLRequest(url: server.url("/events")), registry: registry)
        {}
        let received = accepts.value
        try #require(received.count == 4)
        #expect(received[0] == registry.acceptHeader.description)
        #expect(received[1] == registry.acceptHeader.description)
        #expect(received[2] == "application/vnd.acme+json")
        #expect(received[3] == registry.acceptHeader(for: .records).description)
        // What the headers say, read back by a plain split (not by Decant's parser).
        let ranges = received[0].components(separatedBy: ", ")
        #expect(ranges.first == "application/json")
        #expect(ranges.contains("text/*;q=0.9"))
        #expect(ranges.contains("image/png"))
        #expect(
            Set(received[3].components(separatedBy: ", ")).isSuperset(of: ["text/event-stream", "application/x-ndjson"])
        )
        #expect(!received[3].contains("image/png"))
    }

    // MARK: - Bodies cut short

    /// The server closes after 20 of the 100 bytes its `Content-Length` announces: Decant's truncation error with
    /// the status, the header fields and the bytes received, on the whole-body path and the streaming path.
    @Test func aBodyCutShortIsATruncatedBody() async throws {
        let sent = #"{"id": 1}"# + "\n" + #"{"id": 2, "#
        let server = try LoopbackServer(routes: [
            "/short": { connection in
                connection.write(head("application/x-ndjson", length: 100, extra: "X-Trace: 7\r\n") + sent)
                connection.pause(milliseconds: 50)
            }
        ])
        defer { server.stop() }
        let request = URLRequest(url: server.url("/short"))
        for call in 0..<2 {
            let error = await #expect(throws: SerializationError.self) {
                if call == 0 {
                    _ = try await URLSession.shared.decantResponse(for: request)
                } else {
                    _ = try await URLSession.shared.decant(JSONRecords.self, for: request, registry: registry)
                }
            }
            #expect(error?.code == .truncatedBody)
            #expect(error?.status == 200)
            #expect(error?.response?.headers["X-Trace"] == "7")
            #expect(error?.response?.body == Data(sent.utf8))
            #expect(error?.offset == sent.utf8.count)
            #expect(error?.underlying != nil)
            #expect(error?.message.contains("\(sent.utf8.count) bytes of the 100") == true)
        }

        let stream = try await URLSession.shared.records(JSONValue.self, for: request, registry: registry)
        var records: [JSONValue] = []
        var caught: (any Error)?
        do {
            for try await record in stream { records.append(record) }
        } catch {
            caught = error
        }
        #expect(records == [["id": 1]])
        let error = try #require(caught as? SerializationError)
        #expect(error.code == .truncatedBody)
        #expect(error.status == 200)
        #expect(error.response?.headers["X-Trace"] == "7")
        #expect(error.offset == sent.utf8.count)
    }

    /// A bad line in the middle of an NDJSON stream is that line's syntax error, with its line number; it is not
    /// reported as a body cut short (more lines follow it).
    @Test(
        arguments: [
            ("{\"id\": 1}\n\n{\"id\": \n{\"id\": 3}\n", 3, 11 + 7, "ends after 7 bytes"),
            ("{\"id\": 1}\n{\"id\" 2}\n{\"id\": 3}\n", 2, 10 + 6, "':'"),
            ("{\"id\": 1}\r\n{\"text\": \"abc\r\n{\"id\": 3}\n", 2, 11 + 13, "ends after 13 bytes"),
        ] as [(String, Int, Int, String)])
    func aBadLineMidStreamIsThatLinesError(body: String, line: Int, offset: Int, detail: String) async throws {
        let server = try LoopbackServer(routes: [
            "/lines": { connection in
                connection.write(head("application/x-ndjson", length: body.utf8.count) + body)
            }
        ])
        defer { server.stop() }
        let stream = try await URLSession.shared.records(
            JSONValue.self, for: URLRequest(url: server.url("/lines")), registry: registry)
        var records: [JSONValue] = []
        var caught: (any Error)?
        do {
            for try await record in stream { records.append(record) }
        } catch {
            caught = error
        }
        #expect(records == [["id": 1]])
        let error = try #require(caught as? SerializationError)
        #expect(error.code == .invalidBody)
        #expect(error.offset == offset)
        #expect(error.message.hasPrefix("Line \(line) of the stream"))
        #expect(error.message.contains(detail))
        #expect(!error.message.contains("truncated"))
        #expect(!error.message.contains("end of the body"))
    }
}

/// A session delegate that does nothing of its own.
private final class Delegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {}

/// A value set from the server's thread and read from the test.
private final class Box<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }
    func set(_ value: Value) { lock.withLock { stored = value } }
    var value: Value { lock.withLock { stored } }
}

/// Waits until `condition` holds, up to a minute (a busy machine), without asserting how long it took.
private func waitFor(_ condition: () -> Bool) async throws {
    var waited = 0
    while !condition() && waited < 1200 {
        try await Task.sleep(nanoseconds: 50_000_000)
        waited += 1
    }
}
