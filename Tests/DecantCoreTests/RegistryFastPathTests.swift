import Foundation
import Testing

@testable import DecantCore

/// The registry's direct path (lazy resolution, no compound or chain when the chosen serializer succeeds) and the
/// cached `Content-Type` must behave exactly like the compound-in-a-chain path they replace. These tests compare
/// them with reference implementations of the previous code.
@Suite struct RegistryFastPathTests {
    /// A factory whose default options do not build.
    struct BrokenFactory: SerializerFactory {
        var id: SerializerID
        var ranges: [String]
        var format: MediaFormat {
            MediaFormat(id: id, mediaRanges: ranges.map { MediaRange($0)! }, summary: "Broken on purpose (tests).")
        }
        var defaultOptions: Void { () }
        func options(from configuration: ConfigurationOptions) throws {}
        func makeSerializer(options: Void) throws -> TaggingSerializer {
            throw SerializationError(code: .invalidOption, message: "The \(id) factory is broken on purpose.")
        }
    }

    /// A factory whose serializer accepts other ranges than the factory claims.
    struct NarrowingFactory: SerializerFactory {
        var id: SerializerID
        var claimed: [String]
        var accepted: [String]
        var format: MediaFormat {
            MediaFormat(id: id, mediaRanges: claimed.map { MediaRange($0)! }, summary: "Narrows its ranges (tests).")
        }
        var defaultOptions: Void { () }
        func options(from configuration: ConfigurationOptions) throws {}
        func makeSerializer(options: Void) -> TaggingSerializer {
            TaggingSerializer(id: id, ranges: accepted.map { MediaRange($0)! })
        }
    }

    /// The standard registry's ranges, with tagging serializers, plus a broken factory and a parameter constraint.
    static func standardLike() -> SerializerRegistry {
        var registry = SerializerRegistry()
        registry.install(
            SerializerModule(
                name: "DecantJSON",
                factories: [TaggingFactory("json", "application/json", "text/json", "text/javascript", "*/*+json")]))
        registry.install(
            SerializerModule(
                name: "DecantPropertyList",
                factories: [
                    TaggingFactory("propertyList", "application/x-plist", "application/x-bplist", "application/plist")
                ]))
        registry.install(
            SerializerModule(
                name: "DecantXMLDocument",
                factories: [
                    TaggingFactory("xmlDocument", "application/xml", "text/xml", "*/*+xml"),
                    TaggingFactory("xmlParser", "application/xml", "text/xml", "*/*+xml"),
                ]))
        registry.install(
            SerializerModule(
                name: "DecantImage",
                factories: [TaggingFactory("image", "image/png", "image/gif", "image/jpeg", "image/x-icon")]))
        registry.install(SerializerModule(name: "DecantString", factories: [TaggingFactory("string", "text/*")]))
        registry.install(
            SerializerModule(
                name: "Acme",
                factories: [
                    BrokenFactory(id: "acme.broken", ranges: ["application/json", "text/csv"]),
                    TaggingFactory("acme.latin", "text/plain;charset=iso-8859-1", "application/vnd.acme+json"),
                    TaggingFactory("acme.yaml", "application/yaml", "application/*+yaml"),
                ]))
        return registry
    }

    static let mediaTypes: [String?] = [
        nil, "application/json", "application/json; charset=utf-8", "Application/JSON;Charset=\"UTF-8\"",
        "application/problem+json", "application/vnd.api+json; ext=\"https://example.com/ext\"",
        "application/vnd.acme+json", "text/html; charset=ISO-8859-1", "text/plain;charset=iso-8859-1",
        "text/plain; charset=utf-8", "image/png", "image/webp", "application/xml; charset=utf-8", "image/svg+xml",
        "application/atom+xml", "multipart/form-data; boundary=xyz", "text/csv", "application/x-yaml",
        "application/openapi+yaml", "application/+json", "application/octet-stream", "text/json", "*/*",
    ]

    // MARK: The trace

