import Decant
import DecantConformance
import DecantJSON
import Foundation
import Testing

/// Runs every fixture in `Fixtures/` (and its perturbed copies) against the standard registry, except the plugins'
/// areas (a folder named after a serializer id the standard registry does not have), which their own test targets
/// run with the plugin installed.
@Suite struct FixtureTests {
    static let directory = FixtureLoader.fixturesDirectory()
    static let allFixtures: [Fixture] = {
        guard let directory else { return [] }
        return (try? FixtureLoader.fixtures(in: directory)) ?? []
    }()
    static let fixtures: [Fixture] = allFixtures.filter { fixture in
        let area = String(fixture.area.prefix { $0 != "/" })
        let isSerializerArea = SerializerID(rawValue: area).map { SerializerRegistry.standard.entry(for: $0) != nil }
        return ["chains", "configured"].contains(area) || isSerializerArea == true
    }

    @Test func pluginAreasAreLeftToThePlugins() {
        let skipped = Set(Self.allFixtures.map(\.area)).subtracting(Self.fixtures.map(\.area))
        let pluginAreas: Set = [
            "csv", "form", "problemDetails", "cbor", "msgpack", "multipart", "ndjson", "eventStream", "warc", "har",
        ]
        #expect(skipped.isSubset(of: pluginAreas), "\(skipped)")
    }

    @Test func fixturesAreFoundByWalkingUpFromThisFile() throws {
        let directory = try #require(Self.directory)
        #expect(directory.lastPathComponent == "Fixtures")
        #expect(try FixtureLoader.fixtures(in: directory).count == Self.allFixtures.count)
    }

    @Test(arguments: ["json", "string", "propertyList", "image"])
    func everyBuiltInModuleHasAtLeastThirtyFixtures(area: String) {
        #expect(Self.fixtures.filter { $0.area == area }.count >= 30)
    }

    @Test(arguments: fixtures)
    func fixturePasses(fixture: Fixture) throws {
        try ConformanceRunner(registry: .standard).check([fixture])
    }

    /// The writing cases of the standard registry's areas (each plugin's test target runs its own).
    static let encodingFixtures: [EncodingFixture] = {
        guard let directory else { return [] }
        let all = (try? FixtureLoader.encodingFixtures(in: directory)) ?? []
        return all.filter { fixture in
            SerializerID(rawValue: fixture.area).map { SerializerRegistry.standard.entry(for: $0) != nil } == true
        }
    }()

    @Test(arguments: ["json", "string", "propertyList"])
    func everyWritingBuiltInModuleHasWritingCases(area: String) {
        #expect(Self.encodingFixtures.filter { $0.area == area }.count >= 3)
    }

    @Test(arguments: encodingFixtures)
    func encodingFixturePasses(fixture: EncodingFixture) throws {
        try ConformanceRunner(registry: .standard).check(writing: [fixture])
    }
}

@Suite struct ConformanceRunnerTests {
    static func fixture(_ raw: String, _ expectation: String, name: String = "case") throws -> Fixture {
        Fixture(
            area: "test", name: name, raw: Data(raw.utf8), expectation: try JSONParser().parse(expectation),
            url: URL(fileURLWithPath: "/tmp/\(name).http"))
    }

