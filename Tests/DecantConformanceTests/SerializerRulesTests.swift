import Decant
import DecantConformance
import Foundation
import Testing

/// The rule checks on every built-in module (with its fixtures' bodies as samples), and on deliberately broken
/// serializers, each of which must be reported.
@Suite struct SerializerRulesTests {
    static let fixtures: [Fixture] = FixtureTests.allFixtures

    static func samples(_ areas: [String]) -> SerializerRules {
        SerializerRules(samplesFrom: fixtures.filter { areas.contains($0.area) })
    }

    @Test(arguments: [
        (SerializerModule.json, ["json"]), (.string, ["string"]), (.propertyList, ["propertyList"]),
        (.xmlParser, ["xmlDocument"]), (.xmlDocument, ["xmlDocument"]), (.image, ["image"]),
        (.data, ["json", "image"]),
    ])
    func builtInModulesFollowTheRules(module: SerializerModule, areas: [String]) throws {
        let rules = Self.samples(areas)
        #expect(rules.samples.count == 8, "the samples of \(areas) are fixture bodies")
        try rules.check(module)
    }

    // MARK: Deliberately broken serializers

    @Test func aSerializerThrowingAnotherErrorIsReported() {
        let violations = SerializerRules().violations(of: BrokenFactory(kind: .throwsOtherError))
        #expect(violations.contains { $0.rule == .failsCleanly && $0.message.contains("BrokenError") })
        // The empty body, its empty value and the random bytes: every call threw.
        #expect(violations.filter { $0.rule == .failsCleanly }.count == 3)
    }

    @Test func prefixesOfSamplesAreTriedUpToTheCap() {
        let sample = Response(headers: ["Content-Type": "text/x-broken"], body: Data(repeating: 0x41, count: 1000))
        let rules = SerializerRules(samples: [sample], maxPrefixes: 10)
        let violations = rules.violations(of: BrokenFactory(kind: .throwsOtherError))
        // 10 cut points of the sample, plus the empty body, its empty value and the random bytes.
        #expect(violations.count == 13)
        #expect(violations.contains { $0.message.contains("the first 1000 of 1000 bytes of sample 1") })
        #expect(violations.contains { $0.message.contains("the first 111 of 1000 bytes of sample 1") })
    }

    /// A serializer that reports another id and narrower ranges than its factory's format cannot make the registry
    /// disagree with itself: resolution, the serializer that runs and the value's id all go by the format.
    @Test(arguments: ["text/plain", "text/csv"])
    func aSerializerDisagreeingWithItsFormatRunsUnderTheFormat(contentType: String) throws {
        let registry = SerializerRegistry(
            modules: [SerializerModule(name: "Broken", factories: [BrokenFactory(kind: .disagrees)])])
        #expect(registry.conflicts.isEmpty)
        #expect(SerializerRules().violations(of: BrokenFactory(kind: .disagrees)).isEmpty)
        let response = Response(headers: ["Content-Type": contentType], body: Data("x".utf8))
        let value = try registry.serialize(response)
        #expect(value.serializerID == "broken")
        #expect(registry.resolve(response).chosen?.id == "broken")
        let typed: String = try registry.serialize(response, as: String.self)
        #expect(typed == "")
    }

    @Test func aSchemaDefaultTheSchemaRejectsIsReported() {
        let violations = SerializerRules().violations(of: BrokenFactory(kind: .badDefault))
        #expect(violations.contains { $0.rule == .defaultOptions && $0.message.contains("strict") })
    }

    @Test func twoFactoriesWithOneIdAreReported() {
        let module = SerializerModule(
            name: "Twice", factories: [BrokenFactory(kind: .fine), BrokenFactory(kind: .fine)])
        let violations = SerializerRules().violations(of: module)
        #expect(violations.map(\.rule) == [.validID])
        #expect(SerializerRules().violations(of: BrokenFactory(kind: .fine)).isEmpty)
    }

    @Test func aSerializerThatDoesNotFinishIsReportedAndTheRestSkipped() {
        let rules = SerializerRules(deadline: 0.05)
        let violations = rules.violations(of: BrokenFactory(kind: .slow))
        #expect(violations.map(\.rule) == [.finishesInTime])
        #expect(violations.first?.message.contains("did not finish within 0.05 s") == true)
    }

    // MARK: Inputs

    @Test(arguments: [
        (0, 64, [0]), (3, 64, [0, 1, 2, 3]), (10, 4, [0, 3, 6, 10]), (100, 1, [100]), (5, 0, []),
    ])
    func cutPointsSpreadEvenlyAndIncludeBothEnds(count: Int, max: Int, expected: [Int]) {
        let sample = Response(headers: ["Content-Type": "text/x-broken"], body: Data(repeating: 0x41, count: count))
        let rules = SerializerRules(samples: [sample], maxPrefixes: max)
        let lengths = rules.violations(of: BrokenFactory(kind: .throwsOtherError)).compactMap { violation in
            violation.message.split(separator: " ").drop { $0 != "first" }.dropFirst().first.flatMap { Int($0) }
        }
        #expect(lengths == expected)
    }

    @Test func samplesFromFixturesAreSpreadAndSkipEmptyBodies() {
        let rules = SerializerRules(samplesFrom: Self.fixtures.filter { $0.area == "json" }, maxSamples: 5)
        #expect(rules.samples.count == 5)
        #expect(rules.samples.allSatisfy { !$0.body.isEmpty })
        #expect(SerializerRules(samplesFrom: [], maxSamples: 5).samples.isEmpty)
    }
}

/// A thrown error that is not a `SerializationError`.
struct BrokenError: Error {}

/// A factory whose serializer breaks one rule (or none, for `.fine`).
struct BrokenFactory: SerializerFactory {
    enum Kind { case fine, throwsOtherError, disagrees, badDefault, slow, invalidID }
    let kind: Kind

    var format: MediaFormat {
        MediaFormat(
            id: kind == .invalidID ? "Broken.Cal" : "broken", mediaRanges: ["text/*"],
            summary: "Breaks a rule on purpose.")
    }
    var optionSchema: [SerializerOption] {
        kind == .badDefault
            ? [SerializerOption("strict", .bool, default: .string("yes"), summary: "Wrongly typed.")] : []
    }
    var defaultOptions: Void { () }
    func options(from configuration: ConfigurationOptions) throws {}
    func makeSerializer(options: Void) -> BrokenSerializer { BrokenSerializer(kind: kind) }
}

struct BrokenSerializer: ResponseSerializer {
    let kind: BrokenFactory.Kind

    var id: SerializerID {
        switch kind {
        case .disagrees: "somethingElse"
        case .invalidID: "Broken.Cal"
        default: "broken"
        }
    }
    var mediaRanges: [MediaRange] { kind == .disagrees ? ["text/plain"] : ["text/*"] }

    func serialize(_ response: Response) throws -> String {
        switch kind {
        case .throwsOtherError: throw BrokenError()
        case .slow: Thread.sleep(forTimeInterval: 0.5)
        case .fine, .disagrees, .badDefault, .invalidID: break
        }
        return ""
    }

    func emptyValue(for response: Response) throws -> String {
        if kind == .throwsOtherError { throw BrokenError() }
        return ""
    }
}
