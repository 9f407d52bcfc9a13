import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

/// A format that writes values of the types `writes` accepts as `"<id>:<value>"`, labelled with the media type it
/// is asked for, and reads bodies back as `TaggingSerializer` does.
private struct StubWriterFactory: SerializerFactory {
    var id: SerializerID
    var ranges: [MediaRange]
    var writes: @Sendable (any Sendable) -> Bool
    var owns: @Sendable (any Sendable) -> Bool = { _ in false }
    var failsToBuild = false

    var format: MediaFormat { MediaFormat(id: id, mediaRanges: ranges, summary: "Writes tagged values (tests).") }

    func makeSerializer(options: Void) -> TaggingSerializer { TaggingSerializer(id: id, ranges: ranges) }

    func makeEncoder(options: Void) throws -> (any BodyEncoder)? {
        if failsToBuild {
            throw SerializationError(code: .invalidOption, message: "The stub encoder refuses to build.")
        }
        return StubEncoder(id: id, mediaRanges: ranges, writes: writes, owns: owns)
    }
}

private struct StubEncoder: BodyEncoder {
    var id: SerializerID
    var mediaRanges: [MediaRange]
    var writes: @Sendable (any Sendable) -> Bool
    var owns: @Sendable (any Sendable) -> Bool

    func canEncode(_ value: any Sendable) -> Bool { writes(value) }

    func writesAsOwnType(_ value: any Sendable) -> Bool { owns(value) }

    func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        guard canEncode(value) else { throw unsupportedValue(value, as: mediaType) }
        if let number = value as? Double, !number.isFinite {
            throw SerializationError(code: .encodingFailed, message: "Not finite.", codingPath: ["x"])
        }
        return EncodedBody(body: Data("\(id):\(value)".utf8), contentType: mediaType, serializerID: "ignored")
    }
}

/// json writes numbers and strings as application/json or any +json type; text writes strings as text/plain or any
/// text type; xml writes numbers and strings as application/xml, text/xml or any +xml type; data writes Data.
private let registry = SerializerRegistry(modules: [
    SerializerModule(
        name: "Stubs",
        factories: [
            StubWriterFactory(id: "json", ranges: ["application/json", "*/*+json"]) { $0 is Int || $0 is String },
            StubWriterFactory(id: "text", ranges: ["text/plain", "text/*"]) { $0 is String },
            StubWriterFactory(id: "xml", ranges: ["application/xml", "text/xml", "*/*+xml"]) {
                $0 is Int || $0 is String
            },
        ]),
    .data,
])

