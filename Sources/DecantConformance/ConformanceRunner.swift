import DecantConfiguration
public import DecantCore
import DecantJSON
import DecantRawHTTP
import Foundation

/// Runs fixtures against a registry, also on perturbed copies, and collects the results.
///
/// ```swift
/// let fixtures = try FixtureLoader.fixtures(in: FixtureLoader.fixturesDirectory()!)
/// let report = ConformanceRunner(registry: .standard).run(fixtures)
/// print(report.textTable())
/// ```
public struct ConformanceRunner: Sendable {
    /// The registry serializers come from.
    public var registry: SerializerRegistry
    /// Whether perturbed copies are run too (each fixture can opt out with `"perturb": false`).
    public var perturbs: Bool
    /// The perturbations tried on each fixture that passes: ``Perturbation/all`` by default. A plugin adds its
    /// format's own (changes its format must not notice, such as CRLF for LF between CSV records) with
    /// `Perturbation.all + [...]`.
    public var perturbations: [Perturbation]

    /// Creates a runner.
    public init(registry: SerializerRegistry, perturbs: Bool = true, perturbations: [Perturbation] = Perturbation.all) {
        self.registry = registry
        self.perturbs = perturbs
        self.perturbations = perturbations
    }

    /// Runs every fixture (and its perturbations) and returns the report.
    public func run(_ fixtures: [Fixture]) -> ConformanceReport {
        ConformanceReport(results: fixtures.flatMap(run))
    }

    /// Runs every fixture (and its perturbations) and throws when any result failed or when `fixtures` is empty: the
    /// call a test makes.
    ///
    /// ```swift
    /// @Test func csvFixturesPass() throws {
    ///     let fixtures = try FixtureLoader.fixtures(in: FixtureLoader.fixturesDirectory()!).filter { $0.area == "csv" }
    ///     try ConformanceRunner(registry: SerializerRegistry().installing(.csv)).check(fixtures)
    /// }
    /// ```
    ///
    /// - Returns: The report, all passed.
    /// - Throws: ``ConformanceFailure`` listing every failed result with its reason (see
    ///   ``ConformanceReport/requireAllPassed()``).
    @discardableResult
    public func check(_ fixtures: [Fixture]) throws(ConformanceFailure) -> ConformanceReport {
        let report = run(fixtures)
        try report.requireAllPassed()
        return report
    }

    /// Runs one fixture: the original first, then the round trip, then each applicable perturbation.
    ///
    /// The round trip (reported as the perturbation `roundTrip`) holds a format that writes to the law that
    /// decoding what it encoded gives the value back: when the fixture's value came from a format whose encoder
    /// writes it, the value is encoded (as the response's media type without its parameters when the format writes
    /// it, so that the value decides them, such as the `charset` of decoded text; else as the format's default) by
    /// the format's encoder built with the fixture's options, and the body decoded again by the same serializer with
    /// the same options; the two values' canonical forms must be equal. A fixture whose value cannot survive that (a string decoded with replacement
    /// characters) opts out with `"roundTrip": false`.
    public func run(_ fixture: Fixture) -> [ConformanceResult] {
        let module = moduleName(for: fixture)
        let (original, outcome) = checkReportingOutcome(fixture, raw: fixture.raw, perturbation: nil, module: module)
        var results = [original]
        if original.passed, fixture.expectation["roundTrip"]?.boolValue ?? true,
            case .value(let id, let value)? = outcome,
            let response = try? parse(fixture, fixture.raw)
        {
            let failure: String?
            do {
                failure = try roundTripFailure(of: value, from: id, response: response, fixture: fixture)
            } catch {
                failure = "\(error)"
            }
            if let failure {
                results.append(
                    ConformanceResult(
                        fixture: fixture.description, perturbation: "roundTrip", module: module,
                        failure: failure == "" ? nil : failure))
            }
        }
        let wantsPerturbations = fixture.expectation["perturb"]?.boolValue ?? true
        guard perturbs, wantsPerturbations, original.passed, let response = try? parse(fixture, fixture.raw) else {
            return results
        }
        for perturbation in perturbations {
            guard let raw = perturbation.apply(to: response, expectation: fixture.expectation) else { continue }
            results.append(check(fixture, raw: raw, perturbation: perturbation.name, module: module))
        }
        return results
    }

    // MARK: Running one message

