import Decant
import DecantTestSupport
import Foundation
import Testing

/// A snake_case API's user, as the issue's app decodes it.
struct SnakeUser: Decodable, Sendable, Equatable {
    var userId: Int
    var displayName: String
    var createdAt: Date
}

/// What Python's `json` (and `datetime`) read from a snake_case body: the expected values of the tests.
struct PythonUser: Decodable {
    var userId: Int
    var displayName: String
    var createdAt: Double

    /// `body` read by Python: `user_id`, `display_name`, and `created_at` as seconds since 1970 (an ISO 8601
    /// string, or a number of seconds or milliseconds as `dateUnit` says).
    static func read(_ body: String, dateUnit: String = "iso8601") throws -> PythonUser {
        let script = """
            import json, sys, datetime
            d = json.loads(sys.argv[1])
            c = d["created_at"]
            if sys.argv[2] == "iso8601":
                t = datetime.datetime.fromisoformat(c.replace("Z", "+00:00")).timestamp()
            elif sys.argv[2] == "milliseconds":
                t = c / 1000
            else:
                t = float(c)
            print(json.dumps({"userId": d["user_id"], "displayName": d["display_name"], "createdAt": t}))
            """
        return try JSONDecoder().decode(PythonUser.self, from: Python.run(script, [body, dateUnit]))
    }

    func matches(_ user: SnakeUser) -> Bool {
        user.userId == userId && user.displayName == displayName
            && abs(user.createdAt.timeIntervalSince1970 - createdAt) < 1e-6
    }
}

func jsonResponse(_ body: String, status: Int = 200, type: String = "application/json") -> Response {
    Response(status: status, headers: ["Content-Type": type], body: Data(body.utf8))
}