@Suite struct NegotiationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var value: any Sendable
        var accept: String?
        /// `id mediaType`, or `nil` when nothing is acceptable.
        var expected: String?
        var testDescription: String { "\(value) / \(accept ?? "no Accept") → \(expected ?? "406")" }
    }

    static let cases: [Case] = [
        // No header: the first format that writes the value, in its default type.
        Case(value: 1, accept: nil, expected: "json application/json"),
        Case(value: Data([1]), accept: nil, expected: "data application/octet-stream"),
        // The issue's example: a JSON-able value is no text/html body, a string is.
        Case(value: 1, accept: "text/html, application/json;q=0.1", expected: "json application/json"),
        Case(value: "s", accept: "text/html, application/json;q=0.1", expected: "text text/html"),
        // Wildcards leave the order to the registry.
        Case(value: "s", accept: "*/*", expected: "json application/json"),
        // q=0 excludes, even under a wildcard that allows everything else.
        Case(value: "s", accept: "application/json;q=0, */*", expected: "text text/plain"),
        Case(value: 1, accept: "application/json;q=0, */*", expected: "xml application/xml"),
        // A type named outright is written as named when a range of the format covers it.
        Case(value: 1, accept: "application/vnd.api+json", expected: "json application/vnd.api+json"),
        Case(value: Data([1]), accept: "image/png", expected: "data image/png"),
        // Quality first, then specificity, then installation order.
        Case(value: 1, accept: "text/*;q=0.5, application/xml", expected: "xml application/xml"),
        Case(value: 1, accept: "text/*", expected: "xml text/xml"),
        Case(value: 1, accept: "application/json;q=0.5, application/xml;q=0.5", expected: "json application/json"),
        Case(value: 1, accept: "application/*;q=0.8, application/xml", expected: "xml application/xml"),
        Case(value: 1, accept: "*/*;q=0.1, application/xml;q=0.2", expected: "xml application/xml"),
        // Parameters of a named type are passed on as requests.
        Case(value: "s", accept: "text/plain;charset=utf-16", expected: "text text/plain;charset=utf-16"),
        // A header with no usable element accepts anything (servers ignore garbage).
        Case(value: 1, accept: "garbage", expected: "json application/json"),
        // Nothing acceptable.
        Case(value: 1, accept: "image/png", expected: nil),
        Case(value: 1, accept: "application/json;q=0, application/xml;q=0, text/*;q=0", expected: nil),
        Case(value: 1.5, accept: nil, expected: nil),
    ]

    @Test(arguments: cases)
    func choosesAsRFC9110Says(_ test: Case) throws {
        let accept = test.accept.map(AcceptHeader.init(parsing:))
        let negotiation = registry.negotiate(test.value, accepting: accept)
        #expect(negotiation.chosen.map { "\($0.id) \($0.mediaType)" } == test.expected, "\(negotiation)")
        do {
            let body = try registry.encode(test.value, accepting: accept)
            #expect("\(body.serializerID) \(body.contentType)" == test.expected)
            if let data = test.value as? Data {
                #expect(body.body == data)
            } else {
                #expect(String(decoding: body.body, as: UTF8.self) == "\(body.serializerID):\(test.value)")
            }
        } catch {
            #expect(test.expected == nil, "\(error)")
            #expect(error.code == .notAcceptable)
        }
    }

    @Test func theTraceShowsCandidatesSkippedFormatsAndTheChoice() {
        let negotiation = registry.negotiate(1, accepting: AcceptHeader(parsing: "text/*;q=0.5, application/xml"))
        #expect(negotiation.candidates.map(\.id) == ["xml", "xml"])
        #expect(negotiation.candidates.map(\.quality) == [1, 0.5])
        #expect(negotiation.skipped.map(\.id) == ["json", "text", "data"])
        let trace = negotiation.description
        #expect(trace.contains("xml → application/xml (q=1, by application/xml)"))
        #expect(trace.contains("xml → text/xml (q=0.5, by text/*)"))
        #expect(trace.contains("skipped text: does not write Int"))
        #expect(trace.contains("chosen: xml → application/xml"))
    }

    @Test func onTiesAFormatsOwnValueTypeWinsOverEncodable() throws {
        var json = StubWriterFactory(id: "json", ranges: ["application/json"]) { $0 is Int || $0 is String }
        json.owns = { $0 is Int }
        var text = StubWriterFactory(id: "text", ranges: ["text/plain"]) { $0 is String }
        text.owns = { $0 is String }
        let owning = SerializerRegistry(modules: [SerializerModule(name: "Stubs", factories: [json, text])])
        let any = AcceptHeader(parsing: "*/*")
        #expect(owning.negotiate("s", accepting: any).chosen?.id == "text")
        #expect(owning.negotiate("s", accepting: nil).chosen?.id == "text")
        #expect(owning.negotiate(1, accepting: any).chosen?.id == "json")
        // Quality and specificity still come first.
        #expect(
            owning.negotiate("s", accepting: AcceptHeader(parsing: "application/json, */*;q=0.5")).chosen?.id == "json")
        #expect(owning.negotiate("s", accepting: AcceptHeader(parsing: "application/json, */*")).chosen?.id == "json")
    }

    @Test func notAcceptableListsWhatTheValueCanBeWrittenIn() {
        #expect {
            try registry.encode(7, accepting: AcceptHeader(parsing: "image/png, text/html;q=0"))
        } throws: { error in
            let error = error as! SerializationError
            return error.code == .notAcceptable && error.message.contains("image/png, text/html;q=0")
                && error.message.contains("application/json, application/xml, text/xml")
                && error.message.contains("406")
        }
    }
}

@Suite struct EncodingByMediaTypeTests {
    @Test func theMostSpecificWriterThatTakesTheValueWrites() throws {
        let problem = StubWriterFactory(id: "problem", ranges: ["application/problem+json"]) { $0 is String }
        let withProblem = registry.installing(SerializerModule(name: "Problem", factories: [problem]))
        #expect(try withProblem.encode("p", as: "application/problem+json").serializerID == "problem")
        // problem does not write Int: the wider json range takes it.
        let body = try withProblem.encode(3, as: "application/problem+json")
        #expect(body.serializerID == "json")
        #expect(body.contentType == "application/problem+json")
    }

    @Test func bodiesCarryTheFormatsIdAndReadBack() throws {
        let body = try registry.encode("hello", as: "text/plain")
        #expect(body.serializerID == "text")  // the format's id, whatever the encoder said
        let response = body.response()
        #expect(response.headers["Content-Length"] == "10")
        #expect(try registry.serialize(response, as: String.self) == "text:text:hello")
    }

