public import DecantCore
import Dispatch
public import Foundation

/// The rules every serializer must pass whatever its format, checked on a `SerializerModule` or a single factory.
///
/// Fixtures say what a serializer must produce; these rules say how any serializer must behave, so a plugin gets them
/// without writing a fixture:
///
/// - ``SerializerRuleViolation/Rule/validID``: the factory's id, and its serializer's, are well-formed
///   (`SerializerID.isValid(_:)`: dot-separated segments, each an ASCII lowercase letter followed by ASCII letters
///   and digits, such as `json`, `propertyList` or `acme.yaml`), and no two factories of a module share an id.
/// - ``SerializerRuleViolation/Rule/defaultOptions``: the defaults of the factory's option schema pass its own
///   validation and build a serializer, as do no options at all and the typed `defaultOptions`.
/// - ``SerializerRuleViolation/Rule/failsCleanly``: `serialize(_:)` returns a value or throws a `SerializationError`
///   (never another error) for an empty body, for prefixes of each sample body (at most ``maxPrefixes`` cut points
///   spread evenly over the body, the whole body included), and for ``randomByteCount`` deterministic pseudo-random
///   bytes; `emptyValue(for:)` does the same for the empty body. A crash cannot be reported: it ends the process,
///   which the test runner reports as a crash of the test that ran the check.
/// - ``SerializerRuleViolation/Rule/finishesInTime``: each of those calls finishes within ``deadline`` seconds (30 by
///   default). This is a hang detector, not a speed test: the deadline is generous on purpose, so a slow machine or
///   an unoptimized build never trips it. A call that does not finish keeps running on its thread (a thread cannot be
///   stopped); the remaining inputs of that serializer are skipped.
///
/// Every serializer is built with its factory's default options. Each input carries a `Content-Type` the serializer
/// accepts: a sample's own when it does, else one made from the serializer's first media range.
///
/// From a test:
///
/// ```swift
/// @Test func csvFollowsTheSerializerRules() throws {
///     let fixtures = try FixtureLoader.fixtures(in: FixtureLoader.fixturesDirectory()!).filter { $0.area == "csv" }
///     try SerializerRules(samplesFrom: fixtures).check(.csv)
/// }
/// ```
public struct SerializerRules: Sendable {
    /// Responses whose bodies are cut into prefixes (with their own header fields).
    public var samples: [Response]
    /// The most cut points per sample body, spread evenly from the empty prefix to the whole body: 64 by default.
    public var maxPrefixes: Int
    /// How many pseudo-random bytes make the random body: 65,536 by default.
    public var randomByteCount: Int
    /// How long one call may take before it counts as a hang, in seconds: 30 by default.
    public var deadline: TimeInterval

    /// Creates the rules with sample responses.
    ///
    /// - Parameters:
    ///   - samples: Responses whose bodies are cut into prefixes: a few typical and a few unusual ones of the format
    ///     (every prefix of each is one call, so a handful is enough).
    ///   - maxPrefixes: The most cut points per sample body.
    ///   - randomByteCount: The size of the pseudo-random body.
    ///   - deadline: Seconds one call may take before it counts as a hang.
    public init(
        samples: [Response] = [], maxPrefixes: Int = 64, randomByteCount: Int = 64 * 1024, deadline: TimeInterval = 30
    ) {
        self.samples = samples
        self.maxPrefixes = maxPrefixes
        self.randomByteCount = randomByteCount
        self.deadline = deadline
    }

    /// Creates the rules with samples taken from fixtures: the responses of at most `maxSamples` of them, spread
    /// evenly over the list, leaving out those whose message does not parse or whose body is empty.
    ///
    /// - Parameters:
    ///   - fixtures: The fixtures of the format, such as those of its area in `Fixtures/`.
    ///   - maxSamples: The most samples to take: 8 by default.
    public init(samplesFrom fixtures: [Fixture], maxSamples: Int = 8) {
        let responses = fixtures.compactMap { fixture -> Response? in
            guard let response = try? Response(raw: fixture.raw), !response.body.isEmpty else { return nil }
            return response
        }
        let count = min(max(maxSamples, 0), responses.count)
        let picked = (0..<count).map { responses[$0 * responses.count / count] }
        self.init(samples: picked)
    }