@Suite(.enabled(if: Python.isAvailable, "needs python3 for the expected values"))
struct DecodingOptionsTests {
    static let body = #"{"user_id": 7, "display_name": "Ada Lovelace", "created_at": "2024-05-01T12:00:00Z"}"#
    static let snakeCase = DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase, dateDecodingStrategy: .iso8601)

    @Test func aSnakeCaseAPIDecodesPerCall() throws {
        let expected = try PythonUser.read(Self.body)
        let user = try SerializerRegistry.standard.decode(
            SnakeUser.self, from: jsonResponse(Self.body), options: Self.snakeCase)
        #expect(expected.matches(user))
    }

    @Test func withoutOptionsTheErrorNamesTheOption() throws {
        let error = #expect(throws: SerializationError.self) {
            try SerializerRegistry.standard.decode(SnakeUser.self, from: jsonResponse(Self.body))
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.message.contains("convertFromSnakeCase") == true)
        #expect(error?.message.contains("DecodingOptions") == true)
    }

    @Test func aSnakeCaseAPIDecodesPerRegistry() throws {
        let expected = try PythonUser.read(Self.body)
        // Installed with the format.
        let installed = SerializerRegistry().installing(.json, decodingOptions: Self.snakeCase)
        #expect(expected.matches(try installed.decode(SnakeUser.self, from: jsonResponse(Self.body))))
        #expect(installed.entry(for: "json")?.decodingOptions.keyDecodingStrategy != nil)
        // For every format of the standard registry.
        var standard = SerializerRegistry.standard
        standard.decodingOptions = Self.snakeCase
        #expect(expected.matches(try standard.decode(SnakeUser.self, from: jsonResponse(Self.body))))
    }

    /// A call's options override the defaults field by field: the registry's key strategy stays, the call's date
    /// strategy replaces the format's.
    @Test func aCallOverridesTheDefaultsFieldByField() throws {
        let body = #"{"user_id": 1, "display_name": "x", "created_at": 1714564800250}"#
        let expected = try PythonUser.read(body, dateUnit: "milliseconds")
        var registry = SerializerRegistry()
        registry.decodingOptions = DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase)
        registry.install(.json, decodingOptions: DecodingOptions(dateDecodingStrategy: .iso8601))
        #expect(throws: SerializationError.self) { try registry.decode(SnakeUser.self, from: jsonResponse(body)) }
        let user = try registry.decode(
            SnakeUser.self, from: jsonResponse(body),
            options: DecodingOptions(dateDecodingStrategy: .millisecondsSince1970))
        #expect(expected.matches(user))
    }

    @Test(arguments: [
        ("secondsSince1970", #"{"user_id": 2, "display_name": "y", "created_at": 1714564800.5}"#),
        ("milliseconds", #"{"user_id": 3, "display_name": "z", "created_at": -86400000}"#),
        ("iso8601", #"{"user_id": 4, "display_name": "w", "created_at": "2024-05-01T14:00:00+02:00"}"#),
    ])
    func dateStrategies(unit: String, body: String) throws {
        let expected = try PythonUser.read(body, dateUnit: unit)
        let strategy: DecodingOptions.DateDecodingStrategy =
            switch unit {
            case "secondsSince1970": .secondsSince1970
            case "milliseconds": .millisecondsSince1970
            default: .iso8601
            }
        let user = try SerializerRegistry.standard.decode(
            SnakeUser.self, from: jsonResponse(body),
            options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase, dateDecodingStrategy: strategy))
        #expect(expected.matches(user))
    }

    struct Tagged: Decodable, Sendable {
        static let key = CodingUserInfoKey(rawValue: "tag")!
        var tag: String
        init(from decoder: any Decoder) throws { tag = decoder.userInfo[Self.key] as? String ?? "none" }
    }

    @Test func userInfoReachesInitFromDecoder() throws {
        var registry = SerializerRegistry.standard
        registry.decodingOptions.userInfo[Tagged.key] = "registry"
        #expect(try registry.decode(Tagged.self, from: jsonResponse("{}")).tag == "registry")
        let value = try registry.decode(
            Tagged.self, from: jsonResponse("{}"), options: DecodingOptions(userInfo: [Tagged.key: "call"]))
        #expect(value.tag == "call")
    }

    @Test func configurationValuesAreCheckedWithTheOptionMessages() throws {
        let options = try DecodingOptions(configuration: [
            "keyDecodingStrategy": "convertFromSnakeCase", "dataDecodingStrategy": "deferredToData",
            "nonConformingFloatDecodingStrategy": .object([
                "positiveInfinity": "inf", "negativeInfinity": "-inf", "nan": "nan",
            ]),
        ])
        #expect(options.dataDecodingStrategy != nil && options.dateDecodingStrategy == nil)
        let value = try SerializerRegistry.standard.decode(
            [Double].self, from: jsonResponse(#"["inf", 1.5]"#), options: options)
        #expect(value.first == .infinity && value.last == 1.5)
        let typo = #expect(throws: SerializationError.self) {
            try DecodingOptions(configuration: ["keyDecodingStratgy": "convertFromSnakeCase"])
        }
        #expect(typo?.code == .unknownOption)
        #expect(typo?.message.contains("Did you mean 'keyDecodingStrategy'?") == true)
        let wrong = #expect(throws: SerializationError.self) {
            try DecodingOptions(configuration: ["dateDecodingStrategy": "unix"])
        }
        #expect(wrong?.code == .invalidOption)
        #expect(wrong?.message.contains("\"secondsSince1970\"") == true)
    }
}

/// `decant(String.self)` on `text/plain`, and error bodies on the `Decodable` path (issue #37, item 4).
@Suite struct DecodableFallbackTests {
    @Test(.enabled(if: Python.isAvailable)) func aStringDecodesFromPlainText() throws {
        let bytes = Data([0x82, 0xB1, 0x82, 0xF1, 0x82, 0xC9, 0x82, 0xBF, 0x82, 0xCD])  // Shift_JIS
        let response = Response(
            status: 200, headers: ["Content-Type": "text/plain; charset=Shift_JIS"], body: bytes)
        let expected = String(
            decoding: try Python.run(
                "import sys; sys.stdout.buffer.write(bytes.fromhex(sys.argv[1]).decode('shift_jis').encode())",
                [bytes.map { String(format: "%02x", $0) }.joined()]),
            as: UTF8.self)
        #expect(try SerializerRegistry.standard.decode(String.self, from: response) == expected)
    }

    @Test func theFallbacksOwnErrorIsKept() throws {
        // The string serializer's status error, with the body it decoded: not a `noSerializer` hiding it.
        let response = jsonResponse("upstream timed out", status: 503, type: "text/plain")
        let error = #expect(throws: SerializationError.self) {
            try SerializerRegistry.standard.decode(String.self, from: response)
        }
        #expect(error?.code == .unacceptableStatusCode)
        #expect((error?.errorValue as? DecodedText)?.text == "upstream timed out")
    }

    @Test func noDecoderNamesTheInstalledFormats() throws {
        let registry = SerializerRegistry().installing(.json)
        let response = jsonResponse("<a/>", type: "application/xml")
        let error = #expect(throws: SerializationError.self) {
            try registry.decode(SnakeUser.self, from: response)
        }
        #expect(error?.code == .noSerializer)
        #expect(error?.message.contains("'json' (application/json") == true)
        #expect(error?.message.contains("Install a format") == true)
        let empty = #expect(throws: SerializationError.self) {
            try SerializerRegistry().decode(SnakeUser.self, from: response)
        }
        #expect(empty?.message.contains("install one, such as .json") == true)
    }

    @Test func anErrorBodyIsDecodedOnTheDecodablePath() throws {
        let problem = #"{"type": "about:blank", "title": "Not Found", "status": 404}"#
        let response = jsonResponse(problem, status: 404, type: "application/problem+json")
        let error = #expect(throws: SerializationError.self) {
            try SerializerRegistry.standard.decode(SnakeUser.self, from: response)
        }
        #expect(error?.code == .unacceptableStatusCode)
        let value = error?.errorValue as? JSONValue
        #expect(value?["title"]?.stringValue == "Not Found")
        #expect(value?["status"]?.intValue == 404)
        // The same value as the untyped path gives.
        let untyped = #expect(throws: SerializationError.self) { try SerializerRegistry.standard.serialize(response) }
        #expect(untyped?.errorValue as? JSONValue == value)
    }
}