    /// The trace as the registry built it before resolution became lazy (eager candidates, skipped and text).
    static func referenceTrace(
        _ registry: SerializerRegistry, mediaType: MediaType?, source: SniffingPolicy.Source
    ) -> (candidates: [String], skipped: [String], text: String) {
        var candidates: [(id: SerializerID, module: String, range: MediaRange, order: Int)] = []
        var skipped: [(id: SerializerID, module: String, reason: String)] = []
        for entry in registry.entries {
            guard let mediaType else {
                skipped.append((entry.id, entry.moduleName, "there is no media type"))
                continue
            }
            guard
                let range = entry.mediaRanges.filter({ $0.matches(mediaType) }).max(by: {
                    $0.specificity < $1.specificity
                })
            else {
                let accepted = entry.mediaRanges.map(\.description).joined(separator: ", ")
                skipped.append(
                    (entry.id, entry.moduleName, "no range matches \(mediaType.essence) (accepts \(accepted))"))
                continue
            }
            if let buildError = entry.buildError {
                skipped.append(
                    (entry.id, entry.moduleName, "its default options do not build: \(buildError.message)"))
                continue
            }
            candidates.append((entry.id, entry.moduleName, range, entry.order))
        }
        candidates.sort {
            $0.range.specificity != $1.range.specificity
                ? $0.range.specificity > $1.range.specificity : $0.order < $1.order
        }
        var lines: [String] = []
        lines.append("media type: " + (mediaType.map { "\($0) (\(source))" } ?? "none (\(source))"))
        if candidates.isEmpty {
            lines.append("candidates: none")
        } else {
            lines.append("candidates (best first):")
            for (index, candidate) in candidates.enumerated() {
                var line = "  \(index + 1). \(candidate.id) [\(candidate.module)] via \(candidate.range), "
                line += "score \(candidate.range.specificity.score)"
                if index > 0, candidates[index - 1].range.specificity == candidate.range.specificity {
                    line += " (same score as '\(candidates[index - 1].id)', installed later)"
                }
                lines.append(line)
            }
        }
        if !skipped.isEmpty {
            lines.append("skipped:")
            for skip in skipped { lines.append("  - \(skip.id) [\(skip.module)]: \(skip.reason)") }
        }
        lines.append("chosen: " + (candidates.first.map(\.id.rawValue) ?? "none"))
        return (
            candidates.map { "\($0.id) \($0.range) \($0.range.specificity.score) \($0.order)" },
            skipped.map { "\($0.id) \($0.module) \($0.reason)" }, lines.joined(separator: "\n")
        )
    }