    /// Every violation of the rules by the factories of `module`, in factory order.
    public func violations(of module: SerializerModule) -> [SerializerRuleViolation] {
        var violations: [SerializerRuleViolation] = []
        var seen: Set<SerializerID> = []
        for factory in module.factories {
            if !seen.insert(factory.id).inserted {
                violations.append(
                    SerializerRuleViolation(
                        serializerID: factory.id, rule: .validID,
                        message: "The module \(module.name) has two factories with the id '\(factory.id)'; ids must "
                            + "be unique, since configuration files and the registry name serializers by id."))
            }
            violations += self.violations(of: factory)
        }
        return violations
    }

    /// Every violation of the rules by `factory` and the serializer it builds with its default options.
    public func violations(of factory: any SerializerFactory) -> [SerializerRuleViolation] {
        checkFactory(factory)
    }

    /// Checks `module` and throws when any rule is broken: the call a test makes.
    ///
    /// - Throws: ``ConformanceFailure`` listing every violation.
    public func check(_ module: SerializerModule) throws(ConformanceFailure) {
        try Self.require(violations(of: module), checked: "the module \(module.name)")
    }

    /// Checks `factory` and throws when any rule is broken.
    ///
    /// - Throws: ``ConformanceFailure`` listing every violation.
    public func check(_ factory: any SerializerFactory) throws(ConformanceFailure) {
        try Self.require(violations(of: factory), checked: "the serializer '\(factory.id)'")
    }

    private static func require(_ violations: [SerializerRuleViolation], checked: String) throws(ConformanceFailure) {
        guard !violations.isEmpty else { return }
        let lines = violations.map { "  \($0)" }.joined(separator: "\n")
        throw ConformanceFailure(
            "\(violations.count) serializer rule violation\(violations.count == 1 ? "" : "s") in \(checked):\n\(lines)")
    }

    // MARK: Checking one factory

    private func checkFactory<Factory: SerializerFactory>(_ factory: Factory) -> [SerializerRuleViolation] {
        let id = factory.id
        var violations: [SerializerRuleViolation] = []
        func report(_ rule: SerializerRuleViolation.Rule, _ message: String) {
            violations.append(SerializerRuleViolation(serializerID: id, rule: rule, message: message))
        }
        if !SerializerID.isValid(id.rawValue) {
            report(.validID, "'\(id.rawValue)' is not a valid serializer id: use \(SerializerID.syntax).")
        }

        // The option schema's defaults, no options, and the typed defaults all build a serializer.
        var schemaDefaults: ConfigurationOptions = [:]
        for option in factory.optionSchema {
            if let value = option.defaultValue { schemaDefaults[option.name] = value }
        }
        for problem in SerializerOption.problems(schemaDefaults, against: factory.optionSchema, for: id) {
            report(.defaultOptions, "The option schema's own default is rejected by it: \(problem.message)")
        }
        // No options and the schema's defaults are one configuration when no option has a default: check it once.
        var configurations: [(ConfigurationOptions, String)] = [([:], "no options")]
        if !schemaDefaults.isEmpty { configurations.insert((schemaDefaults, "the option schema's defaults"), at: 0) }
        for (configuration, name) in configurations {
            do {
                _ = try factory.makeSerializer(configuration: configuration)
            } catch {
                report(.defaultOptions, "No serializer can be built from \(name): \(error.message)")
            }
        }
        let serializer: Factory.Serializer
        do {
            serializer = try factory.makeSerializer(options: factory.defaultOptions)
        } catch {
            report(.defaultOptions, "No serializer can be built from the factory's defaultOptions: \(error).")
            return violations
        }
        violations += robustnessViolations(of: serializer, id: id, mediaRanges: factory.mediaRanges)
        return violations
    }