/// HTML served under a JSON media type, through every JSON path (issue #37, item 8).
@Suite struct HTMLAsJSONTests {
    static let pages = [
        "<!DOCTYPE html><html><body>Sign in</body></html>",
        "\u{FEFF}  \n<html lang=\"en\"><head>",
        "\r\n<!doctype HTML>\n<title>502 Bad Gateway</title>",
    ]

    @Test(arguments: pages) func everyJSONPathSaysTheBodyLooksLikeHTML(page: String) throws {
        let response = jsonResponse(page)
        let errors: [SerializationError?] = [
            #expect(throws: SerializationError.self) { try SerializerRegistry.standard.serialize(response) },
            #expect(throws: SerializationError.self) {
                try SerializerRegistry.standard.decode(SnakeUser.self, from: response)
            },
            #expect(throws: SerializationError.self) { try JSONParser().parse(Data(page.utf8)) },
            #expect(throws: SerializationError.self) {
                try JSONValueDecoder().decode(SnakeUser.self, from: Data(page.utf8))
            },
        ]
        for error in errors {
            #expect(error?.message.contains("looks like an HTML page, not JSON") == true)
            #expect(error?.code == .invalidBody)
        }
    }

    @Test(arguments: ["<htm", "<xml/>", "[<html>]", "<!doctype xml>"]) func otherBodiesDoNot(body: String) {
        let error = #expect(throws: SerializationError.self) { try JSONParser().parse(Data(body.utf8)) }
        #expect(error?.message.contains("HTML") == false)
    }
}

/// Chain files: the `decoding` object, the typed `decode` and `serialize(as:)` of a configured chain.
@Suite(.enabled(if: Python.isAvailable, "needs python3 for the expected values"))
struct ConfiguredChainDecodingTests {
    static func load(_ json: String, registry: SerializerRegistry = .standard) throws -> LoadedConfiguration {
        try registry.loadConfiguration(data: Data(json.utf8), file: "chains.json")
    }

    static let document = """
        {"version": 1, "chains": [
          {"name": "api", "serializers": ["json", "string"],
           "decoding": {"keyDecodingStrategy": "convertFromSnakeCase", "dateDecodingStrategy": "secondsSince1970"}},
          {"name": "text", "serializers": ["string"]}
        ]}
        """

