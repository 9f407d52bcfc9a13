import DecantCore
import DecantFoundation
import Foundation
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The `URLSession` bridge: `Response(data:response:request:)`, `Response(data:httpResponse:requestMethod:)` and
/// `HTTPURLResponse.decantContentType`.
@Suite struct ResponseURLResponseTests {
    static let url = URL(string: "https://example.test/page")!

    static func httpResponse(status: Int = 200, _ fields: [String: String]) throws -> HTTPURLResponse {
        try #require(HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: fields))
    }

    @Test func contentTypeComesFromTheRawField() throws {
        // Foundation's `mimeType` / `textEncodingName` mis-read this on Linux; only Decant's result is asserted.
        let http = try Self.httpResponse(["Content-Type": "text/html ;Charset=GBK"])
        let response = Response(data: Data("<p>".utf8), httpResponse: http)
        #expect(response.contentType?.essence == "text/html")
        #expect(response.contentType?.charset == "GBK")
        #expect(http.decantContentType?.essence == "text/html")
        #expect(http.decantContentType?.charset == "GBK")
        #expect(response.status == 200)
        #expect(response.body == Data("<p>".utf8))
        #expect(response.url == Self.url)
        #expect(response.reasonPhrase == nil)
    }

    @Test(
        arguments: [
            ("application/problem+json; charset=utf-8", "application/problem+json", "utf-8"),
            ("TEXT/Plain", "text/plain", nil),
            ("text/html;charset=\"Shift_JIS\"", "text/html", "Shift_JIS"),
        ] as [(String, String, String?)])
    func contentTypes(value: String, essence: String, charset: String?) throws {
        let http = try Self.httpResponse(["content-type": value])
        #expect(http.decantContentType?.essence == essence)
        #expect(http.decantContentType?.charset == charset)
        #expect(Response(data: Data(), httpResponse: http).contentType?.essence == essence)
    }

    @Test func missingContentType() throws {
        let http = try Self.httpResponse(["X-A": "1"])
        #expect(http.decantContentType == nil)
        #expect(Response(data: Data(), httpResponse: http).contentType == nil)
    }

    @Test func headersAreSortedByName() throws {
        let http = try Self.httpResponse(status: 404, ["X-Zeta": "z", "content-length": "0", "Accept-Ranges": "bytes"])
        let response = Response(data: Data(), httpResponse: http, requestMethod: "GET")
        let names = response.headers.map { $0.name.lowercased() }
        #expect(names == ["accept-ranges", "content-length", "x-zeta"])
        #expect(response.headers["X-ZETA"] == "z")
        #expect(response.status == 404)
        #expect(response.requestMethod == "GET")
    }

    @Test func requestMethodPropagates() throws {
        let http = try Self.httpResponse(["Content-Type": "application/json", "Content-Length": "10"])
        var request = URLRequest(url: Self.url)
        request.httpMethod = "HEAD"
        let response = try Response(data: nil, response: http, request: request)
        #expect(response.requestMethod == "HEAD")
        #expect(response.isHeadRequest)
        #expect(response.body.isEmpty)
        #expect(response.url == Self.url)

        let withoutRequest = try Response(data: Data("{}".utf8), response: http)
        #expect(withoutRequest.requestMethod == nil)
        #expect(withoutRequest.body == Data("{}".utf8))
    }

    /// The content codings URLSession has removed leave `Content-Encoding`, from the last listed backwards, and
    /// `Content-Length` becomes the body's size; a coding it does not decode stops the removal; responses without a
    /// body by protocol keep their fields. `Response(data:httpResponse:)` keeps every field.
    @Test(
        arguments: [
            ("gzip", "GET", 200, nil, "8"),
            ("GZIP", "GET", 200, nil, "8"),
            ("gzip, deflate", "GET", 200, nil, "8"),
            ("identity, gzip", "GET", 200, nil, "8"),
            ("x-unknown, gzip", "GET", 200, "x-unknown", "8"),
            ("x-unknown", "GET", 200, "x-unknown", "28"),
            ("gzip, x-unknown", "GET", 200, "gzip, x-unknown", "28"),
            ("gzip", "HEAD", 200, "gzip", "28"),
            ("gzip", "GET", 204, "gzip", "28"),
            ("gzip", "GET", 304, "gzip", "28"),
        ] as [(String, String, Int, String?, String)])
    func contentCodingsRemovedBySession(
        coding: String, method: String, status: Int, codingAfter: String?, lengthAfter: String
    ) throws {
        let http = try Self.httpResponse(
            status: status,
            ["Content-Type": "application/json", "Content-Encoding": coding, "Content-Length": "28"])
        var request = URLRequest(url: Self.url)
        request.httpMethod = method
        let body = Data(#"{"a": 1}"#.utf8)
        let response = try Response(data: body, response: http, request: request)
        #expect(response.headers["Content-Encoding"] == codingAfter)
        #expect(response.headers["Content-Length"] == lengthAfter)
        #expect(response.body == body)
        let kept = Response(data: body, httpResponse: http, requestMethod: method)
        #expect(kept.headers["Content-Encoding"] == coding)
        #expect(kept.headers["Content-Length"] == "28")
    }

    @Test func nonHTTPResponseUsesMimeType() throws {
        let fileURL = URL(fileURLWithPath: "/tmp/decant-fixture.json")
        let urlResponse = URLResponse(
            url: fileURL, mimeType: "application/json", expectedContentLength: 2, textEncodingName: "utf-8")
        let response = try Response(data: Data("{}".utf8), response: urlResponse)
        #expect(response.status == 200)
        #expect(response.contentType?.essence == "application/json")
        #expect(response.contentType?.charset == "utf-8")
        #expect(response.headers["Content-Type"] == "application/json; charset=utf-8")
        #expect(response.url == fileURL)
        #expect(response.body == Data("{}".utf8))
    }

    @Test func nonHTTPResponseWithoutMimeType() throws {
        let urlResponse = URLResponse(
            url: Self.url, mimeType: nil, expectedContentLength: -1, textEncodingName: nil)
        let response = try Response(data: nil, response: urlResponse)
        #expect(response.status == 200)
        #expect(response.headers.isEmpty)
        #expect(response.body.isEmpty)
    }

    @Test func nilResponseIsAnError() throws {
        var caught: SerializationError?
        do {
            _ = try Response(data: Data("partial".utf8), response: nil)
        } catch {
            caught = error
        }
        let error = try #require(caught)
        #expect(error.code == .malformedMessage)
        #expect(error.message.contains("URLResponse is nil"))
        #expect(error.response == nil)
    }
}