    static let okJSON =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json; a=1; b=2\r\nContent-Length: 8\r\n\r\n{\"a\": 1}"

    @Test func aCorrectExpectationPassesWithEveryPerturbation() throws {
        let fixture = try Self.fixture(Self.okJSON, #"{"expect": {"serializer": "json", "value": {"a": 1.0}}}"#)
        let results = ConformanceRunner(registry: .standard).run(fixture)
        #expect(results.allSatisfy { $0.passed }, "\(results.filter { !$0.passed }.map(\.name))")
        let perturbations = Set(results.compactMap(\.perturbation))
        #expect(
            perturbations == [
                "lowercaseHeaderNames", "uppercaseHeaderNames", "contentTypeSpacing", "parameterOrder",
                "charsetAdded", "trailingWhitespace", "chunkedBody", "roundTrip",
            ])
    }

    @Test func aDeliberatelyWrongExpectationFails() throws {
        let fixture = try Self.fixture(Self.okJSON, #"{"expect": {"serializer": "json", "value": {"a": 2}}}"#)
        let report = ConformanceRunner(registry: .standard).run([fixture])
        #expect(report.failed == 1)
        #expect(report.failures.first?.failure == "the value differs at /a: expected 2, got 1")
        let table = report.textTable()
        #expect(table.hasSuffix("0 passed, 1 failed"))
    }

    @Test func aWrongErrorCodeOrAttemptListFails() throws {
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{,}"
        let wrongCode = try Self.fixture(raw, #"{"serializer": "json", "expect": {"error": {"code": "emptyBody"}}}"#)
        let wrongCodeResults = ConformanceRunner(registry: .standard).run(wrongCode)
        #expect(wrongCodeResults.first?.passed == false)
        let wrongAttempts = try Self.fixture(
            raw,
            #"{"serializers": ["json"], "expect": {"error": {"code": "invalidBody", "attempts": [{"code": "x"}]}}}"#)
        let wrongAttemptsResults = ConformanceRunner(registry: .standard).run(wrongAttempts)
        #expect(wrongAttemptsResults.first?.passed == false)
        let right = try Self.fixture(raw, #"{"serializer": "json", "expect": {"error": {"code": "invalidBody"}}}"#)
        let rightResults = ConformanceRunner(registry: .standard).run(right)
        #expect(rightResults.allSatisfy { $0.passed })
    }

    @Test func expectingAnErrorWhenAValueComesFails() throws {
        let fixture = try Self.fixture(Self.okJSON, #"{"expect": {"error": {"code": "invalidBody"}}}"#)
        let result = try #require(ConformanceRunner(registry: .standard).run(fixture).first)
        #expect(result.failure?.contains("expected an error, but 'json' produced") == true)
    }

    @Test func checkThrowsOneFailureListingEveryFailedResult() throws {
        let good = try Self.fixture(Self.okJSON, #"{"expect": {"serializer": "json", "value": {"a": 1}}}"#)
        let bad = try Self.fixture(
            Self.okJSON, #"{"perturb": false, "expect": {"serializer": "json", "value": 0}}"#, name: "bad")
        let worse = try Self.fixture(
            Self.okJSON, #"{"perturb": false, "expect": {"error": {"code": "invalidBody"}}}"#, name: "worse")
        let runner = ConformanceRunner(registry: .standard)
        #expect(try runner.check([good]).passed == 9)  // the original, 7 perturbations, the round trip
        let failure = #expect(throws: ConformanceFailure.self) { try runner.check([good, bad, worse]) }
        let lines = failure?.description.split(separator: "\n").map(String.init) ?? []
        #expect(lines.first == "2 of 11 conformance results failed:")
        #expect(lines.dropFirst().map { $0.prefix { $0 != ":" } } == ["  test/bad", "  test/worse"])
        #expect(lines.last?.contains("expected an error, but 'json' produced") == true)
    }

    @Test func checkingNoFixtureFails() {
        #expect(throws: ConformanceFailure.self) { try ConformanceRunner(registry: .standard).check([]) }
    }

    @Test func reportsCountPerModuleInEveryFormat() throws {
        let good = try Self.fixture(
            Self.okJSON, #"{"perturb": false, "roundTrip": false, "expect": {"serializer": "json", "value": {"a": 1}}}"#
        )
        let bad = try Self.fixture(
            Self.okJSON, #"{"perturb": false, "expect": {"serializer": "json", "value": 0}}"#, name: "bad")
        let report = ConformanceRunner(registry: .standard).run([good, bad])
        #expect(report.modules.map(\.module) == ["DecantJSON"])
        #expect(report.passed == 1 && report.failed == 1)
        let json = try JSONParser().parse(report.json())
        #expect(json["passed"]?.intValue == 1)
        #expect(json["results"]?.count == 2)
        let xml = report.junitXML()
        #expect(xml.contains("<testsuite name=\"DecantJSON\" tests=\"2\" failures=\"1\">"))
        #expect(xml.contains("<failure message="))
    }
}

@Suite struct CanonicalFormTests {
    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abcd", "88d4266fd4e6338d13b845fcf289579d209c897823b9217da3e161936f031589"),
        (
            String(repeating: "a", count: 1000),
            "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3"
        ),
    ])
    func imagesHashWithSHA256(text: String, digest: String) throws {
        // Digests from Python: hashlib.sha256(text.encode()).hexdigest().
        let image = Image(
            width: text.utf8.count / 4, height: text.isEmpty ? 0 : 1, pixels: Array(text.utf8), format: .png)
        #expect(try image.conformanceValue()["rgbaSHA256"]?.stringValue == digest)
    }

    /// 280,000 bytes, hashed in blocks without a copy of the pixels: the colour of the 272 transparent pixels is
    /// zeroed first. Digest from Python: `b = bytearray((i * 13 + i // 4096) % 256 for i in range(280000))`, then
    /// `b[i-3:i] = b"\0\0\0"` where `b[i] == 0` for `i` in `range(3, len(b), 4)`, then `hashlib.sha256(b)`.
    @Test func largeImagesHashBlockByBlockWithTransparentColourZeroed() throws {
        let pixels = (0..<280_000).map { UInt8(truncatingIfNeeded: $0 * 13 + $0 / 4096) }
        let image = Image(width: 70_000, height: 1, pixels: pixels, format: .png)
        #expect(
            try image.conformanceValue()["rgbaSHA256"]?.stringValue
                == "6be61ec517d9b0cff22ee750f80f9acfae97691ca77615bf45d7013ca9c6e877")
    }
}
