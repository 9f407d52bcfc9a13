import Decant
import DecantTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Request bodies written by a registry (issue #38 item 3), checked by what a server on 127.0.0.1 received.
@Suite(.serialized) struct URLSessionSendingLoopbackTests {
    /// What the server saw of one request.
    final class Received: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (method: String, contentType: String?, contentLength: String?, body: Data)?
        var value: (method: String, contentType: String?, contentLength: String?, body: Data)? {
            lock.withLock { stored }
        }
        func record(_ connection: LoopbackServer.Connection, body: Data) {
            let method = String(connection.requestLine.split(separator: " ").first ?? "")
            lock.withLock {
                stored = (
                    method, connection.requestField("Content-Type"), connection.requestField("Content-Length"), body
                )
            }
        }
    }

    /// A server whose `/echo` records the request and answers with its body under the request's `Content-Type`.
    static func echoServer(_ received: Received) throws -> LoopbackServer {
        try LoopbackServer(routes: [
            "/echo": { connection in
                let body = (try? connection.readBody()) ?? Data()
                received.record(connection, body: body)
                connection.write(
                    "HTTP/1.1 201 Created\r\nContent-Type: \(connection.requestField("Content-Type") ?? "")\r\n"
                        + "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n")
                connection.write(body)
            }
        ])
    }

    @Test func aValueIsSentWithItsContentTypeAndLength() async throws {
        let received = Received()
        let server = try Self.echoServer(received)
        defer { server.stop() }
        let registry = SerializerRegistry.standard.installing(.data)
        let bytes = Data([0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF])
        let request = try URLRequest(url: server.url("/echo")).sending(bytes, as: "image/x-test", registry: registry)
        let echoed = try await URLSession.shared.decant(Data.self, for: request, registry: registry)
        let seen = try #require(received.value)
        #expect(seen.method == "POST")
        #expect(seen.contentType == "image/x-test")
        #expect(seen.contentLength == "6")
        #expect(seen.body == bytes)
        #expect(echoed == bytes)
    }

    @Test func aValueNoFormatWritesFailsBeforeAnythingIsSent() throws {
        let registry = SerializerRegistry(modules: [.data])
        #expect {
            _ = try URLRequest(url: URL(string: "http://127.0.0.1:9/")!).sending(
                42, as: "image/png", registry: registry)
        } throws: { error in
            (error as? SerializationError)?.code == .unsupportedValue
        }
    }
}