    /// The inputs, each called with a deadline; stops at the first call that does not finish.
    private func robustnessViolations<Serializer: ResponseSerializer>(
        of serializer: Serializer, id: SerializerID, mediaRanges: [MediaRange]
    ) -> [SerializerRuleViolation] {
        let mediaType = Self.representative(of: mediaRanges.first ?? .any)
        let empty = Response(headers: ["Content-Type": mediaType.description])
        var inputs: [(name: String, call: @Sendable () throws -> Void)] = [
            ("serialize(_:) of an empty body", { _ = try serializer.serialize(empty) }),
            ("emptyValue(for:) of an empty body", { _ = try serializer.emptyValue(for: empty) }),
        ]
        for (index, sample) in samples.enumerated() {
            var base = sample
            if base.contentType.map(serializer.accepts) != true {
                base = base.replacingContentType(mediaType)
            }
            for length in Self.cutPoints(count: base.body.count, max: maxPrefixes) {
                let response = base.replacingBody(base.body.prefix(length))
                inputs.append(
                    (
                        "serialize(_:) of the first \(length) of \(base.body.count) bytes of sample \(index + 1) "
                            + "(\(base.contentType?.description ?? "no Content-Type"))",
                        { _ = try serializer.serialize(response) }
                    ))
            }
        }
        let random = empty.replacingBody(Self.pseudoRandomBytes(count: randomByteCount))
        inputs.append(
            ("serialize(_:) of \(randomByteCount) pseudo-random bytes", { _ = try serializer.serialize(random) }))

        var violations: [SerializerRuleViolation] = []
        for input in inputs {
            switch Self.run(input.call, deadline: deadline) {
            case .finished(nil):
                continue
            case .finished(let error?):
                violations.append(
                    SerializerRuleViolation(
                        serializerID: id, rule: .failsCleanly,
                        message: "\(input.name) threw \(type(of: error)), not a SerializationError: \(error). Wrap "
                            + "errors in a SerializationError saying what failed."))
            case .timedOut:
                violations.append(
                    SerializerRuleViolation(
                        serializerID: id, rule: .finishesInTime,
                        message: "\(input.name) did not finish within \(Self.seconds(deadline)); the remaining "
                            + "inputs were skipped."))
                return violations
            }
        }
        return violations
    }

    // MARK: Inputs

    /// A media type `range` matches: the range itself when exact, else one made up under it.
    static func representative(of range: MediaRange) -> MediaType {
        switch range.pattern {
        case .exact(let type, let subtype): MediaType(type: type, subtype: subtype)
        case .suffix(let type, let suffix): MediaType(type: type ?? "application", subtype: "x-decant-rules+" + suffix)
        case .type(let type): MediaType(type: type, subtype: "x-decant-rules")
        case .any: MediaType(type: "application", subtype: "octet-stream")
        }
    }

    /// At most `max` prefix lengths from 0 to `count`, both included (when `max` is at least 2), evenly spread.
    static func cutPoints(count: Int, max: Int) -> [Int] {
        guard max > 0 else { return [] }
        guard count + 1 > max else { return Array(0...count) }
        guard max > 1 else { return [count] }
        var lengths: [Int] = []
        for index in 0..<max {
            let length = index * count / (max - 1)
            if lengths.last != length { lengths.append(length) }
        }
        return lengths
    }

    /// `count` bytes of ``SplitMix64`` output from a fixed seed: the same bytes on every run and platform.
    static func pseudoRandomBytes(count: Int) -> Data {
        var generator = SplitMix64(seed: 0x9E37_79B9_7F4A_7C15)
        return Data(generator.bytes(count: count))
    }

    // MARK: Running with a deadline

    enum Outcome {
        /// The call returned (`nil`) or threw an error that is not a `SerializationError`.
        case finished((any Error)?)
        case timedOut
    }

    /// Runs `call` on a Dispatch thread and waits for it at most `deadline` seconds.
    static func run(_ call: @escaping @Sendable () throws -> Void, deadline: TimeInterval) -> Outcome {
        let box = OutcomeBox()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            do {
                try call()
            } catch is SerializationError {
            } catch {
                box.set(error)
            }
            done.signal()
        }
        guard done.wait(timeout: .now() + deadline) == .success else { return .timedOut }
        return .finished(box.error)
    }

    /// The error a call threw, handed from the Dispatch thread to the waiting one.
    private final class OutcomeBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: (any Error)?
        func set(_ error: any Error) { lock.withLock { stored = error } }
        var error: (any Error)? { lock.withLock { stored } }
    }

    private static func seconds(_ seconds: TimeInterval) -> String {
        seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}