    @Test func aSnakeCaseAPIDecodesFromAChainFile() throws {
        let body = #"{"user_id": 9, "display_name": "Grace", "created_at": 1714564800}"#
        let expected = try PythonUser.read(body, dateUnit: "seconds")
        let chain = try Self.load(Self.document).chain(named: "api")
        #expect(expected.matches(try chain.decode(SnakeUser.self, from: jsonResponse(body))))
        #expect(chain.decodingOptions.keyDecodingStrategy != nil)
        // A call's options override the file's.
        let iso = #"{"user_id": 9, "display_name": "Grace", "created_at": "2024-05-01T12:00:00Z"}"#
        let user = try chain.decode(
            SnakeUser.self, from: jsonResponse(iso), options: DecodingOptions(dateDecodingStrategy: .iso8601))
        #expect(try PythonUser.read(iso).matches(user))
        // The written document keeps the key.
        let written = try ChainConfiguration(data: Self.load(Self.document).configuration.jsonData())
        #expect(written.chains[0].decoding["keyDecodingStrategy"] == "convertFromSnakeCase")
    }

    @Test func theChainsStagesRunBeforeDecoding() throws {
        let chain = try Self.load(Self.document).chain(named: "api")
        #expect(try chain.decode(SnakeUser?.self, from: jsonResponse("", status: 204)) == nil)
        let problem = #"{"title": "Gone", "status": 410}"#
        let error = #expect(throws: SerializationError.self) {
            try chain.decode(SnakeUser.self, from: jsonResponse(problem, status: 410, type: "application/problem+json"))
        }
        #expect(error?.code == .unacceptableStatusCode)
        #expect((error?.errorValue as? JSONValue)?["title"]?.stringValue == "Gone")
    }

    @Test func aChainWithoutDecodersSaysSo() throws {
        let loaded = try Self.load(
            #"{"version": 1, "chains": [{"name": "xml", "serializers": ["xmlDocument"]}]}"#)
        let xml = jsonResponse("<a/>", type: "application/xml")
        let error = #expect(throws: SerializationError.self) {
            try loaded.chain(named: "xml").decode(SnakeUser.self, from: xml)
        }
        #expect(error?.code == .noSerializer)
        #expect(error?.message.contains("none of its serializers ('xmlDocument') decodes Decodable types") == true)
        #expect(try loaded.chain(named: "xml").serialize(xml, as: XMLTree.self).root.name.localName == "a")
        let wrongType = #expect(throws: SerializationError.self) {
            try loaded.chain(named: "xml").serialize(xml, as: JSONValue.self)
        }
        #expect(wrongType?.code == .unexpectedOutputType)
        // The string format decodes a String.
        let text = try Self.load(Self.document).chain(named: "text")
        #expect(try text.decode(String.self, from: jsonResponse("plain", type: "text/plain")) == "plain")
    }

    @Test func badDecodingKeysAreReportedWithTheirPaths() throws {
        let document = """
            {"version": 1, "chains": [{"name": "api", "serializers": ["json"],
              "decoding": {"keyDecodingStratgy": "convertFromSnakeCase", "dateDecodingStrategy": "unix"}}]}
            """
        let error = #expect(throws: ConfigurationError.self) { try Self.load(document) }
        let paths = error?.problems.map(\.keyPath) ?? []
        #expect(paths.contains("chains[0].decoding.keyDecodingStratgy"))
        let typo = error?.problems.first { $0.keyPath == "chains[0].decoding.keyDecodingStratgy" }
        #expect(typo?.message.contains("Did you mean 'keyDecodingStrategy'?") == true)
    }
}

/// Messages of chain files and registries (issue #37, item 8).
@Suite struct ConfigurationMessageTests {
    static func problems(_ chain: String) -> [ConfigurationError.Problem] {
        let document = #"{"version": 1, "chains": [{"name": "a", "serializers": ["json"], "# + chain + "}]}"
        do {
            _ = try SerializerRegistry.standard.loadConfiguration(data: Data(document.utf8))
            return []
        } catch {
            return error.problems
        }
    }

