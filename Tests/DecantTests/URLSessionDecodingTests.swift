import Decant
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Answers `stub:` URLs from a fixed table, so that `URLSession.decant` runs without a network or a server.
final class StubURLProtocol: URLProtocol {
    /// The responses by URL path: status, Content-Type and body.
    static let responses: [String: (status: Int, type: String, body: Data)] = [
        "/user": (200, "application/json", Data(#"{"user_id": 5, "display_name": "Ada"}"#.utf8)),
        "/text": (200, "text/plain; charset=utf-8", Data("caf\u{E9}".utf8)),
        "/missing": (404, "application/problem+json", Data(#"{"title": "Not Found", "status": 404}"#.utf8)),
    ]

    override class func canInit(with request: URLRequest) -> Bool { request.url?.scheme == "stub" }
    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url, let stub = Self.responses[url.path],
            let response = HTTPURLResponse(
                url: url, statusCode: stub.status, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Type": stub.type, "Content-Length": String(stub.body.count)])
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.badURL))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: stub.body)
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

@Suite struct URLSessionDecodingTests {
    struct User: Decodable, Sendable {
        var userId: Int
        var displayName: String
    }

    static let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StubURLProtocol.self]
        return URLSession(configuration: configuration)
    }()

    static func request(_ path: String) -> URLRequest { URLRequest(url: URL(string: "stub://api" + path)!) }

    @Test func decantPassesDecodingOptions() async throws {
        let user = try await Self.session.decant(
            User.self, for: Self.request("/user"), registry: .standard,
            options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase))
        #expect(user.userId == 5 && user.displayName == "Ada")
    }

    @Test func decantReadsAStringFromPlainText() async throws {
        let text = try await Self.session.decant(String.self, for: Self.request("/text"), registry: .standard)
        #expect(text == "caf\u{E9}")
    }

    @Test func decantKeepsTheErrorBody() async throws {
        await #expect {
            _ = try await Self.session.decant(User.self, for: Self.request("/missing"), registry: .standard)
        } throws: { error in
            let error = try #require(error as? SerializationError)
            return error.code == .unacceptableStatusCode
                && (error.errorValue as? JSONValue)?["title"]?.stringValue == "Not Found"
        }
    }
}
