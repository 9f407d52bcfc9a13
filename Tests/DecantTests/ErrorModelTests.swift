import Decant
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Error models (issue #36 item 3) through URLSession and the standard registry, and pointer decoding of a format
/// that cannot do it.
@Suite struct ErrorModelTests {
    struct User: Decodable, Sendable {
        var userId: Int
        var displayName: String
    }

    /// RFC 9457's members, as the stub's problem+json body has them.
    struct Problem: Decodable, Equatable, Sendable {
        var title: String
        var status: Int
    }

    @Test func urlSessionThrowsTheDecodedErrorModelWithTheStatusAndTheBody() async throws {
        do {
            _ = try await URLSessionDecodingTests.session.decant(
                User.self, for: URLSessionDecodingTests.request("/missing"), registry: .standard,
                errorModel: Problem.self)
            Issue.record("decoded a 404")
        } catch let error as SerializationError {
            #expect(error.code == .unacceptableStatusCode)
            #expect(error.status == 404)
            #expect(error.errorValue(as: Problem.self) == Problem(title: "Not Found", status: 404))
            #expect(error.response?.body == StubURLProtocol.responses["/missing"]?.body)
        }
        let user = try await URLSessionDecodingTests.session.decant(
            User.self, for: URLSessionDecodingTests.request("/user"), registry: .standard, errorModel: Problem.self,
            options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase))
        #expect(user.userId == 5)
        let name = try await URLSessionDecodingTests.session.decant(
            String.self, for: URLSessionDecodingTests.request("/user"), registry: .standard, errorModel: Problem.self,
            at: "/display_name")
        #expect(name == "Ada")
    }

    @Test func aFormatWhoseDecoderDoesNotFollowPointersSaysSo() throws {
        let response = Response(status: 200, headers: ["Content-Type": "text/plain"], body: Data("hello".utf8))
        do {
            _ = try SerializerRegistry.standard.decode(String.self, from: response, at: "/a")
            Issue.record("decoded")
        } catch {
            #expect(error.code == .unsupportedFeature)
            #expect(error.message.contains("cannot decode at a JSON Pointer"))
        }
        // The root pointer is the whole body, for any decoder.
        #expect(try SerializerRegistry.standard.decode(String.self, from: response, at: "") == "hello")
    }
}