    @Test(arguments: mediaTypes)
    func traceIsByteIdenticalToTheEagerOne(type: String?) throws {
        for registry in [Self.standardLike(), SerializerRegistryTests.overlapping(), SerializerRegistry()] {
            let mediaType = try type.map { try MediaType(parsing: $0) }
            let resolution = registry.resolve(mediaType)
            let reference = Self.referenceTrace(
                registry, mediaType: mediaType, source: mediaType == nil ? .none : .header)
            #expect(resolution.description == reference.text)
            #expect(
                resolution.candidates.map { "\($0.id) \($0.range) \($0.specificity.score) \($0.order)" }
                    == reference.candidates)
            #expect(resolution.skipped.map { "\($0.id) \($0.moduleName) \($0.reason)" } == reference.skipped)
            #expect(resolution.chosen == resolution.candidates.first)
            #expect(
                resolution.chosen.map { "\($0.id) \($0.range) \($0.specificity.score) \($0.order)" }
                    == reference.candidates.first)
        }
    }

    @Test func traceOfAResponseKeepsTheSniffedSource() throws {
        let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13])
        let registry = Self.standardLike()
        for response in [
            Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: png),
            Response(status: 200, headers: [:], body: png), Response(status: 200, headers: [:], body: Data("x".utf8)),
        ] {
            for sniffing in [SniffingPolicy.trustHeader, .sniffWhenMissing, .sniffWhenGeneric] {
                let (mediaType, source) = sniffing.effectiveMediaType(for: response)
                let reference = Self.referenceTrace(registry, mediaType: mediaType, source: source)
                #expect(registry.resolve(response, sniffing: sniffing).description == reference.text)
            }
        }
    }

    // MARK: Serializing

    /// `serialize` as it was before the direct path: a compound of the candidates behind a chain.
    static func referenceSerialize(
        _ registry: SerializerRegistry, _ response: Response, sniffing: SniffingPolicy = .trustHeader,
        statusCodes: StatusCodes = .success, emptyBodyPolicy: EmptyBodyPolicy = .default
    ) throws(SerializationError) -> SerializedValue {
        let resolution = registry.resolve(response, sniffing: sniffing)
        let compound: CompoundSerializer<any Sendable>
        if resolution.candidates.isEmpty {
            compound = registry.compoundSerializer(sniffing: sniffing)
        } else {
            var candidates = CompoundSerializer(
                resolution.candidates.compactMap { registry.entry(for: $0.id)?.defaultSerializer },
                sniffing: sniffing, id: "registry")
            candidates.fallsBackOnlyAsSpecifically = true
            compound = candidates
        }
        // An empty response that no format claims (and no `*/*` serializer takes) gives the neutral EmptyResponse.
        let unclaimed = resolution.candidates.isEmpty && !registry.entries.contains { $0.mediaRanges.contains(.any) }
        var chain = ResponseChain(
            RegistryChoiceSerializer(choice: ChoiceReportingSerializer(compound), neutralWhenEmpty: unclaimed),
            statusValidation: StatusCodeValidation(
                acceptable: statusCodes, errorBodyDecoding: .serializer(compound.eraseOutput())),
            emptyBodyPolicy: emptyBodyPolicy)
        chain.mediaTypeValidation = nil
        let result = try chain.serialize(response)
        return SerializedValue(
            value: result.value, serializerID: result.serializerID, mediaType: resolution.mediaType,
            resolution: resolution)
    }

    /// Everything an error says, attempts included, as text.
    static func summary(of error: SerializationError) -> String {
        var text = "\(error.code)|\(error.message)|\(error.mediaType.map(String.init(describing:)) ?? "-")|"
        text += "\(error.serializerID?.rawValue ?? "-")|\(error.offset.map(String.init) ?? "-")|"
        let response = error.response.map { "\($0.status) \($0.body.count) \($0.contentType?.description ?? "-")" }
        text += "\(response ?? "-")|"
        text += "\(error.errorValue.map { "\($0)" } ?? "-")|\(error.underlying.map { "\($0)" } ?? "-")"
        for attempt in error.attempts {
            text += "\n  " + summary(of: attempt).replacingOccurrences(of: "\n", with: "\n  ")
        }
        return text
    }

    /// The result of serializing, as text.
    static func outcome(_ body: () throws(SerializationError) -> SerializedValue) -> String {
        do {
            let value = try body()
            return "value \(value.value) by \(value.serializerID) as \(value.mediaType?.description ?? "-")\n"
                + (value.resolution?.description ?? "")
        } catch {
            return "error " + summary(of: error)
        }
    }

    static let responses: [Response] = [
        .make(type: "application/json", body: "{}"), .make(type: "application/json; charset=utf-8", body: "!no"),
        .make(type: "application/problem+json", body: "!bad"), .make(type: "application/problem+json", body: "ok"),
        .make(type: "text/plain;charset=ISO-8859-1", body: "latin"), .make(type: "text/plain", body: "!x"),
        .make(type: "image/webp", body: "RIFF"), .make(type: "text/html", body: "<p>"), .make(body: "{}"),
        .make(404, type: "application/json", body: "{\"error\":1}"), .make(404, type: "application/json", body: "!e"),
        .make(500, type: "text/html", body: "<p>down</p>"), .make(204), .make(200, type: "application/json"),
        .make(200, type: "application/json", body: " \n"), .make(200, type: "application/xml", body: "<a/>"),
        .make(200, type: "application/json", body: "x", method: "HEAD"),
        .make(200, type: "application/json", headers: [("Content-Length", "0")]),
        .make(type: "application/json, text/html", body: "both"), .make(type: "text/csv", body: "a,b"),
        .make(type: "application/octet-stream", body: "{\"a\":1}"),
    ]

    @Test func serializeMatchesTheCompoundInAChain() throws {
        var narrowing = Self.standardLike()
        narrowing.install(
            SerializerModule(
                name: "Narrow",
                factories: [NarrowingFactory(id: "narrow", claimed: ["application/*+json"], accepted: ["*/*"])]))
        var withData = SerializerRegistryTests.overlapping()
        withData.install(.data)
        let registries = [
            Self.standardLike(), SerializerRegistryTests.overlapping(), narrowing, withData, SerializerRegistry(),
        ]
        let policies: [(SniffingPolicy, StatusCodes, EmptyBodyPolicy)] = [
            (.trustHeader, .success, .default), (.sniffWhenGeneric, .success, .default),
            (.trustHeader, [200, 404], EmptyBodyPolicy(outcome: .error)),
            (.sniffWhenMissing, StatusCodes(200..<600), EmptyBodyPolicy(treatsWhitespaceAsEmpty: false)),
        ]
        for registry in registries {
            for response in Self.responses {
                for (sniffing, statusCodes, emptyBodyPolicy) in policies {
                    let actual = Self.outcome { () throws(SerializationError) -> SerializedValue in
                        try registry.serialize(
                            response, sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
                    }
                    let expected = Self.outcome { () throws(SerializationError) -> SerializedValue in
                        try Self.referenceSerialize(
                            registry, response, sniffing: sniffing, statusCodes: statusCodes,
                            emptyBodyPolicy: emptyBodyPolicy)
                    }
                    #expect(actual == expected, "\(response)")
                }
                // The overload without policy parameters is the default policies' path.
                let byDefault = Self.outcome { () throws(SerializationError) -> SerializedValue in
                    try registry.serialize(response)
                }
                let withDefaults = Self.outcome { () throws(SerializationError) -> SerializedValue in
                    try Self.referenceSerialize(
                        registry, response, sniffing: .trustHeader, statusCodes: .success, emptyBodyPolicy: .default)
                }
                #expect(byDefault == withDefaults, "\(response)")
            }
        }
    }

    /// Counts calls, to check that the direct path calls each serializer once, as the chain does.
    final class CallCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var calls: [String] = []
        func record(_ id: String) {
            lock.lock()
            defer { lock.unlock() }
            calls.append(id)
        }
        var recorded: [String] {
            lock.lock()
            defer { lock.unlock() }
            return calls
        }
    }

    @Test func eachCandidateIsTriedOnceInOrder() throws {
        let counter = CallCounter()
        func counting(_ id: SerializerID, _ ranges: String...) -> AnyResponseSerializer<String> {
            let tagging = TaggingSerializer(id: id, ranges: ranges.map { MediaRange($0)! })
            return AnyResponseSerializer(id: id, mediaRanges: tagging.ranges) { response in
                counter.record(id.rawValue)
                return try tagging.serialize(response)
            }
        }
        struct Wrapper: SerializerFactory {
            var format: MediaFormat {
                MediaFormat(id: serializer.id, mediaRanges: serializer.mediaRanges, summary: "Counts calls (tests).")
            }
            let serializer: AnyResponseSerializer<String>
            var defaultOptions: Void { () }
            func options(from configuration: ConfigurationOptions) throws {}
            func makeSerializer(options: Void) -> AnyResponseSerializer<String> { serializer }
        }
        var registry = SerializerRegistry()
        registry.install(
            SerializerModule(
                name: "Counting",
                factories: [
                    Wrapper(serializer: counting("wide", "*/*")),
                    Wrapper(serializer: counting("problem", "application/problem+json")),
                    Wrapper(serializer: counting("problem2", "application/problem+json")),
                    Wrapper(serializer: counting("problem3", "application/problem+json")),
                ]))
        // The three of the same specificity, once each in installation order; the wider `*/*` not at all.
        _ = try? registry.serialize(.make(type: "application/problem+json", body: "!x"))
        #expect(counter.recorded == ["problem", "problem2", "problem3"])
        _ = try registry.serialize(.make(type: "application/problem+json", body: "fine"))
        #expect(counter.recorded == ["problem", "problem2", "problem3", "problem"])
    }

    // MARK: The cached Content-Type

    /// `contentType` as it was computed on every read.
    static func referenceContentType(_ headers: HTTPHeaderFields) -> MediaType? {
        var result: MediaType?
        var essence: String?
        var charset: String?
        for fieldValue in headers.values(for: "Content-Type") {
            for part in AcceptHeader.splitOutsideQuotes(fieldValue, separator: ",") {
                guard let parsed = try? MediaType(parsing: part), parsed.essence != "*/*" else { continue }
                var mediaType = parsed
                if mediaType.essence != essence {
                    charset = mediaType.charset
                    essence = mediaType.essence
                } else if mediaType.charset == nil, let charset {
                    mediaType.parameters.set(charset, forName: "charset")
                }
                result = mediaType
            }
        }
        return result
    }

    @Test func contentTypeFollowsEveryChangeToTheFields() throws {
        var headers: HTTPHeaderFields = ["Accept": "*/*"]
        #expect(headers.contentType == nil)
        let steps: [(inout HTTPHeaderFields) -> Void] = [
            { $0.append(name: "content-type", value: "text/html;charset=gbk") },
            { $0.append(name: "Content-Type", value: "text/plain, text/html") },
            { $0.append(name: "X-Other", value: "application/json") },
            { $0.append(name: "CONTENT-TYPE", value: "*/*") },
            { $0.set("application/json; charset=\"utf-8\", x/y", for: "Content-type") },
            { $0.set("text/plain; a=\"b,c\"", for: "X-Other") },
            { $0.append(name: "Content-Type", value: "invalid") },
            { $0.remove("content-TYPE") },
            { $0.set("image/png", for: "Content-Type") },
        ]
        for step in steps {
            step(&headers)
            #expect(headers.contentType == Self.referenceContentType(headers), "\(headers)")
            #expect(headers.contentType?.description == Self.referenceContentType(headers)?.description)
        }
        #expect(headers.contentType?.essence == "image/png")
    }

    @Test func equalFieldsAreEqualHeadersWhateverTheirHistory() {
        var built = HTTPHeaderFields()
        built.append(name: "Content-Type", value: "text/plain")
        built.set("application/json", for: "Content-Type")
        let literal: HTTPHeaderFields = ["Content-Type": "application/json"]
        #expect(built == literal)
        #expect(built.hashValue == literal.hashValue)
        #expect(Response(headers: built) == Response(headers: literal))
        let replaced = Response(headers: ["Content-Type": "text/plain"])
            .replacingContentType(try! MediaType(parsing: "application/json;charset=utf-8"))
        #expect(replaced.contentType?.description == "application/json;charset=utf-8")
    }
}
