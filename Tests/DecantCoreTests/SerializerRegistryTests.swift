import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

@Suite struct SerializerRegistryTests {
    /// Overlapping claims: `*/*`, `application/*+json`, `application/json`, `application/problem+json`.
    static func overlapping() -> SerializerRegistry {
        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "Catchall", factories: [TaggingFactory("catchall", "*/*")]))
        registry.install(
            SerializerModule(name: "Suffix", factories: [TaggingFactory("suffixJSON", "application/*+json")]))
        registry.install(
            SerializerModule(
                name: "Exact", factories: [TaggingFactory("exactJSON", "application/json", "text/json")]))
        registry.install(
            SerializerModule(name: "Problem", factories: [TaggingFactory("acme.problem", "application/problem+json")]))
        registry.install(SerializerModule(name: "Images", factories: [TaggingFactory("images", "image/*")]))
        return registry
    }

    @Test(arguments: [
        ("application/problem+json", ["acme.problem", "suffixJSON", "catchall"]),
        ("application/vnd.api+json; charset=utf-8", ["suffixJSON", "catchall"]),
        ("Application/JSON", ["exactJSON", "catchall"]),
        ("text/json", ["exactJSON", "catchall"]),
        ("image/png", ["images", "catchall"]),
        ("text/html", ["catchall"]),
    ])
    func mostSpecificRangeWins(type: String, expectedOrder: [String]) throws {
        let resolution = Self.overlapping().resolve(try MediaType(parsing: type))
        #expect(resolution.candidates.map(\.id.rawValue) == expectedOrder)
        #expect(resolution.chosen?.id.rawValue == expectedOrder.first)
        #expect(resolution.candidates.count + resolution.skipped.count == 5)
    }

    @Test func traceNamesCandidatesScoresSkippedAndChoice() throws {
        let trace = Self.overlapping().resolve(try MediaType(parsing: "application/problem+json")).description
        #expect(trace.contains("media type: application/problem+json (from Content-Type)"))
        #expect(trace.contains("1. acme.problem [Problem] via application/problem+json, score 400"))
        #expect(trace.contains("2. suffixJSON [Suffix] via application/*+json, score 300"))
        #expect(trace.contains("3. catchall [Catchall] via */*, score 0"))
        #expect(trace.contains("- exactJSON [Exact]: no range matches application/problem+json"))
        #expect(trace.hasSuffix("chosen: acme.problem"))
    }

    @Test func equalRankGoesToEarlierRegistrationAndIsReportedAsConflict() throws {
        var registry = SerializerRegistry()
        let first = registry.install(SerializerModule(name: "One", factories: [TaggingFactory("one", "text/csv")]))
        let second = registry.install(SerializerModule(name: "Two", factories: [TaggingFactory("two", "text/csv")]))
        #expect(first.isEmpty)
        #expect(second.count == 1)
        #expect(registry.conflicts == second)
        #expect(second[0].kind == .sameRange(try MediaRange(parsing: "text/csv")))
        #expect(second[0].description.contains("'one' wins because it was installed first"))
        let resolution = registry.resolve(try MediaType(parsing: "text/csv"))
        #expect(resolution.candidates.map(\.id.rawValue) == ["one", "two"])
        #expect(resolution.description.contains("(same score as 'one', installed later)"))
        let error = #expect(throws: SerializationError.self) { try registry.checkConflicts() }
        #expect(error?.code == .registryConflict)
    }

    @Test func duplicateIDIsNotInstalled() throws {
        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "One", factories: [TaggingFactory("csv", "text/csv")]))
        let conflicts = registry.install(SerializerModule(name: "Two", factories: [TaggingFactory("csv", "text/tsv")]))
        #expect(conflicts.map(\.kind) == [.duplicateID])
        #expect(registry.entries.count == 1)
        #expect(registry.resolve(try MediaType(parsing: "text/tsv")).chosen == nil)
    }

    @Test func serializesWithTheChosenSerializerAndReportsIt() throws {
        let registry = Self.overlapping()
        let result = try registry.serialize(.make(type: "application/problem+json", body: "{}"))
        #expect(result.value as? String == "acme.problem:{}")
        #expect(result.serializerID == "acme.problem")
        #expect(result.mediaType?.essence == "application/problem+json")
        #expect(try registry.serialize(.make(type: "text/json", body: "1"), as: String.self) == "exactJSON:1")
    }

    @Test func fallsBackToTheNextCandidateAndKeepsEveryError() throws {
        var registry = Self.overlapping()
        registry.install(
            SerializerModule(name: "Problem2", factories: [TaggingFactory("other.problem", "application/problem+json")])
        )
        // TaggingSerializer refuses bodies starting with "!": both serializers of the exact type fail, in installation
        // order; the wider ones (`application/*+json`, `*/*`) cannot judge a problem document and are not tried.
        let error = #expect(throws: SerializationError.self) {
            try registry.serialize(.make(type: "application/problem+json", body: "!bad"))
        }
        #expect(error?.code == .allSerializersFailed)
        #expect(error?.attempts.map(\.serializerID?.rawValue) == ["acme.problem", "other.problem"])
        #expect(error?.attempts.allSatisfy { $0.code == .invalidBody && $0.offset == 0 } == true)
        #expect(error?.message.contains("Not tried after that failure: 'suffixJSON', 'catchall'") == true)
        #expect(error?.response?.body == Data("!bad".utf8))
    }

    /// A factory whose serializer reports another id and other ranges cannot make the registry disagree with itself:
    /// the registry sees only the format, so there is nothing to report and the serializer runs under the format.
    @Test func factoryThatDisagreesWithItsSerializerRunsUnderItsFormat() throws {
        struct Disagreeing: SerializerFactory {
            var format: MediaFormat {
                MediaFormat(
                    id: "acme.yaml", mediaRanges: [MediaRange("application/yaml")],
                    summary: "Claims one thing, builds another (tests).")
            }
            func makeSerializer(options: Void) -> TaggingSerializer { TaggingSerializer("yaml", "text/yaml") }
        }
        var registry = SerializerRegistry()
        let conflicts = registry.install(SerializerModule(name: "Acme", factories: [Disagreeing()]))
        #expect(conflicts.isEmpty)
        #expect(registry.entry(for: "acme.yaml")?.capabilities == [.value])
        // application/yaml is the format's, not the serializer's: resolved, tried and reported under the format's id.
        let value = try registry.serialize(.make(type: "application/yaml", body: "a: 1"))
        #expect(value.serializerID == "acme.yaml")
        #expect(registry.resolve(MediaType("text/yaml")).chosen == nil)
        #expect(throws: SerializationError.self) { try registry.serialize(.make(type: "text/yaml", body: "a: 1")) }
    }

    @Test func unknownMediaTypeWithoutCatchAllIsANoSerializerError() throws {
        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "Exact", factories: [TaggingFactory("exactJSON", "application/json")]))
        let error = #expect(throws: SerializationError.self) {
            try registry.serialize(.make(type: "text/html", body: "<p>hi</p>"))
        }
        #expect(error?.code == .noSerializer)
        #expect(error?.message.contains("text/html") == true)
        #expect(error?.message.contains("application/json") == true)
    }

    /// The typed entry point takes a shortcut in the common case; every case must give what the untyped one gives.
    @Test(arguments: [
        ("application/problem+json", 200, "{}"),  // the shortcut
        ("application/problem+json", 200, "!bad"),  // the chosen serializer fails: fallbacks, then all fail
        ("application/problem+json", 404, "{}"),  // an error status
        ("text/html", 200, ""),  // an empty body
        ("text/html", 204, "x"),  // a no-content status
        ("text/html; charset=\"utf-8\"", 200, " "),  // whitespace only
        ("image/png", 200, "!x"),  // the chosen serializer fails, the catch-all too
    ])
    func typedSerializeAgreesWithTheUntypedPath(type: String, status: Int, body: String) throws {
        let registry = Self.overlapping()
        let response = Response.make(status, type: type, body: body)
        let typed = Result { () throws(SerializationError) -> String in
            try registry.serialize(response, as: String.self)
        }
        let untyped = Result { () throws(SerializationError) -> SerializedValue in try registry.serialize(response) }
        switch (typed, untyped) {
        case (.success(let value), .success(let result)):
            #expect(result.value as? String == value)
        case (.failure(let typedError), .failure(let untypedError)):
            #expect(typedError.code == untypedError.code)
            #expect(typedError.serializerID == untypedError.serializerID)
            #expect(
                typedError.attempts.map { $0.serializerID } == untypedError.attempts.map { $0.serializerID })
            #expect(typedError.response?.body == Data(body.utf8))
        default:
            Issue.record("typed \(typed) but untyped \(untyped)")
        }
    }

    /// A factory whose serializer's own output is already `any Sendable` (the typed shortcut cannot apply).
    struct ErasedCountingFactory: SerializerFactory {
        var format: MediaFormat {
            MediaFormat(
                id: "erasedCount", mediaRanges: [MediaRange("text/plain")],
                summary: "Counts body bytes, output erased (tests).")
        }
        func makeSerializer(options: Void) -> AnyResponseSerializer<any Sendable> {
            AnyResponseSerializer(id: id, mediaRanges: mediaRanges) { response in response.body.count }
        }
    }

    @Test func typedSerializeHandlesErasedOutputsAndCustomPolicies() throws {
        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "Erased", factories: [ErasedCountingFactory()]))
        let response = Response.make(type: "text/plain", body: "12345")
        #expect(try registry.serialize(response, as: Int.self) == 5)
        let error = #expect(throws: SerializationError.self) { try registry.serialize(response, as: String.self) }
        #expect(error?.code == .unexpectedOutputType)
        // A policy that counts 200 as a no-content status makes the response empty: this serializer has no empty
        // value, so the call fails where the default policy succeeds.
        var policy = EmptyBodyPolicy.default
        policy.noContentStatuses = [200]
        #expect(policy.emptinessReason(for: response, whitespaceIsEmpty: false) == .noContentStatus(200))
        let emptyError = #expect(throws: SerializationError.self) {
            try registry.serialize(response, as: Int.self, emptyBodyPolicy: policy)
        }
        #expect(emptyError?.code == .emptyBody)
        let statusError = #expect(throws: SerializationError.self) {
            try registry.serialize(response, as: Int.self, statusCodes: [201])
        }
        #expect(statusError?.response?.status == 200)
    }

    @Test func askingForTheWrongOutputTypeSaysWhichTypeWasProduced() throws {
        let error = #expect(throws: SerializationError.self) {
            try Self.overlapping().serialize(.make(type: "text/json", body: "1"), as: Int.self)
        }
        #expect(error?.code == .unexpectedOutputType)
        #expect(error?.message.contains("String") == true)
    }

    @Test func unknownSerializerIDSuggestsTheNearest() throws {
        let error = #expect(throws: SerializationError.self) {
            try Self.overlapping().serializer(id: "exactJSOM")
        }
        #expect(error?.code == .unknownSerializer)
        #expect(error?.message.contains("Did you mean 'exactJSON'?") == true)
    }

    @Test func buildsFromConfigurationOptions() throws {
        let registry = Self.overlapping()
        let serializer = try registry.serializer(id: "exactJSON", configuration: ["prefix": "> ", "maxDepth": 3])
        #expect(try serializer.serialize(.make(type: "application/json", body: "x")) as? String == "> exactJSON:x")
    }

    @Test(arguments: [
        (["prefx": "a"] as ConfigurationOptions, SerializationError.Code.unknownOption, "Did you mean 'prefix'?"),
        (["maxDepth": "deep"], .invalidOption, "must be an integer from 1 to 64, not a string (\"deep\")"),
        (["maxDepth": 100], .invalidOption, "must be an integer from 1 to 64, not 100"),
        (["prefix": true], .invalidOption, "must be a string, not a boolean (true)"),
    ])
    func rejectsUnknownAndIllTypedOptionsPrecisely(
        options: ConfigurationOptions, code: SerializationError.Code, fragment: String
    ) throws {
        let error = #expect(throws: SerializationError.self) {
            try Self.overlapping().serializer(id: "exactJSON", configuration: options)
        }
        #expect(error?.code == code)
        #expect(error?.message.contains(fragment) == true, "\(error?.message ?? "")")
        #expect(error?.codingPath == options.keys.sorted().prefix(1).map { $0 })
        #expect(error?.serializerID == "exactJSON")
    }

    @Test func typedAndConfiguredOptionsBuildTheSameSerializer() throws {
        let factory = TaggingFactory("tag", "text/plain")
        let typed = factory.makeSerializer(options: .init(prefix: "p:", maxDepth: 2))
        let configured = try factory.makeSerializer(configuration: ["prefix": "p:", "maxDepth": 2])
        let response = Response.make(type: "text/plain", body: "hello")
        #expect(try typed.serialize(response) == configured.serialize(response))
    }

    @Test func acceptHeaderListsEveryRangeOnceWithWildcardsLast() {
        let header = Self.overlapping().acceptHeader
        #expect(
            header.description
                == "application/*+json, application/json, text/json, application/problem+json, image/*;q=0.9, "
                + "*/*;q=0.8")
    }

    /// `acceptHeader(for:)` lists only the formats with the capabilities asked for; `[]` is `acceptHeader`.
    @Test func acceptHeaderForCapabilities() {
        let registry = Self.overlapping()
        #expect(registry.acceptHeader(for: []) == registry.acceptHeader)
        #expect(registry.acceptHeader(for: .records).elements.isEmpty)
        #expect(registry.acceptHeader(for: .value) == registry.acceptHeader)
    }

    /// The registry's own body size limit holds on every call (`serialize` typed and untyped, `prepare`), on the
    /// direct path too; a body at the limit passes, and `nil` lifts the limit.
    @Test(arguments: [16, 17, nil] as [Int?])
    func theRegistrysBodySizeLimitHoldsOnEveryCall(maxBytes: Int?) throws {
        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "Tags", factories: [TaggingFactory("tags", "application/json")]))
        #expect(registry.bodySizeLimit == BodySizeLimit.default)
        registry.bodySizeLimit = maxBytes.map { BodySizeLimit(maxBytes: $0) }
        let response = Response(
            status: 200, headers: ["Content-Type": "application/json"], body: Data(repeating: 0x61, count: 17))
        let prepared = try registry.prepare(for: MediaType(type: "application", subtype: "json"), as: String.self)
        let calls: [(String, () throws -> Void)] = [
            ("typed", { _ = try registry.serialize(response, as: String.self) }),
            ("untyped", { _ = try registry.serialize(response) }),
            ("prepared", { _ = try prepared.serialize(response) }),
        ]
        for (name, call) in calls {
            if let maxBytes, maxBytes < 17 {
                let error = #expect(throws: SerializationError.self, "\(name)") { try call() }
                #expect(error?.code == .bodyTooLarge, "\(name)")
                #expect(error?.message.contains("\(maxBytes)") == true, "\(name)")
            } else {
                #expect(throws: Never.self, "\(name)") { try call() }
            }
        }
    }

    @Test func sniffedTypeDrivesResolutionWhenTheHeaderIsGeneric() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "Images", factories: [TaggingFactory("images", "image/*")]))
        let response = Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: png)
        #expect(registry.resolve(response).chosen == nil)
        let sniffed = registry.resolve(response, sniffing: .sniffWhenGeneric)
        #expect(sniffed.chosen?.id == "images")
        #expect(sniffed.mediaType?.essence == "image/png")
        #expect(sniffed.description.contains("Content-Type was generic application/octet-stream"))
        let value = try registry.serialize(response, sniffing: .sniffWhenGeneric)
        #expect(value.serializerID == "images")
    }

    @Test func emptyResponsesUseTheChosenSerializersEmptyValue() throws {
        var registry = SerializerRegistry()
        registry.install(.data)
        let result = try registry.serialize(.make(204))
        #expect(result.value as? Data == Data())
        #expect(result.serializerID == "data")
    }
}
