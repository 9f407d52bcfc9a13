import Decant
import DecantTestSupport
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `Decodable` path of `URLSession.decant` against a server on 127.0.0.1 (issue #37 items 3 and 4): options per
/// call and per registry, `String` from a `text/plain` body, and a problem+json 404 kept in `errorValue`.
@Suite(.serialized) struct URLSessionDecodingLoopbackTests {
    /// A snake_case API's model.
    struct Account: Decodable, Sendable {
        var userId: Int
        var createdAt: Date
    }

    static let snakeCase = DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase, dateDecodingStrategy: .iso8601)

    /// Python: `datetime(2024, 5, 1, 12, tzinfo=timezone.utc).timestamp()`.
    static let createdAt: TimeInterval = 1_714_564_800

    static func server() throws -> LoopbackServer {
        func route(_ status: String, _ type: String, _ body: Data) -> @Sendable (LoopbackServer.Connection) -> Void {
            { connection in
                connection.write(
                    "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(body.count)\r\n"
                        + "Connection: close\r\n\r\n")
                connection.write(body)
            }
        }
        return try LoopbackServer(routes: [
            "/account": route(
                "200 OK", "application/json", Data(#"{"user_id": 7, "created_at": "2024-05-01T12:00:00Z"}"#.utf8)),
            // Python: "あ".encode("shift_jis") == b"\x82\xa0".
            "/text": route("200 OK", "text/plain; charset=shift_jis", Data([0x82, 0xA0])),
            "/missing": route(
                "404 Not Found", "application/problem+json",
                Data(#"{"type": "about:blank", "title": "Not Found", "status": 404}"#.utf8)),
        ])
    }

    @Test func optionsPerCallAndPerRegistry() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let request = URLRequest(url: server.url("/account"))
        let perCall = try await URLSession.shared.decant(
            Account.self, for: request, registry: .standard, options: Self.snakeCase)
        #expect(perCall.userId == 7)
        #expect(perCall.createdAt.timeIntervalSince1970 == Self.createdAt)
        var registry = SerializerRegistry.standard
        registry.decodingOptions = Self.snakeCase
        let perRegistry = try await URLSession.shared.decant(Account.self, for: request, registry: registry)
        #expect(perRegistry.userId == 7)
        #expect(perRegistry.createdAt.timeIntervalSince1970 == Self.createdAt)
        let error = await #expect(throws: SerializationError.self) {
            _ = try await URLSession.shared.decant(Account.self, for: request, registry: .standard)
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.message.contains("convertFromSnakeCase") == true)
    }

    @Test func aStringFromATextBody() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let text = try await URLSession.shared.decant(
            String.self, for: URLRequest(url: server.url("/text")), registry: .standard)
        #expect(text == "あ")
    }

    @Test func aProblemBodyStaysWithTheError() async throws {
        let server = try Self.server()
        defer { server.stop() }
        let error = await #expect(throws: SerializationError.self) {
            _ = try await URLSession.shared.decant(
                Account.self, for: URLRequest(url: server.url("/missing")), registry: .standard,
                options: Self.snakeCase)
        }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.status == 404)
        let problem = error?.errorValue as? JSONValue
        #expect(problem?["title"]?.stringValue == "Not Found")
        #expect(problem?["status"]?.intValue == 404)
    }
}
