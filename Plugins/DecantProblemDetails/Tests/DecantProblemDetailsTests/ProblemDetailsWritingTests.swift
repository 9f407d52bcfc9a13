import Decant
import DecantConformance
import DecantProblemDetails
import Foundation
import Testing

/// Writing problem details. Python's `json` and `xml.etree.ElementTree` read the written bodies and compare them with
/// the expected members typed into each case (`readBack` below); Decant reads them back to an equal value.
@Suite struct ProblemDetailsWritingTests {
    static let registry = SerializerRegistry.standard.installing(.problemDetails)

    /// Reads a problem body as JSON (`json`) or as RFC 9457 Appendix B XML (`xml`: the root must be `problem` in
    /// `urn:ietf:rfc:7807`; a childless element is its text, one whose children are all `i` a list, else an object)
    /// and compares it, members in order, with the expected JSON text. Prints `ok` or what differs.
    static let readBack = """
        import json, sys
        import xml.etree.ElementTree as ET
        form, expected_text, path = sys.argv[1], sys.argv[2], sys.argv[3]
        NS = '{urn:ietf:rfc:7807}'
        def element(e):
            children = list(e)
            if not children:
                return e.text or ''
            if all(c.tag == NS + 'i' for c in children):
                return [element(c) for c in children]
            return {c.tag[len(NS):]: element(c) for c in children}
        data = open(path, 'rb').read()
        if form == 'json':
            value = json.loads(data.decode('utf-8'))
        else:
            root = ET.fromstring(data)
            assert root.tag == NS + 'problem', root.tag
            value = element(root)
        expected = json.loads(expected_text)
        def keys(v):
            if isinstance(v, dict):
                return [[k, keys(x)] for k, x in v.items()]
            if isinstance(v, list):
                return [keys(x) for x in v]
            return None
        if value == expected and keys(value) == keys(expected):
            print('ok')
        else:
            print(json.dumps(value, ensure_ascii=False))
        """