    private func parse(_ fixture: Fixture, _ raw: Data) throws(SerializationError) -> Response {
        let request = fixture.expectation["request"]
        let method = request?["method"]?.stringValue
        let url = request?["url"]?.stringValue.flatMap(URL.init(string:))
        return try Response(raw: raw, requestMethod: method, url: url)
    }

    private func check(_ fixture: Fixture, raw: Data, perturbation: String?, module: String) -> ConformanceResult {
        checkReportingOutcome(fixture, raw: raw, perturbation: perturbation, module: module).result
    }

    private func checkReportingOutcome(
        _ fixture: Fixture, raw: Data, perturbation: String?, module: String
    ) -> (result: ConformanceResult, outcome: Outcome?) {
        let failure: String?
        var happened: Outcome?
        do {
            let outcome = try outcome(fixture, raw: raw)
            happened = outcome
            failure = try compare(outcome, with: fixture.expectation["expect"])
        } catch {
            failure = "\(error)"
        }
        let result = ConformanceResult(
            fixture: fixture.description, perturbation: perturbation, module: module, failure: failure)
        return (result, happened)
    }

    /// `nil` when the format of `id` does not write `value` (no round trip to run), `""` when the round trip holds,
    /// else why it does not.
    private func roundTripFailure(
        of value: any Sendable, from id: SerializerID, response: Response, fixture: Fixture
    ) throws -> String? {
        guard let entry = registry.entry(for: id), let installed = entry.bodyEncoder else { return nil }
        let isCompound = fixture.expectation["serializers"] != nil
        let options = try Self.options(for: id, in: fixture.expectation, compound: isCompound)
        // The encoder of the fixture's options, as the reader is: a configured delimiter is written as it is read.
        let encoder = options.isEmpty ? installed : try entry.factory.makeEncoder(configuration: options) ?? installed
        guard encoder.canEncode(value) else { return nil }
        let mediaType: MediaType
        if let received = response.contentType?.withoutParameters, encoder.writes(received) {
            mediaType = received
        } else if let preferred = encoder.defaultMediaType {
            mediaType = preferred
        } else {
            return nil
        }
        let body: EncodedBody
        do {
            body = try encoder.encode(value, as: mediaType, options: registry.encodingOptions)
        } catch {
            return "'\(id)' read the value but could not write it back as \(mediaType): \(Self.cap(error.description))"
        }
        let again: any Sendable
        do {
            again = try registry.serializer(id: id, configuration: options).serialize(body.response())
        } catch {
            return "'\(id)' could not read back what it wrote as \(body.contentType): \(Self.cap("\(error)"))"
        }
        let expected = try CanonicalForm.of(value)
        let actual = try CanonicalForm.of(again)
        if actual != expected {
            return "writing as \(body.contentType) and reading back changed the value "
                + Self.difference(expected, actual)
        }
        return ""
    }

    /// What happened: a value (with the serializer that produced it) or an error.
    enum Outcome {
        case value(serializer: SerializerID, value: any Sendable)
        case error(SerializationError)
    }

    private func outcome(_ fixture: Fixture, raw: Data) throws -> Outcome {
        let expectation = fixture.expectation
        try ExpectationSchema.check(expectation)
        let response: Response
        do {
            response = try parse(fixture, raw)
        } catch {
            return .error(error)
        }
        let sniffing = try Self.sniffingPolicy(expectation["sniffing"])
        let statusCodes = try Self.statusCodes(expectation["acceptableStatusCodes"])
        var emptyBodyPolicy = EmptyBodyPolicy.default
        emptyBodyPolicy.outcome = try Self.emptyOutcome(expectation["emptyBody"])

        if let configPath = expectation["config"]?.stringValue {
            return try configuredOutcome(fixture, configPath: configPath, response: response)
        }
        let ids: [SerializerID]
        if let single = expectation["serializer"]?.stringValue {
            ids = [try Self.serializerID(single)]
        } else if let list = expectation["serializers"]?.arrayValue {
            ids = try list.map { try Self.serializerID($0.stringValue ?? "") }
        } else {
            do {
                let result = try registry.serialize(
                    response, sniffing: sniffing, statusCodes: statusCodes, emptyBodyPolicy: emptyBodyPolicy)
                return .value(serializer: result.serializerID, value: result.value)
            } catch {
                return .error(error)
            }
        }
        var serializers: [AnyResponseSerializer<any Sendable>] = []
        for id in ids {
            let options = try Self.options(for: id, in: expectation, compound: ids.count > 1)
            do {
                serializers.append(try registry.serializer(id: id, configuration: options))
            } catch {
                return .error(error)
            }
        }
        var compound = CompoundSerializer(serializers, sniffing: sniffing, id: "compound")
        compound.triesNonMatching = expectation["triesNonMatching"]?.boolValue ?? false
        let statusValidation = StatusCodeValidation(
            acceptable: statusCodes, errorBodyDecoding: .serializer(compound.eraseOutput()))
        var chain = ResponseChain(
            ChoiceReportingSerializer(compound), statusValidation: statusValidation, emptyBodyPolicy: emptyBodyPolicy)
        chain.mediaTypeValidation = nil
        do {
            let result = try chain.serialize(response)
            return .value(serializer: result.serializerID, value: result.value)
        } catch {
            return .error(error)
        }
    }

