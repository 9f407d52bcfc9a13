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

/// A chunked response head.
private func chunkedHead(_ contentType: String, status: String = "200 OK", extra: String = "") -> String {
    "HTTP/1.1 \(status)\r\nContent-Type: \(contentType)\r\nTransfer-Encoding: chunked\r\n\(extra)"
        + "Connection: close\r\n\r\n"
}

/// Records from a live URLSession request against a server on 127.0.0.1, as bytes arrive.
@Suite(.serialized) struct URLSessionStreamingTests {
    /// NDJSON sent slowly in chunks that cut records (and a CR LF) in the middle.
    @Test func ndjsonArrivesInPiecesAndComesOutWhole() async throws {
        let pieces = [
            "{\"id\": 1, \"text\": \"a", "lpha\"}\n{\"id\"", ": 2, \"text\": \"beta\"}\r", "\n", "{\"id\": 3}\n",
        ]
        let server = try LoopbackServer(routes: [
            "/records": { connection in
                connection.write(chunkedHead("application/x-ndjson"))
                for piece in pieces {
                    connection.writeChunk(piece)
                    connection.pause(milliseconds: 30)
                }
                connection.writeChunk("")
            }
        ])
        defer { server.stop() }
        let stream = try await URLSession.shared.records(
            JSONValue.self, for: URLRequest(url: server.url("/records")), registry: registry)
        var records: [JSONValue] = []
        for try await record in stream { records.append(record) }
        #expect(records == [["id": 1, "text": "alpha"], ["id": 2, "text": "beta"], ["id": 3]])
        #expect(stream.serializerID == "ndjson")
    }