    /// What Python reads from `body`, `ok` when it is `expected`.
    static func python(_ body: EncodedBody, form: String, expected: String) throws -> String {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-problem-\(UUID().uuidString)")
        try body.body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let output = try PythonReference.run(["-c", readBack, form, expected, file.path])
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A problem, and what Python should read from its JSON and XML bodies.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var problem: ProblemDetails
        var json: String
        var xml: String
        /// Whether reading the XML body gives the problem back (the XML form has no numbers, booleans or null).
        var xmlReadsBack = true
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "RFC 9457 §3's example",
            problem: ProblemDetails(
                type: URL(string: "https://example.com/probs/out-of-credit")!,
                title: "You do not have enough credit.", status: 403,
                detail: "Your current balance is 30, but that costs 50.",
                instance: URL(string: "/account/12345/msgs/abc")!,
                extensions: [
                    .init(name: "balance", value: 30),
                    .init(name: "accounts", value: ["/account/12345", "/account/67890"]),
                ]),
            json: #"""
                {"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.",
                 "status": 403, "detail": "Your current balance is 30, but that costs 50.",
                 "instance": "/account/12345/msgs/abc", "balance": 30,
                 "accounts": ["/account/12345", "/account/67890"]}
                """#,
            xml: #"""
                {"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.",
                 "status": "403", "detail": "Your current balance is 30, but that costs 50.",
                 "instance": "/account/12345/msgs/abc", "balance": "30",
                 "accounts": ["/account/12345", "/account/67890"]}
                """#,
            xmlReadsBack: false),
        Case(
            name: "about:blank alone",
            problem: ProblemDetails(),
            json: #"{"type": "about:blank"}"#, xml: #"{"type": "about:blank"}"#),
        Case(
            name: "non-ASCII and markup characters",
            problem: ProblemDetails(
                type: URL(string: "https://example.com/probs/%C3%A9t%C3%A9")!,
                title: "Crédit insuffisant — 残高不足 😀", status: 402,
                detail: "a < b & c > d \"quoted\" 'single' ]]> tab\tnew\nline\r\ncr",
                extensions: [
                    .init(name: "naïve", value: "ünïcödé\u{7F}\u{85}\u{2028}"),
                    .init(name: "emoji", value: ["😀", "👍🏽", "\u{10FFFF}"]),
                ]),
            json: #"""
                {"type": "https://example.com/probs/%C3%A9t%C3%A9", "title": "Crédit insuffisant — 残高不足 😀",
                 "status": 402, "detail": "a < b & c > d \"quoted\" 'single' ]]> tab\tnew\nline\r\ncr",
                 "naïve": "ünïcödé\u007f\u0085\u2028", "emoji": ["😀", "👍🏽", "\udbff\udfff"]}
                """#,
            xml: #"""
                {"type": "https://example.com/probs/%C3%A9t%C3%A9", "title": "Crédit insuffisant — 残高不足 😀",
                 "status": "402", "detail": "a < b & c > d \"quoted\" 'single' ]]> tab\tnew\nline\r\ncr",
                 "naïve": "ünïcödé\u007f\u0085\u2028", "emoji": ["😀", "👍🏽", "\udbff\udfff"]}
                """#),
        Case(
            name: "numbers, booleans and null",
            problem: ProblemDetails(
                status: 500,
                extensions: [
                    .init(name: "big", value: JSONValue(JSONNumber("123456789012345678901234567890")!)),
                    .init(name: "tenth", value: 0.1), .init(name: "negative", value: -7),
                    .init(name: "tiny", value: JSONValue(JSONNumber("1.5e-7")!)),
                    .init(name: "yes", value: true), .init(name: "nothing", value: nil),
                ]),
            json: #"""
                {"type": "about:blank", "status": 500, "big": 123456789012345678901234567890, "tenth": 0.1,
                 "negative": -7, "tiny": 1.5e-7, "yes": true, "nothing": null}
                """#,
            xml: #"""
                {"type": "about:blank", "status": "500", "big": "123456789012345678901234567890", "tenth": "0.1",
                 "negative": "-7", "tiny": "1.5e-7", "yes": "true", "nothing": ""}
                """#,
            xmlReadsBack: false),
        Case(
            name: "nested objects and arrays",
            problem: ProblemDetails(
                title: "Validation failed", status: 422,
                extensions: [
                    .init(
                        name: "errors",
                        value: [
                            ["detail": "must be a positive integer", "pointer": "#/age"],
                            ["detail": "must be 'green', 'red' or 'blue'", "pointer": "#/profile/color"],
                        ]),
                    .init(name: "context", value: ["request": ["id": "r-1", "tags": ["a", "b"]], "empty": ""]),
                ]),
            json: #"""
                {"type": "about:blank", "title": "Validation failed", "status": 422,
                 "errors": [{"detail": "must be a positive integer", "pointer": "#/age"},
                            {"detail": "must be 'green', 'red' or 'blue'", "pointer": "#/profile/color"}],
                 "context": {"request": {"id": "r-1", "tags": ["a", "b"]}, "empty": ""}}
                """#,
            xml: #"""
                {"type": "about:blank", "title": "Validation failed", "status": "422",
                 "errors": [{"detail": "must be a positive integer", "pointer": "#/age"},
                            {"detail": "must be 'green', 'red' or 'blue'", "pointer": "#/profile/color"}],
                 "context": {"request": {"id": "r-1", "tags": ["a", "b"]}, "empty": ""}}
                """#),
    ]

    @Test(.enabled(if: PythonReference.isAvailable, "needs python3"), arguments: cases)
    func pythonReadsTheJSONForm(_ testCase: Case) throws {
        let body = try Self.registry.encode(testCase.problem, as: "application/problem+json")
        #expect(body.contentType == "application/problem+json")
        #expect(body.serializerID == "problemDetails")
        #expect(try Self.python(body, form: "json", expected: testCase.json) == "ok")
    }

    @Test(.enabled(if: PythonReference.isAvailable, "needs python3"), arguments: cases)
    func pythonReadsTheXMLForm(_ testCase: Case) throws {
        let body = try Self.registry.encode(testCase.problem, as: "application/problem+xml")
        #expect(body.contentType == "application/problem+xml;charset=utf-8")
        #expect(body.serializerID == "problemDetails")
        #expect(try Self.python(body, form: "xml", expected: testCase.xml) == "ok")
        let utf16 = try Self.registry.encode(testCase.problem, as: "application/problem+xml;charset=utf-16")
        #expect(utf16.body.starts(with: [0xFF, 0xFE]))
        #expect(try Self.python(utf16, form: "xml", expected: testCase.xml) == "ok")
    }

    @Test(arguments: cases)
    func decantReadsBothFormsBack(_ testCase: Case) throws {
        let json = try Self.registry.encode(testCase.problem, as: "application/problem+json")
        #expect(try Self.registry.serialize(json.response(), as: ProblemDetails.self) == testCase.problem)
        let xml = try Self.registry.encode(testCase.problem, as: "application/problem+xml")
        let fromXML = try Self.registry.serialize(xml.response(), as: ProblemDetails.self)
        if testCase.xmlReadsBack {
            #expect(fromXML == testCase.problem)
        } else {
            // The standard members come back; the extension members as Python read them (strings for scalars).
            let expected = try JSONParser().parse(testCase.xml).members.filter {
                !ProblemDetails.standardMemberNames.contains($0.key)
            }
            #expect(fromXML.extensionObject == .object(expected.map { ($0.key, $0.value) }))
            var standard = testCase.problem
            standard.extensions = fromXML.extensions
            #expect(fromXML == standard)
        }
    }

    @Test(arguments: cases)
    func theCanonicalFormBuildsTheSameProblem(_ testCase: Case) throws {
        #expect(try ProblemDetails(conformanceValue: testCase.problem.conformanceValue()) == testCase.problem)
    }

    @Test func theRFCsXMLExampleIsWrittenAsAppendixBShowsIt() throws {
        let problem = ProblemDetails(
            type: URL(string: "https://example.com/probs/out-of-credit")!, title: "You do not have enough credit.",
            detail: "Your current balance is 30, but that costs 50.",
            instance: URL(string: "https://example.net/account/12345/msgs/abc")!,
            extensions: [
                .init(name: "balance", value: "30"),
                .init(
                    name: "accounts", value: ["https://example.net/account/12345", "https://example.net/account/67890"]),
            ])
        let body = try Self.registry.encode(problem, as: "application/problem+xml")
        let expected =
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<problem xmlns=\"urn:ietf:rfc:7807\">"
            + "<type>https://example.com/probs/out-of-credit</type><title>You do not have enough credit.</title>"
            + "<detail>Your current balance is 30, but that costs 50.</detail>"
            + "<instance>https://example.net/account/12345/msgs/abc</instance><balance>30</balance>"
            + "<accounts><i>https://example.net/account/12345</i><i>https://example.net/account/67890</i></accounts>"
            + "</problem>"
        #expect(String(decoding: body.body, as: UTF8.self) == expected)
    }

    @Test func negotiatesTheForm() throws {
        let problem = ProblemDetails(status: 404)
        let xml = try Self.registry.encode(
            problem, accepting: AcceptHeader(parsing: "application/problem+json;q=0.5, application/problem+xml"))
        #expect(xml.contentType.essence == "application/problem+xml")
        let json = try Self.registry.encode(problem, accepting: AcceptHeader(parsing: "application/json, */*;q=0.1"))
        #expect(json.contentType == "application/problem+json")
        #expect(json.serializerID == "problemDetails")
    }

    // MARK: What a form cannot carry

    @Test(
        arguments: [
            (
                ProblemDetails(extensions: [.init(name: "status", value: 1)]), "application/problem+json",
                ["extensions", "status"]
            ),
            (
                ProblemDetails(extensions: [.init(name: "a", value: 1), .init(name: "a", value: 2)]),
                "application/problem+json",
                ["extensions", "a"]
            ),
            (
                ProblemDetails(extensions: [.init(name: "a:b", value: "x")]), "application/problem+xml",
                ["extensions", "a:b"]
            ),
            (
                ProblemDetails(extensions: [.init(name: "2x", value: "x")]), "application/problem+xml",
                ["extensions", "2x"]
            ),
            (ProblemDetails(extensions: [.init(name: "", value: "x")]), "application/problem+xml", ["extensions", ""]),
            (
                ProblemDetails(extensions: [.init(name: "o", value: ["ok": ["bad key": 1]])]),
                "application/problem+xml",
                ["extensions", "o", "ok", "bad key"]
            ),
            (ProblemDetails(status: 0), "application/problem+xml", ["status"]),
            (ProblemDetails(detail: "nul \u{0}"), "application/problem+xml", ["problem", "detail", "#text"]),
        ] as [(ProblemDetails, MediaType, [String])])
    func refusesWhatTheFormCannotCarry(problem: ProblemDetails, mediaType: MediaType, path: [String]) throws {
        let error = try #require(throws: SerializationError.self) { try Self.registry.encode(problem, as: mediaType) }
        #expect(error.code == .encodingFailed)
        #expect(error.codingPath == path)
        #expect(error.serializerID == "problemDetails")
    }

    /// `depth` arrays nested in one extension member.
    static func nested(_ depth: Int) throws -> ProblemDetails {
        let text = String(repeating: "[", count: depth) + "\"leaf\"" + String(repeating: "]", count: depth)
        let value = try JSONParser(options: JSONParsingOptions(maxDepth: depth + 1)).parse(Data(text.utf8))
        return ProblemDetails(extensions: [.init(name: "deep", value: value)])
    }

    @Test func writesNestingUpToWhatReadingAllows() throws {
        let limit = ProblemDetailsOptions.defaultMaxDepth
        // JSON: the problem object and `limit - 1` arrays; XML: the root, the member and `limit - 2` item levels.
        for (mediaType, depth) in [("application/problem+json", limit - 1), ("application/problem+xml", limit - 2)] {
            let problem = try Self.nested(depth)
            let body = try Self.registry.encode(problem, as: MediaType(mediaType)!)
            #expect(try Self.registry.serialize(body.response(), as: ProblemDetails.self) == problem)
            let error = try #require(throws: SerializationError.self) {
                try Self.registry.encode(try Self.nested(depth + 1), as: MediaType(mediaType)!)
            }
            #expect(error.code == .limitExceeded)
        }
    }

    @Test func writesVeryDeepValuesWithoutRecursion() throws {
        let problem = try Self.nested(100_000)
        let encoder = ProblemDetailsBodyEncoder(maxDepth: 200_000)
        let json = try encoder.encode(problem, as: "application/problem+json", options: EncodingOptions())
        #expect(json.body.count == #"{"type":"about:blank","deep":"leaf"}"#.utf8.count + 200_000)
        let xml = try encoder.encode(problem, as: "application/problem+xml", options: EncodingOptions())
        #expect(xml.body.count > 100_000 * 7)
    }

    @Test(arguments: [
        JSONValue.object([]), .object([("type", 5)]), .object([("type", "about:blank"), ("status", "500")]),
        .object([("type", "about:blank"), ("balance", 30)]),
        .object([("type", "about:blank"), ("extensions", .object([("title", "x")]))]), .array([]),
    ])
    func refusesWhatIsNotTheCanonicalForm(_ form: JSONValue) {
        #expect {
            try ProblemDetails(conformanceValue: form)
        } throws: { ($0 as? SerializationError)?.code == .unsupportedValue }
    }
}
