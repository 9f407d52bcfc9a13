import Decant
import DecantMultipart
import Foundation
import Testing

/// Framing, header and parameter rules. Expected values were checked with Python's `email` parser
/// (`BytesParser(policy=compat32)`: `get_payload(decode=True)`, `preamble`, `epilogue`, `get_filename()`,
/// `get_param(..., header="content-disposition")`).
@Suite struct ParserTests {
    typealias Support = MultipartTestSupport

    @Test func firstDelimiterMayStartTheBodyOrFollowAPreamble() throws {
        let plain = try Support.parse("--b\r\n\r\none\r\n--b--\r\n")
        #expect(plain.preamble == nil)
        #expect(plain.epilogue == nil)
        #expect(plain.parts.map(Support.text) == ["one"])
        let withPreamble = try Support.parse("Ignore me.\r\n--b\r\n\r\none\r\n--b--\r\nafter\r\n")
        #expect(withPreamble.preamble == Data("Ignore me.".utf8))
        #expect(withPreamble.epilogue == Data("after\r\n".utf8))
        #expect(withPreamble.parts.map(Support.text) == ["one"])
    }

    /// Lines that merely start with the delimiter are content (Python's parser agrees).
    @Test(arguments: ["--bX", "--b-", "--b--x", "--b x", " --b", "---b"])
    func linesStartingWithTheDelimiterAreContent(line: String) throws {
        let body = try Support.parse("--b\r\n\r\nbefore\r\n\(line)\r\nafter\r\n--b--")
        #expect(body.parts.count == 1)
        #expect(Support.text(body.parts[0]) == "before\r\n\(line)\r\nafter")
    }

    @Test func transportPaddingIsIgnored() throws {
        let body = try Support.parse("--b  \t\r\n\r\none\r\n--b\t\r\n\r\ntwo\r\n--b-- \t \r\n")
        #expect(body.parts.map(Support.text) == ["one", "two"])
        #expect(body.epilogue == nil)
    }

    @Test func bareLFLineEndsAreTolerated() throws {
        let body = try Support.parse("--b\nContent-Type: application/json\n\n{\"a\": 1}\n--b\n\nx\ny\n--b--\n")
        #expect(body.parts.count == 2)
        #expect(body.parts[0].serializerID == "json")
        #expect(Support.text(body.parts[1]) == "x\ny")
    }

    /// RFC 2046's example: a quoted boundary with a space.
    @Test func quotedBoundary() throws {
        let body = try Support.parse(
            "--simple boundary\r\n\r\nhi\r\n--simple boundary--",
            contentType: "multipart/mixed; boundary=\"simple boundary\"")
        #expect(body.boundary == "simple boundary")
        #expect(body.parts.map(Support.text) == ["hi"])
    }

