import Decant
import DecantConformance
import DecantJSON
import Foundation
import Testing

/// What the kit tells a plugin author when a fixture or a serializer is wrong: the place of the first difference, a
/// misspelt or ignored key, `"config"` paths that do not depend on where a run starts, an invalid id literal.
@Suite struct KitDiagnosticsTests {
    static let calendarJSON = """
        {"events":[{"summary":"Standup","at":9},{"summary":"Retro","at":16,"a/b~":1}],"count":2}
        """
    static let raw =
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: \(calendarJSON.utf8.count)\r\n\r\n"
        + calendarJSON

    static func failure(_ expectation: String, raw: String = raw) throws -> String? {
        let fixture = Fixture(
            area: "test", name: "case", raw: Data(raw.utf8), expectation: try JSONParser().parse(expectation),
            url: URL(fileURLWithPath: "/tmp/case.http"))
        return ConformanceRunner(registry: .standard, perturbs: false).run(fixture).first?.failure
    }

    /// An expected value with one change, and what the failure must say about it.
    @Test(arguments: [
        (
            #"{"events":[{"summary":"Standup","at":9},{"summary":"Retro!","at":16,"a/b~":1}],"count":2}"#,
            #"the value differs at /events/1/summary: expected "Retro!", got "Retro""#
        ),
        (
            #"{"events":[{"summary":"Standup","at":9},{"summary":"Retro","at":16,"a/b~":2}],"count":2}"#,
            "the value differs at /events/1/a~1b~0: expected 2, got 1"
        ),
        (
            #"{"events":[{"summary":"Standup","at":9,"room":"A"},{"summary":"Retro","at":16,"a/b~":1}],"count":2}"#,
            #"the value differs at /events/0/room: expected "A", got no member"#
        ),
        (
            #"{"events":[{"summary":"Standup"},{"summary":"Retro","at":16,"a/b~":1}],"count":2}"#,
            "the value differs at /events/0/at: expected no member, got 9"
        ),
        (
            #"{"events":[{"summary":"Standup","at":9}],"count":2}"#,
            #"the value differs at /events: expected 1 elements, got 2; the first extra one is {"summary":"Retro","#
        ),
        (
            #"{"events":{"summary":"Standup"},"count":2}"#,
            #"the value differs at /events: expected {"summary":"Standup"}, got [{"#
        ),
        (#"[1]"#, #"the value differs at the top level: expected [1], got {"events""#),
    ])
    func aWrongValueNamesThePathToTheFirstDifference(expected: String, message: String) throws {
        let failure = try Self.failure(
            #"{"serializer": "json", "expect": {"serializer": "json", "value": "#
                + expected + "}}")
        #expect(failure?.hasPrefix(message) == true, "\(failure ?? "passed")")
    }

    @Test func aLongValueIsShownBrieflyAtTheDifference() throws {
        let long = String(repeating: "x", count: 500)
        let body = #"{"a":[1,2,""# + long + #""]}"#
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n" + body
        let failure = try #require(
            try Self.failure(#"{"expect": {"serializer": "json", "value": {"a": [1, 3, "y"]}}}"#, raw: raw))
        #expect(failure == "the value differs at /a/1: expected 3, got 2")
    }

    @Test func aWrongErrorValueNamesThePathToo() throws {
        let raw = "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n\r\n{\"title\":\"Gone\"}"
        let failure = try Self.failure(
            #"{"expect": {"error": {"code": "unacceptableStatusCode", "errorValue": {"title": "Lost"}}}}"#, raw: raw)
        #expect(failure == #"the errorValue differs at /title: expected "Lost", got "Gone""#)
    }

    /// A misspelt key, where it is, and the key the message must suggest.
    @Test(arguments: [
        (#"{"expect": {"serializer": "json", "vlaue": {}}}"#, #""vlaue" in "expect"; did you mean "value"?"#),
        (#"{"serialiser": "json", "expect": {"value": {}}}"#, #""serialiser"; did you mean "serializer"?"#),
        (#"{"perturbe": false, "expect": {"value": {}}}"#, #""perturbe"; did you mean "perturb"?"#),
        (#"{"request": {"methd": "GET"}, "expect": {"value": {}}}"#, #""methd" in "request"; did you mean "method"?"#),
        (
            #"{"expect": {"error": {"code": "invalidBody", "mesageContains": "x"}}}"#,
            #""mesageContains" in "expect.error"; did you mean "messageContains"?"#
        ),
        (
            #"{"expect": {"error": {"code": "x", "attempts": [{"serialiser": "json"}]}}}"#,
            #""serialiser" in "expect.error.attempts[0]"; did you mean "serializer"?"#
        ),
    ])
    func aMisspeltKeyIsNamedWithTheNearestValidKey(expectation: String, named: String) throws {
        let failure = try #require(try Self.failure(expectation))
        #expect(failure.contains("The expectation has the unknown key " + named), "\(failure)")
        #expect(failure.contains("Allowed there: "), "\(failure)")
    }

    @Test func optionsWithoutASerializerAreAFixtureError() throws {
        let failure = try #require(
            try Self.failure(#"{"options": {"maxDepth": 1}, "expect": {"serializer": "json", "value": {}}}"#))
        #expect(failure.contains(#"has "options" but names no serializer"#), "\(failure)")
        // Per-id options naming a serializer the compound does not have are one too.
        let compound = try #require(
            try Self.failure(
                #"{"serializers": ["json", "string"], "options": {"jsn": {"maxDepth": 1}}, "expect": {"value": {}}}"#))
        #expect(compound.contains(#""jsn", which is not one of "serializers""#), "\(compound)")
        #expect(compound.contains(#"did you mean "json"?"#), "\(compound)")
    }

    @Test func optionsOfANamedSerializerStillApply() throws {
        let failure = try Self.failure(
            #"{"serializer": "json", "options": {"maxDepth": 1}, "expect": {"error": {"code": "limitExceeded"}}}"#)
        #expect(failure == nil)
    }

    /// A fixture in `root/area/` whose `"config"` names a file beside it: the same result whether the run loads
    /// `root` or `root/area`.
    @Test func configPathsResolveFromTheFixturesOwnFolder() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("decant-kit-\(UUID().uuidString)")
        let area = root.appendingPathComponent("calendar")
        try FileManager.default.createDirectory(at: area, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        let chains = #"{"version": 1, "chains": [{"name": "plain", "serializers": ["string"]}]}"#
        try Data(chains.utf8).write(to: area.appendingPathComponent("chains.json"))
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n\r\nhello"
        try Data(raw.utf8).write(to: area.appendingPathComponent("case.http"))
        let expectation = #"""
            {"config": "chains.json", "chain": "plain", "perturb": false,
             "expect": {"serializer": "string", "value": {"text": "hello", "encoding": "UTF-8"}}}
            """#
        try Data(expectation.utf8).write(to: area.appendingPathComponent("case.expect.json"))
        for start in [root, area] {
            let fixtures = try FixtureLoader.fixtures(in: start)
            #expect(fixtures.count == 1)
            let report = ConformanceRunner(registry: .standard).run(fixtures)
            #expect(report.failures.isEmpty, "from \(start.lastPathComponent): \(report.failures)")
        }
    }

    @Test func anInvalidIDLiteralFailsATestInsteadOfCrashing() throws {
        let factory = BrokenFactory(kind: .invalidID)
        #expect(factory.id.rawValue == "Broken.Cal")
        #expect(!SerializerID.isValid(factory.id.rawValue))
        let violations = SerializerRules().violations(of: factory).filter { $0.rule == .validID }
        #expect(violations.count == 1, "the format's id (the registry never asks the serializer for its own)")
        #expect(
            violations.first?.message
                == "'Broken.Cal' is not a valid serializer id: use dot-separated segments, each an ASCII lowercase "
                + "letter followed by ASCII letters and digits, such as 'json', 'propertyList' or a third party's "
                + "'acme.yaml'.")
        let registry = SerializerRegistry().installing(SerializerModule(name: "Calendar", factories: [factory]))
        #expect(registry.conflicts.map(\.kind) == [.invalidID])
        let error = #expect(throws: SerializationError.self) { try registry.checkConflicts() }
        #expect(error?.code == .registryConflict)
        #expect(error?.message.contains("'Broken.Cal' from Calendar is not a valid serializer id") == true)
    }

    @Test func noMessageOrDocumentTellsAuthorsToImplementSerializerID() throws {
        // A serializer that reports another id than its format is no longer a violation (the registry runs it under
        // the format); whatever the kit reports must not name the removed `serializerID`.
        for kind in [BrokenFactory.Kind.disagrees, .invalidID, .throwsOtherError, .badDefault] {
            let violations = SerializerRules().violations(of: BrokenFactory(kind: kind))
            #expect(!violations.contains { $0.message.contains("serializerID") })
        }
        let guide = try String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
                .appendingPathComponent(
                    "../../Sources/DecantConformance/DecantConformance.docc/WritingASerializerPlugin.md"),
            encoding: .utf8)
        #expect(!guide.contains("serializerID"))
    }
}