    /// Every clause before "Use one of", "Allowed here" or "Use a label" ends a sentence, with or without a
    /// suggestion.
    @Test(arguments: [
        (#""order": "zzzzzzzz""#, #""zzzzzzzz" is not allowed. Use one of: "#),
        (#""order": "asListd""#, #""asListd" is not allowed; did you mean 'asListed'? Use one of: "#),
        (#""qqqqqqqqqq": 1"#, "is not a known key. Allowed here: "),
        (#""ordr": "asListed""#, "is not a known key; did you mean 'order'? Allowed here: "),
        (#""defaultCharset": "qqqqqqqqqqqq""#, #""qqqqqqqqqqqq" is not a WHATWG encoding label. Use a label"#),
        (#""preprocessors": ["qqqqqqqqqqqq"]"#, "names no installed stage: 'qqqqqqqqqqqq'. The registry's stages"),
    ])
    func sentencesAreJoined(chain: String, expected: String) {
        let messages = Self.problems(chain).map(\.message)
        #expect(messages.contains { $0.contains(expected) }, "\(messages)")
        #expect(
            !messages.contains {
                $0.range(of: #"[a-z'"] (Use|Allowed|The registry)"#, options: .regularExpression) != nil
            })
    }

    @Test func anXMLBodyInAJSONOnlyRegistryNamesWhatIsInstalled() {
        let registry = SerializerRegistry().installing(.json)
        let response = jsonResponse("<a/>", type: "application/xml")
        let errors = [
            #expect(throws: SerializationError.self) { try registry.serialize(response) },
            #expect(throws: SerializationError.self) { try registry.serialize(response, as: XMLTree.self) },
            #expect(throws: SerializationError.self) { try registry.decode(SnakeUser.self, from: response) },
        ]
        for error in errors {
            #expect(error?.code == .noSerializer)
            #expect(error?.message.contains("nothing") == false)
            #expect(error?.message.contains("'json' (application/json, text/json, text/javascript, */*+json") == true)
            #expect(error?.message.contains("Install a ") == true)
        }
    }
}

/// Property lists read the key strategy and `userInfo`; their dates and data are types of their own.
@Suite(.enabled(if: Python.isAvailable, "needs python3's plistlib"))
struct PropertyListDecodingOptionsTests {
    struct Account: Decodable, Sendable {
        static let key = CodingUserInfoKey(rawValue: "source")!
        var userId: Int
        var createdAt: Date
        var scores: [String: Int]
        var source: String

        enum CodingKeys: String, CodingKey { case userId, createdAt, scores }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            userId = try container.decode(Int.self, forKey: .userId)
            createdAt = try container.decode(Date.self, forKey: .createdAt)
            scores = try container.decode([String: Int].self, forKey: .scores)
            source = decoder.userInfo[Self.key] as? String ?? "none"
        }
    }

    @Test func snakeCaseKeysAndUserInfo() throws {
        let script = """
            import plistlib, sys, datetime, json
            value = {"user_id": 12, "created_at": datetime.datetime(2024, 5, 1, 12, 0, 0),
                     "scores": {"math_score": 3}}
            body = plistlib.dumps(value)
            sys.stdout.write(json.dumps({"body": body.decode(), "userId": value["user_id"],
                "createdAt": value["created_at"].replace(tzinfo=datetime.timezone.utc).timestamp()}))
            """
        struct Expected: Decodable {
            var body: String
            var userId: Int
            var createdAt: Double
        }
        let expected = try JSONDecoder().decode(Expected.self, from: Python.run(script))
        let response = Response(
            status: 200, headers: ["Content-Type": "application/x-plist"], body: Data(expected.body.utf8))
        let account = try SerializerRegistry.standard.decode(
            Account.self, from: response,
            options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase, userInfo: [Account.key: "call"]))
        #expect(account.userId == expected.userId)
        #expect(account.createdAt.timeIntervalSince1970 == expected.createdAt)
        #expect(account.scores == ["math_score": 3])  // a dictionary's keys are data: not converted
        #expect(account.source == "call")
        #expect(throws: SerializationError.self) {
            try SerializerRegistry.standard.decode(Account.self, from: response)
        }
    }
}