    private func configuredOutcome(_ fixture: Fixture, configPath: String, response: Response) throws -> Outcome {
        let loaded: LoadedConfiguration
        let url = fixture.configurationURL(configPath)
        do {
            loaded = try registry.loadConfiguration(contentsOf: url)
        } catch {
            throw ConformanceFailure(
                "The configuration \(configPath) (\(url.path), relative to the fixture's folder) does not load: \(error)"
            )
        }
        guard let name = fixture.expectation["chain"]?.stringValue else {
            throw ConformanceFailure("\"config\" needs \"chain\": the name of the chain to run.")
        }
        do {
            let chosen = try loaded.chain(named: name).serializeReportingChoice(response)
            return .value(serializer: chosen.serializerID, value: chosen.value)
        } catch {
            return .error(error)
        }
    }

    // MARK: Comparing

    /// `nil` when the outcome meets the expectation, else why not.
    private func compare(_ outcome: Outcome, with expect: JSONValue?) throws -> String? {
        guard let expect, expect.kind == .object else {
            throw ConformanceFailure("The expectation has no \"expect\" object.")
        }
        if let expectedError = expect["error"] {
            guard case .error(let error) = outcome else {
                if case .value(let serializer, let value) = outcome {
                    let shown = (try? CanonicalForm.of(value).description) ?? "\(value)"
                    return "expected an error, but '\(serializer)' produced \(Self.cap(shown))"
                }
                return "expected an error"
            }
            return try compare(error, with: expectedError)
        }
        switch outcome {
        case .error(let error):
            return "expected a value, but got \(Self.cap(error.description))"
        case .value(let serializer, let value):
            if let expectedID = expect["serializer"]?.stringValue, expectedID != serializer.rawValue {
                return "expected the serializer '\(expectedID)', but '\(serializer)' produced the value"
            }
            guard let expectedValue = expect["value"] else {
                throw ConformanceFailure("The expectation has neither \"value\" nor \"error\".")
            }
            let actual = try CanonicalForm.of(value)
            if actual != expectedValue { return "the value differs " + Self.difference(expectedValue, actual) }
            return nil
        }
    }

    private func compare(_ error: SerializationError, with expected: JSONValue) throws -> String? {
        if let code = expected["code"]?.stringValue, code != error.code.rawValue {
            return "expected the error code \(code), got \(error.code): \(Self.cap(error.message))"
        }
        if let fragment = expected["messageContains"]?.stringValue, !error.message.contains(fragment) {
            return "expected the message to contain \"\(fragment)\", got \"\(Self.cap(error.message))\""
        }
        if let status = expected["status"]?.intValue, status != error.status {
            return "expected the error's status \(status), got \(error.status.map(String.init) ?? "none")"
        }
        if let attempts = expected["attempts"]?.arrayValue {
            let actual = error.attempts.map { ($0.serializerID?.rawValue, $0.code.rawValue) }
            let wanted = attempts.map { ($0["serializer"]?.stringValue, $0["code"]?.stringValue) }
            let matches =
                actual.count == wanted.count
                && zip(actual, wanted).allSatisfy { got, want in
                    (want.0 == nil || want.0 == got.0) && (want.1 == nil || want.1 == got.1)
                }
            if !matches {
                let shown = actual.map { "\($0.0 ?? "?"):\($0.1)" }.joined(separator: ", ")
                return "expected \(attempts.count) attempts \(expected["attempts"]!), got [\(shown)]"
            }
        }
        if let expectedValue = expected["errorValue"] {
            guard let value = error.errorValue else { return "expected an errorValue, got none" }
            let actual = try CanonicalForm.of(value)
            if actual != expectedValue { return "the errorValue differs " + Self.difference(expectedValue, actual) }
        }
        return nil
    }