    @Test func aTypeNoFormatWritesNamesWhatCanBeWritten() {
        #expect {
            try registry.encode(1, as: "image/png")
        } throws: { error in
            // data writes image/png, but not an Int.
            let error = error as! SerializationError
            return error.code == .unsupportedValue && error.message.contains("'data'")
                && error.message.contains("application/json, application/xml, text/xml")
        }
        let noData = SerializerRegistry(modules: [
            SerializerModule(
                name: "Stubs", factories: [StubWriterFactory(id: "json", ranges: ["application/json"]) { _ in true }])
        ])
        #expect {
            try noData.encode(1, as: "image/png")
        } throws: { error in
            let error = error as! SerializationError
            return error.code == .noSerializer && error.message.contains("No installed format writes image/png")
        }
    }

    @Test func encoderErrorsCarryTheFormatAndMediaType() {
        #expect {
            try registry.encode(Double.infinity, as: "application/json")
        } throws: { error in
            let error = error as! SerializationError
            // Double is not among json's stub types: unsupported, not a crash or a silent fallback.
            return error.code == .unsupportedValue
        }
        let doubles = SerializerRegistry(modules: [
            SerializerModule(
                name: "Stubs",
                factories: [StubWriterFactory(id: "json", ranges: ["application/json"]) { $0 is Double }])
        ])
        #expect {
            try doubles.encode(Double.nan, as: "application/json")
        } throws: { error in
            let error = error as! SerializationError
            return error.code == .encodingFailed && error.serializerID == "json" && error.codingPath == ["x"]
                && error.mediaType == "application/json"
        }
    }

    @Test func anEncoderThatFailsToBuildIsReportedNeverDropped() {
        var broken = StubWriterFactory(id: "yaml", ranges: ["application/yaml"]) { _ in true }
        broken.failsToBuild = true
        let withBroken = registry.installing(SerializerModule(name: "Broken", factories: [broken]))
        let entry = withBroken.entry(for: "yaml")
        #expect(entry?.capabilities.contains(.encoding) == false)
        #expect(entry?.encoderBuildError?.message.contains("refuses to build") == true)
        #expect(withBroken.entry(for: "json")?.capabilities.contains(.encoding) == true)
        #expect {
            try withBroken.encode("x", as: "application/yaml")
        } throws: { error in
            let error = error as! SerializationError
            return error.code == .invalidOption && error.message.contains("'yaml' would write application/yaml")
        }
        let negotiation = withBroken.negotiate("x", accepting: AcceptHeader(parsing: "application/yaml, */*;q=0.1"))
        #expect(negotiation.skipped.contains { $0.id == "yaml" && $0.reason.contains("failed to build") })
        #expect(negotiation.chosen?.id == "json")
    }
}

@Suite struct EncodingOptionsTests {
    /// Encodes its keys as given, so Foundation's JSONEncoder converts them: the independent reference.
    private struct Keys: Encodable {
        var names: [String]
        struct Key: CodingKey {
            var stringValue: String
            init(stringValue: String) { self.stringValue = stringValue }
            var intValue: Int? { nil }
            init?(intValue: Int) { nil }
        }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Key.self)
            for name in names { try container.encode(0, forKey: Key(stringValue: name)) }
        }
    }

    static let keys = [
        "oneTwoThree", "myURLKey", "URL", "url", "_leading", "trailing_", "__both__", "a1B", "version2Beta",
        "HTTPSConnection", "already_snake", "x", "", "ÉcoleNormale", "camelCaseWithÜmlaut", "ABCdef", "aBC",
        "someID", "_", "snake_Case", "a_B", "ǅungla", "ΣΊΣΥΦΟΣ", "aΣb", "日本Go", "X", "xY", "XyZ", "lowerUPPER",
    ]

    @Test(arguments: keys)
    func snakeCaseIsJSONEncoders(_ key: String) throws {
        let encoder = JSONEncoder()
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let object = try JSONSerialization.jsonObject(with: encoder.encode(Keys(names: [key]))) as! [String: Any]
        let expected = try #require(object.keys.first)
        #expect(EncodingOptions.KeyEncodingStrategy.convertToSnakeCase(key) == expected)
    }

    @Test func laterLevelsWinFieldByField() {
        let registryLevel = EncodingOptions(
            keyEncodingStrategy: .convertToSnakeCase, dateEncodingStrategy: .iso8601, outputFormatting: [.sortedKeys],
            userInfo: [CodingUserInfoKey(rawValue: "a")!: 1, CodingUserInfoKey(rawValue: "b")!: 1])
        let call = EncodingOptions(
            dateEncodingStrategy: .secondsSince1970, userInfo: [CodingUserInfoKey(rawValue: "b")!: 2])
        let merged = registryLevel.overridden(by: call)
        guard case .convertToSnakeCase? = merged.keyEncodingStrategy,
            case .secondsSince1970? = merged.dateEncodingStrategy
        else {
            Issue.record("strategies not merged field by field")
            return
        }
        #expect(merged.outputFormatting == [.sortedKeys])
        #expect(merged.userInfo[CodingUserInfoKey(rawValue: "a")!] as? Int == 1)
        #expect(merged.userInfo[CodingUserInfoKey(rawValue: "b")!] as? Int == 2)
        #expect(EncodingOptions().isEmpty && !call.isEmpty)
    }
}
