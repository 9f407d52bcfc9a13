import DecantRawHTTP
import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

/// `Response(raw:)` and `Response.rawMessage`: raw HTTP/1.1 response messages (RFC 9112).
@Suite struct RawResponseTests {
    // MARK: Helpers

    /// The UTF-8 bytes of `text`.
    static func data(_ text: String) -> Data { Data(text.utf8) }

    /// Parses `text`, expecting a `SerializationError`, and returns it.
    static func failure(
        _ raw: Data,
        requestMethod: String? = nil,
        limits: Response.RawMessageLimits = .default
    ) -> SerializationError? {
        do {
            _ = try Response(raw: raw, requestMethod: requestMethod, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    // MARK: Status line and header fields

    @Test func crlfMessage() throws {
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nX-B: 2\r\nx-a: 1\r\n\r\n{\"a\":1}"
        let response = try Response(raw: Self.data(raw), requestMethod: "GET", url: URL(string: "https://e.test/a"))
        #expect(response.status == 200)
        #expect(response.reasonPhrase == "OK")
        #expect(response.headers.map(\.name) == ["Content-Type", "X-B", "x-a"])
        #expect(response.headers["content-type"] == "application/json")
        #expect(response.contentType?.essence == "application/json")
        #expect(response.body == Self.data("{\"a\":1}"))
        #expect(response.requestMethod == "GET")
        #expect(response.url?.absoluteString == "https://e.test/a")
        #expect(response.trailers.isEmpty)
    }

    @Test func bareLFMessage() throws {
        let raw = "HTTP/1.1 404 Not Found\nContent-Type: text/plain\nContent-Length: 5\n\nnope!"
        let response = try Response(raw: Self.data(raw))
        #expect(response.status == 404)
        #expect(response.reasonPhrase == "Not Found")
        #expect(response.headers["Content-Length"] == "5")
        #expect(response.body == Self.data("nope!"))
    }

    @Test func bodyKeepsLineEndingsAfterTheHead() throws {
        let raw = "HTTP/1.1 200 OK\n\nline1\r\nline2\n"
        #expect(try Response(raw: Self.data(raw)).body == Self.data("line1\r\nline2\n"))
    }

    @Test(arguments: [
        "HTTP/1.1 200\r\n\r\nx",
        "HTTP/1.1 200 \r\n\r\nx",
        "HTTP/1.1 200\t \r\n\r\nx",
    ])
    func reasonPhraseMissing(raw: String) throws {
        let response = try Response(raw: Self.data(raw))
        #expect(response.status == 200)
        #expect(response.reasonPhrase == nil)
        #expect(response.body == Self.data("x"))
    }

    @Test(
        arguments: [
            ("HTTP/1.0 200 OK\r\n\r\nbody", 200, "OK"),
            ("HTTP/2 200\r\ncontent-type: text/plain\r\n\r\nbody", 200, nil),
            ("HTTP/2.0 301 Moved Permanently\r\n\r\nbody", 301, "Moved Permanently"),
            ("HTTP/3 503 \r\n\r\nbody", 503, nil),
            ("HTTP/1.1  418   I'm a teapot  \r\n\r\nbody", 418, "I'm a teapot"),
            ("HTTP/1.1 599 Custom Reason With Spaces\r\n\r\nbody", 599, "Custom Reason With Spaces"),
        ] as [(String, Int, String?)])
    func statusLines(raw: String, status: Int, reason: String?) throws {
        let response = try Response(raw: Self.data(raw))
        #expect(response.status == status)
        #expect(response.reasonPhrase == reason)
        #expect(response.body == Self.data("body"))
    }

    @Test(arguments: [
        ("HTTP/1.1 20 OK\r\n\r\n", 9),
        ("HTTP/1.1 2000 OK\r\n\r\n", 9),
        ("HTTP/1.1 099 Low\r\n\r\n", 9),
        ("HTTP/1.1 600 High\r\n\r\n", 9),
        ("HTTP/1.1 abc\r\n\r\n", 9),
        ("HTTP/1.1 20x OK\r\n\r\n", 9),
        ("HTTP/1.1\r\n\r\n", 8),
        ("HTTP/1.1200 OK\r\n\r\n", 8),
        ("HTTP/\r\n\r\n", 5),
        ("HTTP/1. 200 OK\r\n\r\n", 7),
        ("HTTP/9 200 OK\r\n\r\n", 5),
        ("HTTPS/1.1 200 OK\r\n\r\n", 0),
        ("http/1.1 200 OK\r\n\r\n", 0),
        ("<!doctype html><html></html>", 0),
        ("{\"json\": true}", 0),
        ("\r\n\r\n  HTTP/1.1 200 OK\r\n\r\n", 4),
        ("HTTP/1.1 200 O\u{01}K\r\n\r\n", 14),
        ("HTTP/1.1 200 OK\r\r\n\r\n", 15),
    ])
    func malformedStatusLines(raw: String, offset: Int) throws {
        let error = try #require(Self.failure(Self.data(raw)))
        #expect(error.code == .malformedMessage)
        #expect(error.offset == offset)
        #expect(error.message.contains("HTTP/1.1 200 OK"))
        #expect(error.message.contains("curl -si URL > case.http"))
        #expect(error.response == nil)
    }

    @Test(arguments: ["", "\r\n", "\n\n\r\n"])
    func noStatusLine(raw: String) throws {
        let error = try #require(Self.failure(Self.data(raw)))
        #expect(error.code == .malformedMessage)
        #expect(error.offset == raw.utf8.count)
        #expect(error.message.contains("no status line"))
    }

    @Test func leadingEmptyLinesAreSkipped() throws {
        let response = try Response(raw: Self.data("\r\n\n\r\nHTTP/1.1 201 Created\r\n\r\n"))
        #expect(response.status == 201)
    }

    @Test func obsoleteLineFolding() throws {
        let raw =
            "HTTP/1.1 200 OK\r\nX-Folded: first\r\n   second\r\n\tthird  \r\nX-Next: n\r\n"
            + "X-Empty:\r\n  tail\r\n\r\n"
        let response = try Response(raw: Self.data(raw))
        #expect(response.headers.count == 3)
        #expect(response.headers["X-Folded"] == "first second third")
        #expect(response.headers["X-Next"] == "n")
        #expect(response.headers["X-Empty"] == "tail")
    }

    @Test func whitespaceBeforeTheFirstFieldIsMalformed() throws {
        let error = try #require(Self.failure(Self.data("HTTP/1.1 200 OK\r\n X-A: 1\r\n\r\n")))
        #expect(error.code == .malformedMessage)
        #expect(error.offset == 17)
    }

    @Test func fieldValuesAreTrimmed() throws {
        let response = try Response(raw: Self.data("HTTP/1.1 200 OK\r\nX-A:  \t spaced value \t \r\nX-B:\r\n\r\n"))
        #expect(response.headers["X-A"] == "spaced value")
        #expect(response.headers["X-B"] == "")
    }

    @Test func repeatedFieldsStaySeparate() throws {
        let raw = "HTTP/1.1 200 OK\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\n\r\n"
        let response = try Response(raw: Self.data(raw))
        #expect(response.headers.values(for: "set-cookie") == ["a=1", "b=2"])
    }

    @Test(arguments: [" ", "\t", "  "])
    func whitespaceBeforeColonIsMalformed(space: String) throws {
        let raw = "HTTP/1.1 200 OK\r\nContent-Type\(space): text/plain\r\n\r\n"
        let error = try #require(Self.failure(Self.data(raw)))
        #expect(error.code == .malformedMessage)
        #expect(error.offset == 17 + 12)
        #expect(error.message.contains("RFC 9112 §5.1"))
        #expect(error.message.contains("Content-Type"))
    }

    @Test(arguments: [
        ("HTTP/1.1 200 OK\r\nNo colon here\r\n\r\n", 17),
        ("HTTP/1.1 200 OK\r\n: empty name\r\n\r\n", 17),
        ("HTTP/1.1 200 OK\r\nBad(Name): x\r\n\r\n", 20),
        ("HTTP/1.1 200 OK\r\nX-A: nul\u{0}byte\r\n\r\n", 25),
        ("HTTP/1.1 200 OK\r\nX-A: bare\rcr\r\n\r\n", 26),
    ])
    func malformedFieldLines(raw: String, offset: Int) throws {
        let error = try #require(Self.failure(Self.data(raw)))
        #expect(error.code == .malformedMessage)
        #expect(error.offset == offset)
    }

    @Test func nonUTF8FieldValueIsReadAsLatin1() throws {
        var raw = Self.data("HTTP/1.1 200 OK\r\nContent-Disposition: attachment; filename=\"caf")
        raw.append(contentsOf: [0xE9])
        raw.append(Self.data("\"\r\n\r\n"))
        let response = try Response(raw: raw)
        #expect(response.headers["Content-Disposition"] == "attachment; filename=\"café\"")
    }

    @Test func headerSectionEndingWithTheData() throws {
        let withNewline = try Response(raw: Self.data("HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"))
        #expect(withNewline.headers["Content-Type"] == "text/plain")
        #expect(withNewline.body.isEmpty)
        let without = try Response(raw: Self.data("HTTP/1.1 204 No Content"))
        #expect(without.status == 204)
        #expect(without.reasonPhrase == "No Content")
    }

    // MARK: Interim and proxy blocks

    @Test func continueIsSkipped() throws {
        let raw = "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nLocation: /x\r\nContent-Length: 2\r\n\r\nok"
        let response = try Response(raw: Self.data(raw))
        #expect(response.status == 201)
        #expect(response.reasonPhrase == "Created")
        #expect(response.headers.map(\.name) == ["Location", "Content-Length"])
        #expect(response.body == Self.data("ok"))
    }

    @Test func severalInterimResponsesAreSkipped() throws {
        let raw =
            "HTTP/1.1 100 Continue\n\nHTTP/1.1 103 Early Hints\nLink: </s.css>; rel=preload\n\n"
            + "HTTP/1.1 200 OK\nContent-Type: text/css\n\nbody{}"
        let response = try Response(raw: Self.data(raw))
        #expect(response.status == 200)
        #expect(response.headers.contains("Link") == false)
        #expect(response.body == Self.data("body{}"))
    }

    @Test func interimResponseAloneIsTheResponse() throws {
        let response = try Response(raw: Self.data("HTTP/1.1 100 Continue\r\n\r\n"))
        #expect(response.status == 100)
        #expect(response.body.isEmpty)
    }

    @Test func interimResponseFollowedByGarbageIsMalformed() throws {
        let error = try #require(Self.failure(Self.data("HTTP/1.1 100 Continue\r\n\r\n{\"a\":1}")))
        #expect(error.code == .malformedMessage)
        #expect(error.offset == 25)
    }

    @Test func switchingProtocolsThenHTTP2() throws {
        let raw = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\n\r\nHTTP/2 200\r\ncontent-length: 2\r\n\r\nhi"
        let response = try Response(raw: Self.data(raw))
        #expect(response.status == 200)
        #expect(response.body == Self.data("hi"))
        let websocket = try Response(raw: Self.data("HTTP/1.1 101 Switching Protocols\r\n\r\n\u{81}\u{05}hello"))
        #expect(websocket.status == 101)
        #expect(websocket.body.isEmpty)
    }

    @Test(arguments: [
        "HTTP/1.1 200 Connection established\r\n\r\n",
        "HTTP/1.0 200 Connection established\r\nProxy-agent: Squid\r\n\r\n",
        "HTTP/1.1 200 OK\r\n\r\n\r\n",
    ])
    func proxyConnectBlockIsSkipped(proxyBlock: String) throws {
        let raw = proxyBlock + "HTTP/2 404\r\ncontent-type: application/problem+json\r\n\r\n{\"status\":404}"
        let response = try Response(raw: Self.data(raw))
        #expect(response.status == 404)
        #expect(response.contentType?.essence == "application/problem+json")
        #expect(response.headers.contains("Proxy-agent") == false)
        #expect(response.body == Self.data("{\"status\":404}"))
    }

    @Test func httpLookingBodyOfARealResponseIsKept() throws {
        let body = "HTTP/1.1 200 OK\r\n\r\n"
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: message/http\r\n\r\n" + body
        #expect(try Response(raw: Self.data(raw)).body == Self.data(body))
    }

    // MARK: Chunked

    @Test func chunkedWithExtensionsAndTrailers() throws {
        let raw =
            "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n"
            + "Trailer: X-Checksum\r\n\r\n"
            + "5;name=value\r\nHello\r\n"
            + "7 ; a=\"quoted\";b\r\n, world\r\n"
            + "A\r\n0123456789\r\n"
            + "0;last\r\nX-Checksum: abc123\r\nX-Other:  two \r\n\r\n"
        let response = try Response(raw: Self.data(raw))
        #expect(response.body == Self.data("Hello, world0123456789"))
        #expect(response.trailers.map(\.name) == ["X-Checksum", "X-Other"])
        #expect(response.trailers["x-checksum"] == "abc123")
        #expect(response.trailers["X-Other"] == "two")
        #expect(response.headers["Transfer-Encoding"] == "chunked")
    }

    @Test(arguments: [
        "Transfer-Encoding: chunked",
        "Transfer-Encoding: Chunked",
        "transfer-encoding: CHUNKED",
        "Transfer-Encoding: gzip, chunked",
        "Transfer-Encoding: gzip\r\nTransfer-Encoding: chunked",
        "Transfer-Encoding: chunked\r\nContent-Length: 3",
    ])
    func chunkedIsRecognised(field: String) throws {
        let raw = "HTTP/1.1 200 OK\n\(field)\n\n4\nabcd\n2\r\nef\r\n0\n\nextra bytes"
        let response = try Response(raw: Self.data(raw))
        #expect(response.body == Self.data("abcdef"))
    }

    @Test func chunkedNotFinalReadsToTheEnd() throws {
        let raw =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\nContent-Length: 2\r\n\r\n"
            + "4\r\nabcd\r\n0\r\n\r\n"
        let response = try Response(raw: Self.data(raw))
        #expect(response.body == Self.data("4\r\nabcd\r\n0\r\n\r\n"))
    }

    @Test func chunkedWithoutTrailerSectionEnd() throws {
        let raw = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n0\r\n"
        let response = try Response(raw: Self.data(raw))
        #expect(response.body == Self.data("abc"))
    }

    @Test(arguments: [
        // (body after the head, decoded bytes that arrived)
        ("5\r\nHel", "Hel"),
        ("5\r\nHello", "Hello"),
        ("5\r\nHello\r", "Hello"),
        ("5\r\nHello\r\n", "Hello"),
        ("5\r\nHello\r\n3", "Hello"),
        ("", ""),
        ("5\r\nHello\r\n3\r\nabc\r\n", "Helloabc"),
    ])
    func chunkedTruncated(chunks: String, partial: String) throws {
        let head = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
        let raw = Self.data(head + chunks)
        let error = try #require(Self.failure(raw))
        #expect(error.code == .truncatedBody)
        #expect(error.offset == raw.count)
        #expect(error.response?.status == 200)
        #expect(error.response?.body == Self.data(partial))
        #expect(error.response?.contentType?.essence == "application/json")
        #expect(error.message.contains("truncated"))
    }

    @Test(arguments: [
        ("10000000000000000\r\nabc\r\n0\r\n\r\n", 0),
        ("FFFFFFFFFFFFFFFFFFFF\r\n", 0),
        ("3\r\nabcd\r\n0\r\n\r\n", 6),
        ("3\r\nabc\r\n0\r\nBad Trailer: x\r\n\r\n", 14),
    ])
    func chunkedMalformed(chunks: String, relativeOffset: Int) throws {
        let head = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
        let error = try #require(Self.failure(Self.data(head + chunks)))
        #expect(error.code == .malformedMessage)
        #expect(error.offset == head.utf8.count + relativeOffset)
    }

    /// `curl -si` saves a chunked response's body decoded but keeps `Transfer-Encoding: chunked`: a body that does
    /// not start with a chunk-size line is taken as it is.
    @Test(arguments: [
        "{\"curl\": \"decoded\"}",
        "xyz\r\nabc\r\n0\r\n\r\n",
        "; ext\r\nabc\r\n0\r\n\r\n",
        "3 x\r\nabc\r\n0\r\n\r\n",
        "<html>\n<body>hello</body>\n</html>\n",
        "abc",  // hex digits, but no line end: not a chunk-size line
    ])
    func curlDecodedChunkedBodyIsTakenAsItIs(body: String) throws {
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n" + body
        let response = try Response(raw: Self.data(raw))
        #expect(response.body == Self.data(body))
        #expect(response.status == 200)
    }

    /// Regression: a de-chunked body (as `curl -si` saves it) whose first line looks like a chunk size was reported
    /// as cut off, with the advice to save it with `curl -si`, which is what the user had done.
    @Test(arguments: ["123\n", "cafe\r\n{\"a\": 1}", "1e5\nless than 485 bytes", "ff\r\nshort", "3\nabcdef\n"])
    func curlDecodedBodyThatLooksChunkedSaysHowToFixTheFile(body: String) throws {
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nTransfer-Encoding: chunked\r\n\r\n" + body
        let error = try #require(Self.failure(Self.data(raw)))
        #expect(error.code == .truncatedBody || error.code == .malformedMessage)
        #expect(error.message.contains("only looks like a chunk size"))
        #expect(error.message.contains("delete that line from the file"))
        #expect(!error.message.contains("save responses with `curl -si URL > case.http`"))
    }

    /// Framing cut off after a complete chunk is still reported as cut off.
    @Test func chunkedFramingCutOffAfterAChunkIsTruncated() throws {
        let raw = "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n3\r\nab"
        let error = try #require(Self.failure(Self.data(raw)))
        #expect(error.code == .truncatedBody)
        #expect(error.message.contains("check that the file is complete"))
    }

    // MARK: Content-Length

    @Test func contentLengthShortIsTruncated() throws {
        let raw = Self.data(
            "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{\"a\":")
        let error = try #require(Self.failure(raw))
        #expect(error.code == .truncatedBody)
        #expect(error.message.contains("10 bytes"))
        #expect(error.message.contains("only 5 arrived"))
        #expect(error.message.contains("curl -si URL > case.http"))
        #expect(error.offset == raw.count)
        let partial = try #require(error.response)
        #expect(partial.status == 503)
        #expect(partial.reasonPhrase == "Service Unavailable")
        #expect(partial.headers["Content-Length"] == "10")
        #expect(partial.body == Self.data("{\"a\":"))
        #expect(error.status == 503)
    }

    @Test func contentLengthLongerIgnoresExtraBytes() throws {
        let raw = "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\nabcHTTP/1.1 200 OK\r\n\r\nnext"
        #expect(try Response(raw: Self.data(raw)).body == Self.data("abc"))
    }

    @Test(arguments: [
        ("Content-Length: 3, 3", "abc"),
        ("Content-Length: 3\r\nContent-Length: 3", "abc"),
        ("Content-Length: 0", ""),
        ("content-length:  002 ", "ab"),
    ])
    func validContentLengths(fields: String, body: String) throws {
        let raw = "HTTP/1.1 200 OK\r\n\(fields)\r\n\r\nabcdef"
        #expect(try Response(raw: Self.data(raw)).body == Self.data(body))
    }

    @Test(arguments: [
        "Content-Length: 3\r\nContent-Length: 4",
        "Content-Length: 3, 4",
        "Content-Length: -1",
        "Content-Length: abc",
        "Content-Length: ",
        "Content-Length: 99999999999999999999999",
    ])
    func invalidContentLengthsAreMalformed(fields: String) throws {
        let raw = "HTTP/1.1 200 OK\r\nX-A: 1\r\n\(fields)\r\n\r\nabcdef"
        let error = try #require(Self.failure(Self.data(raw)))
        #expect(error.code == .malformedMessage)
        #expect(error.offset == 25)
        #expect(error.message.contains("Content-Length"))
        #expect(error.response?.status == 200)
    }

    // MARK: Responses without a body

    @Test func headResponseHasNoBody() throws {
        let raw = Self.data("HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1234\r\n\r\n")
        let response = try Response(raw: raw, requestMethod: "HEAD")
        #expect(response.body.isEmpty)
        #expect(response.headers["Content-Length"] == "1234")
        #expect(response.isHeadRequest)
        let stray = try Response(raw: raw + Self.data("stray"), requestMethod: "HEAD")
        #expect(stray.body.isEmpty)
        // Without the method, the same bytes are a truncated GET response.
        #expect(Self.failure(raw)?.code == .truncatedBody)
    }

    @Test(arguments: [204, 304])
    func statusesWithoutBody(status: Int) throws {
        let raw = "HTTP/1.1 \(status) X\r\nContent-Length: 50\r\nTransfer-Encoding: chunked\r\n\r\nstray bytes"
        let response = try Response(raw: Self.data(raw))
        #expect(response.status == status)
        #expect(response.body.isEmpty)
    }

    // MARK: Limits

    @Test func tooManyFields() throws {
        let fields = (0..<5).map { "X-\($0): v\r\n" }.joined()
        let raw = Self.data("HTTP/1.1 200 OK\r\n" + fields + "\r\n")
        let limits = Response.RawMessageLimits(maxHeaderFields: 4)
        let error = try #require(Self.failure(raw, limits: limits))
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxHeaderFields"))
        #expect(error.offset == 17 + 4 * 8)
        #expect(try Response(raw: raw, limits: Response.RawMessageLimits(maxHeaderFields: 5)).headers.count == 5)
    }

    @Test func headerBytesExceeded() throws {
        let raw = Self.data("HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 200) + "\r\n\r\nbody")
        let headLength = raw.count - 4
        let tight = Response.RawMessageLimits(maxHeaderBytes: headLength - 1)
        let error = try #require(Self.failure(raw, limits: tight))
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxHeaderBytes"))
        let exact = Response.RawMessageLimits(maxHeaderBytes: headLength)
        #expect(try Response(raw: raw, limits: exact).body == Self.data("body"))
    }

    @Test func headerBytesCountInterimResponses() throws {
        let raw = Self.data("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\n\r\n")
        let error = try #require(Self.failure(raw, limits: Response.RawMessageLimits(maxHeaderBytes: 30)))
        #expect(error.code == .limitExceeded)
    }

    @Test func statusLineWithoutLineEndHitsTheLimit() throws {
        let raw = Data(repeating: UInt8(ascii: "H"), count: 10_000)
        let error = try #require(Self.failure(raw, limits: Response.RawMessageLimits(maxHeaderBytes: 100)))
        #expect(error.code == .limitExceeded)
        #expect(error.offset == 0)
    }

    @Test(arguments: [
        "Content-Length: 11\r\n\r\nhello world",
        "\r\nhello world",
        "Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n",
    ])
    func bodyBytesExceeded(rest: String) throws {
        let raw = Self.data("HTTP/1.1 200 OK\r\n" + rest)
        let error = try #require(Self.failure(raw, limits: Response.RawMessageLimits(maxBodyBytes: 10)))
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("maxBodyBytes"))
        #expect(error.response?.status == 200)
        #expect(try Response(raw: raw, limits: Response.RawMessageLimits(maxBodyBytes: 11)).body.count == 11)
    }

    @Test func trailerLimits() throws {
        let raw = Self.data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n0\r\nA: 1\r\nB: 2\r\n\r\n")
        let error = try #require(Self.failure(raw, limits: Response.RawMessageLimits(maxHeaderFields: 1)))
        #expect(error.code == .limitExceeded)
        #expect(error.message.contains("trailer"))
    }

    // MARK: Bytes

    @Test(arguments: [true, false])
    func binaryBodyIsExact(withContentLength: Bool) throws {
        let body = Data((0...255).map { UInt8($0) } + (0...255).reversed().map { UInt8($0) })
        var raw = Self.data("HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n")
        if withContentLength { raw.append(Self.data("Content-Length: \(body.count)\r\n")) }
        raw.append(Self.data("\r\n"))
        raw.append(body)
        #expect(try Response(raw: raw).body == body)
    }

    @Test func binaryChunkedBodyIsExact() throws {
        let body = Data((0...255).map { UInt8($0) })
        var raw = Self.data("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n100\r\n")
        raw.append(body)
        raw.append(Self.data("\r\n0\r\n\r\n"))
        #expect(try Response(raw: raw).body == body)
    }

    @Test func dataSliceWithNonZeroStartIndex() throws {
        let message = Self.data("HTTP/1.1 200 OK\r\nContent-Length: 4\r\n\r\nbody")
        let padded = Self.data("garbage before") + message + Self.data("after")
        let slice = padded[14..<(14 + message.count)]
        #expect(slice.startIndex == 14)
        let response = try Response(raw: slice)
        #expect(response.body == Self.data("body"))
        #expect(response.body.startIndex == 0)

        let shortSlice = padded[14..<(14 + message.count - 2)]
        let error = try #require(Self.failure(shortSlice))
        #expect(error.code == .truncatedBody)
        #expect(error.offset == message.count - 2)
        #expect(error.response?.body == Self.data("bo"))
    }

    // MARK: Round trip

    @Test(arguments: [
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}",
        "HTTP/1.1 404 Not Found\nContent-Type: text/plain\nX-Repeat: 1\nX-Repeat: 2\n\nmissing",
        "HTTP/2 201\r\nlocation: /items/1\r\n\r\n",
        "HTTP/1.1 299\r\n\r\nno phrase",
        "HTTP/1.1 204 No Content\r\nContent-Length: 0\r\n\r\n",
        "HTTP/1.1 304 Not Modified\r\nETag: \"x\"\r\nContent-Length: 99\r\n\r\n",
        "HTTP/1.1 200 OK\r\nX-Fold: a\r\n b\r\n\r\nbody",
    ])
    func roundTrip(raw: String) throws {
        let original = try Response(raw: Self.data(raw))
        let again = try Response(raw: original.rawMessage)
        #expect(again.status == original.status)
        #expect(again.headers == original.headers)
        #expect(again.body == original.body)
        #expect(again.reasonPhrase == (original.reasonPhrase ?? again.reasonPhrase))
    }

    /// Found by FuzzRawResponse: a bare-LF head just under `maxHeaderBytes` is written back with CRLF line ends, so
    /// the written head is larger than the one read and needs a larger limit to be read again (the writer is right;
    /// the fuzz target's invariant now allows for it).
    @Test func bareLFHeadNearTheLimitGrowsWhenWritten() throws {
        let value = String(repeating: "v", count: 4000)
        let raw = "HTTP/1.1 200 OK\nContent-Type: text/plain; x=\"\(value)\"\nX-A: 1\nX-B: 2\n\nabc"
        let limits = Response.RawMessageLimits(maxHeaderBytes: 4096, maxHeaderFields: 64, maxBodyBytes: 1 << 20)
        let original = try Response(raw: Self.data(raw), limits: limits)
        let head = original.rawMessage.count - original.body.count
        #expect(head > raw.utf8.count - 3)
        let roomier = Response.RawMessageLimits(maxHeaderBytes: 2 * 4096, maxHeaderFields: 66, maxBodyBytes: 1 << 20)
        let again = try Response(raw: original.rawMessage, limits: roomier)
        #expect(again.headers == original.headers)
        #expect(again.body == original.body)
    }

    @Test func roundTripOfChunkedWritesContentLength() throws {
        let raw =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nContent-Type: text/plain\r\n\r\n"
            + "3\r\nabc\r\n2\r\nde\r\n0\r\nX-T: 1\r\n\r\n"
        let original = try Response(raw: Self.data(raw))
        let message = original.rawMessage
        let expected = "HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Type: text/plain\r\n\r\nabcde"
        #expect(String(decoding: message, as: UTF8.self) == expected)
        let again = try Response(raw: message)
        #expect(again.body == original.body)
        #expect(again.headers["Transfer-Encoding"] == nil)
        #expect(again.headers["Content-Length"] == "5")
    }

    @Test func roundTripOfChunkedWithOtherCodings() throws {
        let raw =
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: gzip, chunked\r\nContent-Length: 1\r\n\r\n"
            + "3\r\nabc\r\n0\r\n\r\n"
        let original = try Response(raw: Self.data(raw))
        let again = try Response(raw: original.rawMessage)
        #expect(again.headers["Transfer-Encoding"] == "gzip")
        #expect(again.headers["Content-Length"] == nil)
        #expect(again.body == original.body)
    }

    @Test func rawMessageOfABuiltResponse() throws {
        var response = Response(status: 404, headers: ["Content-Type": "text/plain", "Content-Length": "1"])
        response.body = Self.data("bigger body")
        response.headers.append(name: "X-Inject", value: "a\r\nEvil: 1")
        let text = String(decoding: response.rawMessage, as: UTF8.self)
        let expected =
            "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n"
            + "X-Inject: a  Evil: 1\r\n\r\nbigger body"
        #expect(text == expected)
        let again = try Response(raw: response.rawMessage)
        #expect(again.body == response.body)
        #expect(again.headers.count == 3)

        let head = Response(
            status: 200, headers: ["Content-Length": "100"], body: Self.data("x"), requestMethod: "HEAD")
        #expect(String(decoding: head.rawMessage, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n")
    }

    @Test func roundTripOfBinaryBody() throws {
        let body = Data((0...255).map { UInt8($0) })
        let response = Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: body)
        let again = try Response(raw: response.rawMessage)
        #expect(again.body == body)
        #expect(again.reasonPhrase == "OK")
    }

    // MARK: Never crashes

    /// Bytes that make random input reach deeper into the parser.
    static let interestingBytes: [UInt8] =
        Array("HTTP/1.1 200 OK\r\n:; \t0123456789abcdefABCDEF-,".utf8) + [0, 0x7F, 0xFF]

    /// Whether parsing `raw` either succeeds or throws a `SerializationError` (anything else would be a crash).
    static func parsesOrThrows(_ raw: Data, requestMethod: String? = nil) -> Bool {
        let limits = Response.RawMessageLimits(maxHeaderBytes: 512, maxHeaderFields: 8, maxBodyBytes: 512)
        do {
            let response = try Response(raw: raw, requestMethod: requestMethod, limits: limits)
            return response.body.count <= 512 && (100...599).contains(response.status)
        } catch {
            return error.offset.map { $0 >= 0 && $0 <= raw.count } ?? true
        }
    }

    @Test func randomBytesNeverCrash() {
        var generator = SplitMix64(state: 0xDEC0_DE00_2024)
        var failures = 0
        for round in 0..<2_000 {
            let length = Int.random(in: 0..<200, using: &generator)
            var bytes: [UInt8] = []
            if round % 2 == 0 { bytes.append(contentsOf: "HTTP/1.1 ".utf8) }
            for _ in 0..<length {
                if Bool.random(using: &generator) {
                    bytes.append(Self.interestingBytes.randomElement(using: &generator) ?? 0)
                } else {
                    bytes.append(UInt8.random(in: 0...255, using: &generator))
                }
            }
            // Every other input is a slice with a non-zero start index.
            let padded = Data([1, 2, 3] + bytes)
            let raw = round % 3 == 0 ? padded[3...] : Data(bytes)
            if !Self.parsesOrThrows(raw, requestMethod: round % 5 == 0 ? "HEAD" : nil) { failures += 1 }
        }
        #expect(failures == 0)
    }

    @Test func mutatedMessagesNeverCrash() {
        let seeds = [
            "HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 5\r\n\r\n"
                + "hello",
            "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5;x=y\r\nhello\r\nA\r\n0123456789\r\n0\r\n"
                + "T: 1\r\n\r\n",
            "HTTP/1.1 200 Connection established\r\n\r\nHTTP/2 200\r\nx: a\r\n b\r\n\r\nbody",
        ].map { Array($0.utf8) }
        var generator = SplitMix64(state: 42)
        var failures = 0
        for round in 0..<2_000 {
            var bytes = seeds[round % seeds.count]
            for _ in 0..<Int.random(in: 1...4, using: &generator) {
                let index = Int.random(in: 0..<bytes.count, using: &generator)
                switch Int.random(in: 0..<3, using: &generator) {
                case 0: bytes[index] = Self.interestingBytes.randomElement(using: &generator) ?? 0
                case 1: bytes.remove(at: index)
                default: bytes.removeSubrange(index...)
                }
                if bytes.isEmpty { break }
            }
            if !Self.parsesOrThrows(Data(bytes)) { failures += 1 }
        }
        #expect(failures == 0)
    }
}