    @Test(arguments: [
        ("multipart/mixed", "no boundary parameter"),
        ("multipart/mixed; boundary=\"\"", "is not valid"),
        ("multipart/mixed; boundary=\"ends with space \"", "is not valid"),
        ("multipart/mixed; boundary=\"a@b\"", "is not valid"),
        ("multipart/mixed; boundary=" + String(repeating: "x", count: 71), "is not valid"),
    ])
    func missingOrInvalidBoundary(contentType: String, message: String) {
        let error = #expect(throws: SerializationError.self) {
            try Support.parse("--b\r\n\r\nx\r\n--b--", contentType: contentType)
        }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(error?.serializerID == "multipart")
    }

    @Test func seventyCharacterBoundaryIsValid() throws {
        let boundary = String(repeating: "'()+_,-./:=?", count: 6).prefix(70)
        let body = try Support.parse(
            "--\(boundary)\r\n\r\nx\r\n--\(boundary)--", contentType: "multipart/mixed; boundary=\"\(boundary)\"")
        #expect(body.parts.map(Support.text) == ["x"])
    }

    @Test func missingCloseDelimiterIsAnErrorAtTheEnd() {
        let text = "--b\r\nContent-Type: text/plain\r\n\r\nhello, wor"
        let error = #expect(throws: SerializationError.self) { try Support.parse(text) }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == text.utf8.count)
        #expect(error?.message.contains("close delimiter '--b--'") == true)
    }

    @Test func noOpeningDelimiterIsAnError() {
        let error = #expect(throws: SerializationError.self) { try Support.parse("text\r\n--bb\r\n--b x\r\n") }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == 0)
    }

    @Test func headersAreUnfoldedAndKeepOrderAndDuplicates() throws {
        let body = try Support.parse(
            "--b\r\nX-A: 1\r\nX-Long: first\r\n  second\r\n\tthird\r\nx-a: 2\r\n\r\nbody\r\n--b--")
        let fields = body.parts[0].headers.map { [$0.name, $0.value] }
        #expect(fields == [["X-A", "1"], ["X-Long", "first  second\tthird"], ["x-a", "2"]])
        #expect(body.parts[0].headers.values(for: "x-A") == ["1", "2"])
    }

    @Test func partsWithoutHeadersOrBodies() throws {
        let body = try Support.parse("--b\r\n\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n\r\n--b\r\n--b--")
        #expect(body.parts.count == 3)
        #expect(body.parts.map(\.body.count) == [0, 0, 0])
        #expect(body.parts[0].headers.isEmpty)
        #expect(body.parts[0].contentType.essence == "text/plain")
        #expect(Support.text(body.parts[1]) == "")
    }

    /// A line that is not a header field starts the body (Python: MissingHeaderBodySeparatorDefect, same split).
    @Test func nonFieldLineStartsTheBody() throws {
        let body = try Support.parse("--b\r\nContent-Type: text/plain\r\nnot a field\r\nmore\r\n--b--")
        #expect(body.parts[0].headers.count == 1)
        #expect(Support.text(body.parts[0]) == "not a field\r\nmore")
    }

    @Test func transferEncodingsAreDecoded() throws {
        let body = try Support.parse(
            "--b\r\nContent-Transfer-Encoding: base64\r\nContent-Type: application/json\r\n\r\neyJhIjog\r\nWzEsIDJdfQ==\r\n"
                + "--b\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\ncaf=C3=A9 =3D soft=\r\nbreak\r\nend=\nx\r\n"
                + "--b\r\nContent-Transfer-Encoding: 8bit\r\n\r\nraw\r\n--b--")
        #expect(body.parts[0].value(as: JSONValue.self) == ["a": [1, 2]])
        // quopri.decodestring(b"caf=C3=A9 =3D soft=\r\nbreak\r\nend=\nx") == b"caf\xc3\xa9 = softbreak\r\nendx"
        #expect(body.parts[1].body == Data("café = softbreak\r\nendx".utf8))
        #expect(Support.text(body.parts[2]) == "raw")
    }

    /// RFC 2045 §6.7 rule 3: whitespace at the end of an encoded line is deleted (Python's `a2b_qp` keeps it).
    @Test func quotedPrintableDropsTrailingWhitespace() throws {
        let body = try Support.parse(
            "--b\r\nContent-Transfer-Encoding: quoted-printable\r\n\r\nend \t\r\nnext=20\r\n--b--")
        #expect(body.parts[0].body == Data("end\r\nnext ".utf8))
    }

    @Test func badTransferEncodingsArePartErrors() throws {
        let body = try Support.parse(
            "--b\r\nContent-Transfer-Encoding: base64\r\n\r\nnot*base64\r\n"
                + "--b\r\nContent-Transfer-Encoding: x-uuencode\r\n\r\nbegin\r\n--b\r\n\r\nfine\r\n--b--")
        #expect(body.parts[0].error?.code == .invalidBody)
        #expect(body.parts[0].error?.message.hasPrefix("Part 1 (index 0): ") == true)
        #expect(body.parts[1].error?.code == .unsupportedFeature)
        #expect(Support.text(body.parts[2]) == "fine")
    }

    /// Python: `get_param("name", header="content-disposition")` and `get_filename()`, except where both `filename`
    /// and `filename*` are present: RFC 6266 §4.3 and RFC 8187 make `filename*` win there, while Python's
    /// `get_filename()` returns `filename` (the first two cases).
    @Test(arguments: [
        (
            "form-data; name=\"doc\"; filename=\"fallback.txt\"; filename*=UTF-8''%E2%82%AC%20rates.txt", "doc",
            "€ rates.txt"
        ),
        ("form-data; name=\"doc\"; filename*=utf-8''a%20b.txt; filename=\"fallback.txt\"", "doc", "a b.txt"),
        ("form-data; name=\"f\"; filename=\"x\\\"y.txt\"", "f", "x\"y.txt"),
        ("form-data; name=\"résumé\"; filename=\"€.txt\"", "résumé", "€.txt"),
        ("form-data; name=plain; filename=plain.txt", "plain", "plain.txt"),
        ("form-data; name=\"n\"; filename*=iso-8859-1''caf%E9.txt", "n", "café.txt"),
        ("form-data; name=\"n\"; filename*=x-unknown''zz; filename=\"ok.txt\"", "n", "ok.txt"),
        ("form-data; name=\"n\"", "n", nil),
    ])
    func contentDisposition(value: String, name: String, filename: String?) throws {
        let body = try Support.parse(
            "--b\r\nContent-Disposition: \(value)\r\n\r\nx\r\n--b--", contentType: "multipart/form-data; boundary=b")
        #expect(body.parts[0].name == name)
        #expect(body.parts[0].filename == filename)
        #expect(body.firstPart(named: name)?.index == 0)
    }

    @Test func charsetFieldAppliesToTextPartsWithoutACharset() throws {
        let bytes =
            Data("--b\r\nContent-Disposition: form-data; name=\"city\"\r\n\r\nZ".utf8) + Data([0xFC])
            + Data("rich\r\n--b\r\nContent-Disposition: form-data; name=\"_charset_\"\r\n\r\nwindows-1252\r\n".utf8)
            + Data("--b\r\nContent-Disposition: form-data; name=\"u\"\r\nContent-Type: text/plain; charset=utf-8".utf8)
            + Data("\r\n\r\n\u{20AC}\r\n--b--".utf8)
        let form = try Support.serializer().serialize(
            Support.response(bytes, contentType: "multipart/form-data; boundary=b"))
        #expect(Support.text(form.parts[0]) == "Zürich")
        #expect(form.parts[0].contentType.charset == "windows-1252")
        #expect(Support.text(form.parts[2]) == "€")
        // The same bytes as multipart/mixed: no _charset_ rule, UTF-8 with a replacement character.
        let mixed = try Support.serializer().serialize(
            Support.response(bytes, contentType: "multipart/mixed; boundary=b"))
        #expect(Support.text(mixed.parts[0]) == "Z\u{FFFD}rich")
    }

    @Test func repeatedFormFields() throws {
        let body = try Support.parse(
            "--b\r\nContent-Disposition: form-data; name=\"tag\"\r\n\r\na\r\n"
                + "--b\r\nContent-Disposition: form-data; name=\"tag\"\r\n\r\nb\r\n--b--",
            contentType: "multipart/form-data; boundary=b")
        #expect(body.parts(named: "tag").map(\.text) == ["a", "b"])
        #expect(body.firstPart(named: "none") == nil)
    }

    @Test func byteRangesHaveContentRanges() throws {
        let body = try Support.parse(
            "--b\r\nContent-Type: text/plain\r\nContent-Range: bytes 0-4/10\r\n\r\nhello\r\n"
                + "--b\r\nContent-Type: text/plain\r\nContent-Range: bytes 5-9/*\r\n\r\nworld\r\n"
                + "--b\r\nContent-Type: text/plain\r\nContent-Range: bytes 9-5/10\r\n\r\nbad\r\n"
                + "--b\r\nContent-Type: text/plain\r\n\r\nnone\r\n--b--",
            contentType: "multipart/byteranges; boundary=b")
        #expect(body.parts[0].contentRange == MultipartContentRange(first: 0, last: 4, completeLength: 10))
        #expect(body.parts[1].contentRange == MultipartContentRange(first: 5, last: 9, completeLength: nil))
        #expect(Support.text(body.parts[1]) == "world")
        #expect(body.parts[2].error?.code == .invalidBody)
        #expect(body.parts[2].error?.message.contains("'bytes 9-5/10'") == true)
        #expect(body.parts[3].error?.message.hasPrefix("Part 4 (index 3): ") == true)
        #expect(body.partErrors.count == 2)
    }

    @Test(arguments: [
        ("bytes 0-499/1234", MultipartContentRange(first: 0, last: 499, completeLength: 1234)),
        ("bytes 500-999/*", MultipartContentRange(first: 500, last: 999)),
        ("Bytes  7-7/8 ", MultipartContentRange(first: 7, last: 7, completeLength: 8)),
        ("bytes 0-10/10", nil), ("bytes */1234", nil), ("bytes 5-4/10", nil), ("bytes 0-1", nil),
        ("bytes -1-2/3", nil), ("bytes 0-99999999999999999999/*", nil), ("0-1/2", nil),
    ])
    func contentRangeParsing(text: String, expected: MultipartContentRange?) {
        #expect(MultipartContentRange(parsing: text) == expected)
    }

    /// `levels` nested multipart/mixed bodies around one text part.
    static func nested(_ levels: Int) -> String {
        var body = "--b0\r\n\r\ndeepest\r\n--b0--"
        for level in 1..<levels {
            body =
                "--b\(level)\r\nContent-Type: multipart/mixed; boundary=b\(level - 1)\r\n\r\n\(body)\r\n--b\(level)--"
        }
        return body
    }

    @Test func nestingUpToMaxDepth() throws {
        var body = try Support.parse(Self.nested(4), contentType: "multipart/mixed; boundary=b3")
        for _ in 1..<4 {
            #expect(body.parts[0].serializerID == "multipart")
            body = try #require(body.parts[0].value(as: MultipartBody.self))
        }
        #expect(body.parts.map(Support.text) == ["deepest"])
        let error = #expect(throws: SerializationError.self) {
            try Support.parse(Self.nested(5), contentType: "multipart/mixed; boundary=b4")
        }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("maxDepth") == true)
        let flat = #expect(throws: SerializationError.self) {
            try Support.parse(
                Self.nested(2), contentType: "multipart/mixed; boundary=b1",
                options: MultipartParsingOptions(maxDepth: 1))
        }
        #expect(flat?.code == .limitExceeded)
    }

    /// A nested multipart part that does not frame is that part's error, not the body's.
    @Test func brokenNestedBodyIsAPartError() throws {
        let body = try Support.parse(
            "--b\r\nContent-Type: multipart/mixed; boundary=inner\r\n\r\n--inner\r\n\r\nno close\r\n--b\r\n\r\nok\r\n--b--"
        )
        #expect(body.parts[0].error?.code == .invalidBody)
        #expect(body.parts[0].error?.message.hasPrefix("Part 1 (index 0): The multipart body ends") == true)
        #expect(body.parts[0].error?.offset == "--inner\r\n\r\nno close".utf8.count)
        #expect(Support.text(body.parts[1]) == "ok")
    }

    @Test func partErrorsCarryTheIndexAndName() throws {
        let text =
            "--b\r\nContent-Disposition: form-data; name=\"meta\"\r\nContent-Type: application/json\r\n\r\n{\"a\":1}\r\n"
            + "--b\r\nContent-Disposition: form-data; name=\"photo\"\r\nContent-Type: application/json\r\n\r\n{oops\r\n"
            + "--b--"
        let body = try Support.parse(text, contentType: "multipart/form-data; boundary=b")
        #expect(body.parts[0].value(as: JSONValue.self) == ["a": 1])
        let error = try #require(body.parts[1].error)
        #expect(error.code == .invalidBody)
        #expect(error.serializerID == "json")
        #expect(error.message.hasPrefix("Part 2 (index 1, name \"photo\"): "))
        #expect(body.parts[1].value == nil && body.parts[1].serializerID == nil)

        let strict = #expect(throws: SerializationError.self) {
            try Support.parse(
                text, contentType: "multipart/form-data; boundary=b",
                options: MultipartParsingOptions(failsOnPartError: true))
        }
        #expect(strict?.code == .invalidBody)
        #expect(strict?.message.hasPrefix("Part 2 (index 1, name \"photo\"): ") == true)
        #expect(strict?.offset == body.parts[1].bodyOffset)
    }

    /// A part no serializer accepts keeps its bytes, with no value, serializer or error.
    @Test func unknownPartTypeIsNotAnError() throws {
        let serializer = MultipartResponseSerializer(decodingPartsWith: SerializerRegistry.standard)
        let body = try serializer.serialize(
            Support.response(
                Data("--b\r\nContent-Type: application/x-unknown\r\n\r\n\u{1}\u{2}\r\n--b--".utf8),
                contentType: "multipart/mixed; boundary=b"))
        #expect(body.parts[0].value == nil && body.parts[0].serializerID == nil && body.parts[0].error == nil)
        #expect(body.parts[0].body == Data([1, 2]))
    }

    @Test func limitsNameTheirOption() {
        let many = String(repeating: "--b\r\n\r\nx\r\n", count: 6) + "--b--"
        let parts = #expect(throws: SerializationError.self) {
            try Support.parse(many, options: MultipartParsingOptions(maxParts: 5))
        }
        #expect(parts?.code == .limitExceeded)
        #expect(parts?.message.contains("'maxParts'") == true)
        let header = #expect(throws: SerializationError.self) {
            try Support.parse(
                "--b\r\nX-Big: \(String(repeating: "a", count: 200))\r\n\r\nx\r\n--b--",
                options: MultipartParsingOptions(maxPartHeaderBytes: 100))
        }
        #expect(header?.code == .limitExceeded)
        #expect(header?.message.contains("'maxPartHeaderBytes'") == true)
    }

    /// Through the registry: the error carries the serializer, the media type and the response.
    @Test func registryReportsFramingErrors() throws {
        let response = Support.response(Data("--b\r\n\r\nx".utf8), contentType: "multipart/mixed; boundary=b")
        let error = #expect(throws: SerializationError.self) { try Support.registry.serialize(response) }
        #expect(error?.code == .invalidBody)
        #expect(error?.serializerID == "multipart")
        #expect(error?.mediaType?.essence == "multipart/mixed")
        let value = try Support.registry.serialize(
            Support.response(Data("--b\r\n\r\nx\r\n--b--".utf8), contentType: "multipart/mixed; boundary=b"),
            as: MultipartBody.self)
        #expect(value.parts.count == 1)
    }
}