    // MARK: Reading the expectation

    private func moduleName(for fixture: Fixture) -> String {
        let expectation = fixture.expectation
        let id =
            expectation["expect"]?["serializer"]?.stringValue ?? expectation["serializer"]?.stringValue
            ?? expectation["serializers"]?[0]?.stringValue
        let area = fixture.area.split(separator: "/").first.map(String.init) ?? "fixtures"
        // The expected serializer's module; else the module of the serializer the area is named after.
        for candidate in [id, area].compactMap({ $0 }) {
            if let serializerID = SerializerID(rawValue: candidate), let entry = registry.entry(for: serializerID) {
                return entry.moduleName
            }
        }
        return area
    }

    static func serializerID(_ text: String) throws -> SerializerID {
        guard let id = SerializerID(rawValue: text) else {
            throw ConformanceFailure("'\(text)' is not a valid serializer id: use \(SerializerID.syntax).")
        }
        return id
    }

    static func options(for id: SerializerID, in expectation: JSONValue, compound: Bool) throws -> ConfigurationOptions
    {
        guard var options = expectation["options"] else { return [:] }
        if compound {
            guard let perSerializer = options[id.rawValue] else { return [:] }
            options = perSerializer
        }
        guard case .object(let object) = try configurationValue(options) else {
            throw ConformanceFailure("\"options\" must be an object.")
        }
        return object
    }

    static func configurationValue(_ value: JSONValue) throws -> ConfigurationValue {
        switch value.kind {
        case .null: return .null
        case .bool: return .bool(value.boolValue ?? false)
        case .number:
            if let integer = value.intValue { return .integer(integer) }
            return .number(value.doubleValue ?? 0)
        case .string: return .string(value.stringValue ?? "")
        case .array: return .array(try (value.arrayValue ?? []).map(configurationValue))
        case .object:
            var object: [String: ConfigurationValue] = [:]
            for (key, member) in value.objectEntries ?? [] { object[key] = try configurationValue(member) }
            return .object(object)
        }
    }

    static func sniffingPolicy(_ value: JSONValue?) throws -> SniffingPolicy {
        switch value?.stringValue {
        case nil, "trustHeader": return .trustHeader
        case "sniffWhenMissing": return .sniffWhenMissing
        case "sniffWhenGeneric": return .sniffWhenGeneric
        case let other?:
            throw ConformanceFailure(
                "\"sniffing\": \"\(other)\" is not a policy; use trustHeader, sniffWhenMissing or sniffWhenGeneric.")
        }
    }

    static func statusCodes(_ value: JSONValue?) throws -> StatusCodes {
        guard let value else { return .success }
        guard let items = value.arrayValue else {
            throw ConformanceFailure("\"acceptableStatusCodes\" must be an array of codes or \"200-299\" ranges.")
        }
        return StatusCodes(
            try items.map { item -> ClosedRange<Int> in
                if let code = item.intValue { return code...code }
                let parts = (item.stringValue ?? "").split(separator: "-").compactMap { Int($0) }
                guard parts.count == 2, parts[0] <= parts[1] else {
                    throw ConformanceFailure("\(item) is not a status code or a \"200-299\" range.")
                }
                return parts[0]...parts[1]
            })
    }

    static func emptyOutcome(_ value: JSONValue?) throws -> EmptyBodyPolicy.Outcome {
        switch value?.stringValue {
        case nil, "emptyValue": return .emptyValue
        case "emptyValueOnlyForNoContent": return .emptyValueOnlyForNoContent
        case "error": return .error
        case let other?:
            throw ConformanceFailure(
                "\"emptyBody\": \"\(other)\" is not an outcome; use emptyValue, emptyValueOnlyForNoContent or error.")
        }
    }

    /// Where two unequal canonical forms first differ (`at /a/0: expected 1, got 2`).
    static func difference(_ expected: JSONValue, _ actual: JSONValue) -> String {
        ValueDifference.between(expected: expected, actual: actual)?.description
            ?? "at the top level: expected \(cap(expected.description)), got \(cap(actual.description))"
    }

    static func cap(_ text: String) -> String {
        text.count > 300 ? String(text.prefix(300)) + "…" : text
    }
}