    /// Server-sent events sent slowly, an event split across writes, comments as keep-alives.
    @Test func eventsArriveAsTheyAreDispatched() async throws {
        let pieces = [
            ": hello\n\n", "event: token\ndata: {\"t\": \"He", "l\"}\nid: 1\n\n", "data: {\"t\": \"lo\"}\n\n",
            "event: done\ndata: [DONE]\n\n",
        ]
        let server = try LoopbackServer(routes: [
            "/events": { connection in
                connection.write(chunkedHead("text/event-stream"))
                for piece in pieces {
                    connection.writeChunk(piece)
                    connection.pause(milliseconds: 30)
                }
                connection.writeChunk("")
            }
        ])
        defer { server.stop() }
        let stream = try await URLSession.shared.records(
            ServerSentEvent.self, for: URLRequest(url: server.url("/events")), registry: registry)
        var events: [ServerSentEvent] = []
        for try await event in stream { events.append(event) }
        #expect(
            events == [
                ServerSentEvent(type: "token", data: "{\"t\": \"Hel\"}", lastEventID: "1"),
                ServerSentEvent(data: "{\"t\": \"lo\"}", lastEventID: "1"),
                ServerSentEvent(type: "done", data: "[DONE]", lastEventID: "1"),
            ])
        #expect(try events[0].json(registry: registry) == ["t": "Hel"])
    }

    /// A 404 with a problem document: the call throws before any record, the document in the error.
    @Test func anErrorStatusThrowsWithItsBody() async throws {
        let body = "{\"type\": \"about:blank\", \"title\": \"No such stream\", \"status\": 404}"
        let server = try LoopbackServer(routes: [
            "/missing": { connection in
                connection.write(
                    "HTTP/1.1 404 Not Found\r\nContent-Type: application/problem+json\r\nContent-Length: "
                        + "\(body.utf8.count)\r\nConnection: close\r\n\r\n" + body)
            }
        ])
        defer { server.stop() }
        let error = await #expect(throws: SerializationError.self) {
            _ = try await URLSession.shared.records(
                JSONValue.self, for: URLRequest(url: server.url("/missing")), registry: registry)
        }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.status == 404)
        #expect((error?.errorValue as? JSONValue)?["title"] == "No such stream")
        #expect(error?.response?.body == Data(body.utf8))
    }

    /// The connection is cut in the middle of the second record: the first is delivered, then the stream fails with
    /// a truncated body at the number of bytes received.
    @Test func aStreamCutMidRecordKeepsWhatArrived() async throws {
        let server = try LoopbackServer(routes: [
            "/cut": { connection in
                connection.write(chunkedHead("application/x-ndjson"))
                connection.writeChunk("{\"id\": 1}\n{\"id\": ")
                connection.pause(milliseconds: 50)
                // No last chunk: the connection closes in the middle of the body.
            }
        ])
        defer { server.stop() }
        let stream = try await URLSession.shared.records(
            JSONValue.self, for: URLRequest(url: server.url("/cut")), registry: registry)
        var records: [JSONValue] = []
        let error = await #expect(throws: SerializationError.self) {
            for try await record in stream { records.append(record) }
        }
        #expect(records == [["id": 1]])
        #expect(error?.code == .truncatedBody)
        #expect(error?.offset == "{\"id\": 1}\n{\"id\": ".utf8.count)
    }

    /// 10,000 records in chunks of every size: all of them, in order.
    @Test func tenThousandRecords() async throws {
        let body = (0..<10_000).map { "{\"n\": \($0), \"pad\": \"\(String(repeating: "x", count: $0 % 50))\"}\n" }
            .joined()
        let server = try LoopbackServer(routes: [
            "/many": { connection in
                connection.write(chunkedHead("application/jsonl"))
                var generator = SplitMix64(state: 5)
                let bytes = Data(body.utf8)
                var start = 0
                while start < bytes.count {
                    let end = min(bytes.count, start + Int.random(in: 1...8192, using: &generator))
                    connection.writeChunk(bytes[start..<end])
                    start = end
                }
                connection.writeChunk("")
            }
        ])
        defer { server.stop() }
        let stream = try await URLSession.shared.records(
            JSONValue.self, for: URLRequest(url: server.url("/many")), registry: registry)
        var next = 0
        var inOrder = true
        for try await record in stream {
            if record["n"]?.intValue != next { inOrder = false }
            next += 1
        }
        #expect(next == 10_000)
        #expect(inOrder)
    }

    /// A gzip-encoded stream: URLSession removes the coding, the records are the same.
    @Test func gzipEncodedStream() async throws {
        let body = (0..<500).map { "{\"n\": \($0)}\n" }.joined()
        let server = try LoopbackServer(routes: [
            "/gzip": { connection in
                let encoded = gzipStored(Data(body.utf8))
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nContent-Encoding: gzip\r\n"
                        + "Content-Length: \(encoded.count)\r\nConnection: close\r\n\r\n")
                connection.write(encoded)
            }
        ])
        defer { server.stop() }
        let stream = try await URLSession.shared.records(
            JSONValue.self, for: URLRequest(url: server.url("/gzip")), registry: registry)
        var count = 0
        for try await record in stream {
            #expect(record["n"]?.intValue == count)
            count += 1
        }
        #expect(count == 500)
    }

    /// Cancelling the consuming task stops the download: the server sees the client go away.
    @Test func cancellingTheConsumerClosesTheConnection() async throws {
        let wentAway = Flag()
        let server = try LoopbackServer(routes: [
            "/endless": { connection in
                connection.write(chunkedHead("application/x-ndjson"))
                let chunk = Data(String(repeating: "{\"tick\": true}\n", count: 1000).utf8)
                for _ in 0..<20_000 where connection.writeChunk(chunk) { connection.pause(milliseconds: 1) }
                if connection.clientWentAway { wentAway.set() }
            }
        ])
        defer { server.stop() }
        let request = URLRequest(url: server.url("/endless"))
        let task = Task {
            var count = 0
            for try await _ in try await URLSession.shared.records(JSONValue.self, for: request, registry: registry) {
                count += 1
                if count == 5 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        await #expect(throws: (any Error).self) { _ = try await task.value }
        var waited = 0
        while !wentAway.isSet && waited < 1200 {  // up to a minute on a busy machine
            try await Task.sleep(nanoseconds: 50_000_000)
            waited += 1
        }
        #expect(wentAway.isSet)
    }

    /// A consumer that stops taking records makes the download pause: the server cannot write the whole 64 MB body,
    /// because the client reads no more than its buffers hold (the task is suspended above 1 MiB unread). Apple
    /// platforms only: FoundationNetworking on Linux ignores `suspend()` during a transfer (measured: the server
    /// wrote all 64 MB), a limitation the README states.
    #if canImport(FoundationNetworking)
        static let suspendPausesTransfers = false
    #else
        static let suspendPausesTransfers = true
    #endif
    @Test(.enabled(if: suspendPausesTransfers)) func aSlowConsumerPausesTheDownload() async throws {
        let written = Counter()
        let server = try LoopbackServer(routes: [
            "/big": { connection in
                connection.write(chunkedHead("application/x-ndjson"))
                let chunk = Data(String(repeating: "{\"padding\": \"0123456789abcdef\"}\n", count: 2000).utf8)
                for _ in 0..<(64 << 20) / chunk.count {
                    guard connection.writeChunk(chunk) else { break }
                    written.set(connection.bytesWritten)
                }
            }
        ])
        defer { server.stop() }
        let stream = try await URLSession.shared.records(
            JSONValue.self, for: URLRequest(url: server.url("/big")), registry: registry)
        var iterator = stream.makeAsyncIterator()
        _ = try await iterator.next()
        try await Task.sleep(nanoseconds: 500_000_000)
        let first = written.value
        try await Task.sleep(nanoseconds: 300_000_000)
        #expect(written.value == first, "the server kept writing while nothing was read")
        #expect(first < 32 << 20)
    }

    /// The whole-body convenience: a value, or a Decodable type, from one call.
    @Test func wholeBodyConvenience() async throws {
        struct User: Decodable, Sendable, Equatable { var id: Int }
        let body = "{\"id\": 42}"
        let server = try LoopbackServer(routes: [
            "/user": { connection in
                connection.write(
                    "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n"
                        + "Connection: close\r\n\r\n" + body)
            }
        ])
        defer { server.stop() }
        let request = URLRequest(url: server.url("/user"))
        #expect(try await URLSession.shared.decant(JSONValue.self, for: request, registry: registry) == ["id": 42])
        #expect(try await URLSession.shared.decant(User.self, for: request, registry: registry) == User(id: 42))
    }
}

/// A number set from the server's thread and read from the test.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var number = 0
    func set(_ value: Int) { lock.withLock { number = value } }
    var value: Int { lock.withLock { number } }
}

/// A flag set from the server's thread and read from the test.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.withLock { value = true } }
    var isSet: Bool { lock.withLock { value } }
}
