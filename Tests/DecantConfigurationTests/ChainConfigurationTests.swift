import DecantCore
import DecantTestSupport
import Foundation
import Testing

@testable import DecantConfiguration

@Suite struct ChainConfigurationTests {
    static let registry: SerializerRegistry = {
        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "Ints", factories: [TaggingFactory("ints", "text/x-integer")]))
        registry.install(SerializerModule(name: "Texts", factories: [TaggingFactory("texts", "text/*")]))
        registry.install(SerializerModule(name: "Everything", factories: [TaggingFactory("everything", "*/*")]))
        return registry
    }()

    static func load(_ json: String) throws(ConfigurationError) -> LoadedConfiguration {
        try registry.loadConfiguration(data: Data(json.utf8), file: "test.json")
    }

    static func problems(_ json: String) -> [ConfigurationError.Problem] {
        do {
            _ = try load(json)
            return []
        } catch {
            #expect(error.file == "test.json")
            return error.problems
        }
    }

    static let valid = """
        {"version": 1, "chains": [{"name": "main", "serializers": ["ints", {"id": "texts", "options": {"prefix": "> "}}]}]}
        """

    @Test func aValidDocumentLoadsAndRuns() throws {
        let loaded = try Self.load(Self.valid)
        let chain = try loaded.chain(named: "main")
        let result = try chain.serializeReportingChoice(.make(type: "text/plain", body: "hi"))
        #expect(result.value as? String == "> texts:hi")
        #expect(result.serializerID == "texts")
    }

    struct ProblemCase: Sendable, CustomTestStringConvertible {
        let name: String
        let json: String
        let keyPath: String
        let fragment: String
        var testDescription: String { name }
    }

    static let problemCases: [ProblemCase] = [
        .init(
            name: "not JSON", json: "{", keyPath: "",
            fragment: "is not a valid JSON document: Expected a string key or '}' at line 1, column 2"),
        .init(name: "missing version", json: #"{"chains": []}"#, keyPath: "version", fragment: "is required"),
        .init(
            name: "unknown version", json: #"{"version": 2, "chains": [{"name": "a", "serializers": ["ints"]}]}"#,
            keyPath: "version", fragment: "2 is not a version this code knows"),
        .init(
            name: "unknown top-level key",
            json: #"{"version": 1, "chain": [], "chains": [{"name": "a", "serializers": ["ints"]}]}"#,
            keyPath: "chain", fragment: "did you mean 'chains'?"),
        .init(name: "no chains", json: #"{"version": 1, "chains": []}"#, keyPath: "chains", fragment: "at least one"),
        .init(
            name: "duplicate chain names",
            json:
                #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"]}, {"name": "a", "serializers": ["ints"]}]}"#,
            keyPath: "chains[1].name", fragment: "is already the name of chains[0]"),
        .init(
            name: "unknown serializer", json: #"{"version": 1, "chains": [{"name": "a", "serializers": ["intz"]}]}"#,
            keyPath: "chains[0].serializers[0].id", fragment: "Did you mean 'ints'?"),
        .init(
            name: "invalid serializer id",
            json: #"{"version": 1, "chains": [{"name": "a", "serializers": ["Ints!"]}]}"#,
            keyPath: "chains[0].serializers[0]", fragment: "is not a valid serializer id"),
        .init(
            name: "unknown option",
            json:
                #"{"version": 1, "chains": [{"name": "a", "serializers": [{"id": "ints", "options": {"prefx": 1}}]}]}"#,
            keyPath: "chains[0].serializers[0].options.prefx", fragment: "Did you mean 'prefix'?"),
        .init(
            name: "ill-typed option",
            json:
                #"{"version": 1, "chains": [{"name": "a", "serializers": [{"id": "ints", "options": {"maxDepth": "9"}}]}]}"#,
            keyPath: "chains[0].serializers[0].options.maxDepth", fragment: "must be an integer from 1 to 64"),
        .init(
            name: "invalid media range in alias",
            json:
                #"{"version": 1, "aliases": [{"mediaType": "text/ht ml", "treatAs": "x/y"}], "chains": [{"name": "a", "serializers": ["ints"]}]}"#,
            keyPath: "aliases[0].mediaType", fragment: "is not a valid media type"),
        .init(
            name: "alias without treatAs",
            json:
                #"{"version": 1, "aliases": [{"mediaType": "text/html"}], "chains": [{"name": "a", "serializers": ["ints"]}]}"#,
            keyPath: "aliases[0].treatAs", fragment: "is required"),
        .init(
            name: "shadowed by an earlier catch-all",
            json:
                #"{"version": 1, "chains": [{"name": "a", "serializers": ["everything", "texts"], "order": "asListed"}]}"#,
            keyPath: "chains[0].serializers[1]", fragment: "is shadowed by the earlier catch-all 'everything'"),
        .init(
            name: "unknown order",
            json: #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"], "order": "asListd"}]}"#,
            keyPath: "chains[0].order", fragment: "did you mean 'asListed'?"),
        .init(
            name: "bad status range",
            json:
                #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"], "acceptableStatusCodes": ["299-200"]}]}"#,
            keyPath: "chains[0].acceptableStatusCodes[0]", fragment: "is not a range of status codes"),
        .init(
            name: "unknown charset",
            json: #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"], "defaultCharset": "utf8x"}]}"#,
            keyPath: "chains[0].defaultCharset", fragment: "is not a WHATWG encoding label"),
        .init(
            name: "unknown empty outcome",
            json: #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"], "emptyBody": "nothing"}]}"#,
            keyPath: "chains[0].emptyBody", fragment: "Use one of: emptyValue, emptyValueOnlyForNoContent, error"),
        .init(
            name: "unknown preprocessor",
            json: #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"], "preprocessors": ["xssi"]}]}"#,
            keyPath: "chains[0].preprocessors[0]", fragment: "did you mean 'xssiPrefix'?"),
        .init(
            name: "wrong type",
            json: #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"], "triesNonMatching": "yes"}]}"#,
            keyPath: "chains[0].triesNonMatching", fragment: "must be true or false, not a string"),
        .init(
            name: "negative limit",
            json:
                #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"], "limits": {"maxBodyBytes": -1}}]}"#,
            keyPath: "chains[0].limits.maxBodyBytes", fragment: "must be an integer from 0"),
        .init(
            name: "unknown sniffing policy",
            json: #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"], "sniffing": "always"}]}"#,
            keyPath: "chains[0].sniffing", fragment: "Use one of: trustHeader, sniffWhenMissing, sniffWhenGeneric"),
        .init(
            name: "error body serializer unknown",
            json:
                #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"], "errorBody": {"serializers": ["nope"]}}]}"#,
            keyPath: "chains[0].errorBody.serializers[0].id", fragment: "No serializer with the id 'nope'"),
        .init(
            name: "missing serializers",
            json: #"{"version": 1, "chains": [{"name": "a"}]}"#,
            keyPath: "chains[0].serializers", fragment: "is required"),
    ]

    @Test(arguments: problemCases)
    func reportsEachProblemWithItsKeyPath(testCase: ProblemCase) {
        let problems = Self.problems(testCase.json)
        let match = problems.first { $0.keyPath == testCase.keyPath }
        #expect(match != nil, "no problem at \(testCase.keyPath); got \(problems)")
        #expect(match?.message.contains(testCase.fragment) == true, "\(match?.message ?? "")")
    }

    @Test func reportsEveryProblemAtOnce() {
        let problems = Self.problems(
            #"{"version": 1, "chains": [{"name": "a", "serializers": ["intz", {"id": "texts", "options": {"x": 1}}], "sniffing": "no"}]}"#
        )
        #expect(
            Set(problems.map(\.keyPath))
                == ["chains[0].sniffing", "chains[0].serializers[0].id", "chains[0].serializers[1].options.x"])
    }

    /// Every bad option of one serializer is reported, not only the first that building would stop at.
    @Test func reportsEveryBadOptionOfASerializer() {
        let problems = Self.problems(
            #"{"version": 1, "chains": [{"name": "a", "serializers": [{"id": "texts", "options": {"x": 1, "y": 2}}]}]}"#
        )
        #expect(
            problems.map(\.keyPath) == ["chains[0].serializers[0].options.x", "chains[0].serializers[0].options.y"])
        #expect(problems.allSatisfy { $0.message.contains("has no option") })
    }

    @Test func errorDescriptionNamesTheFileAndEveryProblem() {
        do {
            _ = try Self.load(#"{"version": 1, "chains": [{"name": "a", "serializers": ["intz"]}], "extra": true}"#)
            Issue.record("expected an error")
        } catch {
            #expect(error.description.hasPrefix("test.json has 2 problems and was not loaded:"))
            #expect(error.description.contains("test.json: extra: is not a known key"))
        }
    }

    @Test func unknownChainNameSuggestsTheNearest() throws {
        let loaded = try Self.load(Self.valid)
        let error = #expect(throws: SerializationError.self) { try loaded.chain(named: "mian") }
        #expect(error?.code == .unknownChain)
        #expect(error?.message.contains("Did you mean 'main'?") == true)
    }

    @Test func propertyListDocumentsReadTheSame() throws {
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>version</key><integer>1</integer>
              <key>chains</key><array><dict>
                <key>name</key><string>main</string>
                <key>serializers</key><array><string>ints</string>
                  <dict><key>id</key><string>texts</string>
                    <key>options</key><dict><key>prefix</key><string>&gt; </string></dict></dict></array>
              </dict></array>
            </dict></plist>
            """
        let fromPlist = try ChainConfiguration(data: Data(plist.utf8))
        let fromJSON = try ChainConfiguration(data: Data(Self.valid.utf8))
        #expect(fromPlist == fromJSON)
    }

    @Test func aLoadedConfigurationEncodesBackToAnEquivalentDocument() throws {
        let json = """
            {"version": 1,
             "aliases": [{"mediaType": "text/html", "treatAs": "application/json", "host": "a.example", "pathPrefix": "/v1/"}],
             "chains": [{"name": "main", "serializers": ["ints", {"id": "texts", "options": {"maxDepth": 3}}],
                         "order": "asListed", "triesNonMatching": true, "acceptableStatusCodes": [200, "300-304"],
                         "emptyBody": {"outcome": "error", "treatsWhitespaceAsEmpty": false, "noContentStatuses": [204]},
                         "defaultCharset": "latin1", "sniffing": "sniffWhenMissing", "limits": {"maxBodyBytes": 10},
                         "preprocessors": ["byteOrderMark", "xssiPrefix"], "errorBody": {"serializers": ["texts"]}}]}
            """
        let original = try ChainConfiguration(data: Data(json.utf8))
        let reread = try ChainConfiguration(data: original.jsonData())
        #expect(reread == original)
        #expect(original.chains[0].order == .asListed)
        #expect(original.chains[0].acceptableStatusCodes.contains(302))
        #expect(!original.chains[0].acceptableStatusCodes.contains(201))
    }

    @Test func aliasesAreScopedByHostAndPath() throws {
        let alias = ChainConfiguration.MediaTypeAlias(
            mediaType: try MediaRange(parsing: "text/html"), treatAs: try MediaType(parsing: "application/json"),
            host: "API.example.com", pathPrefix: "/v1/")
        func response(_ url: String) -> Response {
            Response(status: 200, headers: ["Content-Type": "text/html"], url: URL(string: url))
        }
        #expect(alias.applies(to: response("https://api.example.com/v1/users")))
        #expect(!alias.applies(to: response("https://api.example.com/v2/users")))
        #expect(!alias.applies(to: response("https://www.example.com/v1/users")))
        let aliased = try MediaTypeAliasing([alias]).process(
            Response(
                status: 200, headers: ["Content-Type": "text/html; charset=utf-8"],
                url: URL(string: "https://api.example.com/v1/x")))
        #expect(aliased.contentType?.description == "application/json;charset=utf-8")
    }
}

/// `decant config check` shows these messages: they must say where the syntax breaks and never quote a raw Foundation
/// or `DecodingError` description. JSON documents are read with DecantJSON's parser, so the messages are its own; the
/// lines and columns are Python's (`json.loads` reports the same places), except the leading zero, which Python
/// reports at the digit after it.
@Suite struct ConfigurationSyntaxMessageTests {
    @Test(arguments: [
        (#"{"version": 1, "chains": ["#, ["line 1, column 27", "found the end of the body"]),
        ("not json", ["line 1, column 1", "Expected true, false or null"]),
        ("{\"version\": 1,\n  \"chains\" []}", ["Expected ':' after the key at line 2, column 12", "found '['"]),
        ("{\"a\": \"tab\u{09}here\"}", ["unescaped control character", "line 1, column 11"]),
        (#"{"a": 01}"#, ["A number has a leading zero at line 1, column 7"]),
        (#"{"a": 1} x"#, ["after the JSON value at line 1, column 10"]),
        (#"[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]"#, ["line 1, column 46", "found the end of the body"]),
    ])
    func jsonSyntaxErrorsSayWhereAndWhat(_ document: String, _ expected: [String]) {
        let error = #expect(throws: ConfigurationError.self) { try ChainConfiguration(data: Data(document.utf8)) }
        let message = error?.problems.first?.message ?? ""
        #expect(message.hasPrefix("is not a valid JSON document: "), "\(message)")
        for fragment in expected {
            #expect(message.contains(fragment), "\(message)")
        }
        #expect(!message.contains("DecodingError"))
        #expect(!message.contains("Error Domain"))
    }

    /// Numbers are read as `Foundation`'s decoder read them: an integer that fits an `Int` (`3`, `3.0`, `3e0`) is an
    /// integer, another number a double, and one beyond a double's range is named by its key path.
    @Test func numbersReadAsIntegersOrDoubles() throws {
        func document(maxBodyBytes: String) -> String {
            #"{"version": 1, "chains": [{"name": "a", "serializers": ["ints"], "limits": {"maxBodyBytes": "#
                + maxBodyBytes + "}}]}"
        }
        let json = document(maxBodyBytes: "1e3").replacingOccurrences(of: #""version": 1"#, with: #""version": 1.0"#)
        let configuration = try ChainConfiguration(data: Data(json.utf8))
        #expect(configuration.version == 1)
        #expect(configuration.chains[0].maxBodyBytes == 1000)
        let problems = ChainConfigurationTests.problems(document(maxBodyBytes: "1.5"))
        #expect(problems.map(\.keyPath) == ["chains[0].limits.maxBodyBytes"])
        #expect(problems.first?.message.contains("not 1.5") == true)
        let huge = Data(document(maxBodyBytes: "1e400").utf8)
        let error = #expect(throws: ConfigurationError.self) { try ChainConfiguration(data: huge) }
        #expect(error?.problems.map(\.keyPath) == ["chains[0].limits.maxBodyBytes"])
        #expect(error?.problems.first?.message.contains("beyond the range of a Double") == true)
    }

    @Test func unreadableFilesSayWhy() throws {
        let missing = FileManager.default.temporaryDirectory.appendingPathComponent("decant-missing-\(UUID()).json")
        let error = #expect(throws: ConfigurationError.self) { try ChainConfiguration(contentsOf: missing) }
        #expect(error?.problems.first?.message == "cannot be read: there is no such file")
        let directory = #expect(throws: ConfigurationError.self) {
            try ChainConfiguration(contentsOf: FileManager.default.temporaryDirectory)
        }
        #expect(directory?.problems.first?.message == "cannot be read: it is a directory, not a configuration file")
    }

    @Test func propertyListSyntaxErrorsKeepTheParsersReason() {
        let document = #"<?xml version="1.0"?><plist><dict><key>a</key></plist>"#
        let error = #expect(throws: ConfigurationError.self) { try ChainConfiguration(data: Data(document.utf8)) }
        let message = error?.problems.first?.message ?? ""
        #expect(message.hasPrefix("is not a valid property-list document"))
        #expect(!message.contains("DecodingError"))
    }
}
