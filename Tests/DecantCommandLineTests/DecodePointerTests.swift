import Decant
import DecantCommandLine
import Foundation
import Testing

/// `decant decode --pointer P` (issue #36 item 3): the value at a JSON Pointer, printed as `--json` prints a value,
/// and a missing path as an error (exit 1).
@Suite struct DecodePointerTests {
    static let body = #"{"data": [{"name": "Ada", "tags": ["x", "y"]}, {"name": "Grace"}], "meta": {"a/b": 1}}"#

    static func decode(_ arguments: [String], body: String = body) throws -> DecantTool.Outcome {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decant-pointer-\(UUID().uuidString)")
        try Data(body.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        return DecantTool().capture(["decode", "--content-type", "application/json"] + arguments + [url.path])
    }

    static func object(_ text: String) throws -> NSObject {
        try #require(
            try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]) as? NSObject)
    }

    @Test(arguments: [
        ("/data/0/name", #""Ada""#), ("/data/0/tags", #"["x", "y"]"#), ("/meta/a~1b", "1"),
        ("#/data/1", #"{"name": "Grace"}"#),
        ("", body),
    ])
    func theValueAtThePointerIsPrintedUnderValue(_ pointer: String, _ expected: String) throws {
        let outcome = try Self.decode(["--json", "--pointer", pointer])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        let printed = try #require(try Self.object(outcome.standardOutput) as? [String: Any])
        #expect(printed["serializer"] as? String == "json")
        #expect(printed["mediaType"] as? String == "application/json")
        // Foundation's JSONSerialization reads both the printed value and the expected text.
        #expect((printed["value"] as? NSObject) == (try Self.object(expected)))
    }

    @Test func withoutJSONTheValueIsPrintedAsDecodeAlwaysPrintsIt() throws {
        let outcome = try Self.decode(["--pointer", "/data/1"])
        #expect(outcome.status == 0)
        #expect(outcome.standardOutput.hasPrefix("serializer: json\n"))
        #expect(outcome.standardOutput.contains("value:\n{\n  \"name\": \"Grace\"\n}"))
    }

    @Test func aMissingPathExitsOneWithTheMessage() throws {
        let outcome = try Self.decode(["--pointer", "/data/2/name"])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("[pointerNotFound]"))
        #expect(outcome.standardError.contains("'/data', is an array of 2 elements with no element 2"))
        let json = try Self.decode(["--json", "--pointer", "/data/0/age"])
        #expect(json.status == 1)
        let error = try #require((try Self.object(json.standardOutput) as? [String: Any])?["error"] as? [String: Any])
        #expect(error["code"] as? String == "pointerNotFound")
    }

    @Test(arguments: [["--pointer", "data"], ["--pointer", "/a", "--stream"], ["--pointer", "/a~2"]])
    func aBadPointerIsAUsageError(_ arguments: [String]) throws {
        #expect(try Self.decode(arguments).status == 2)
    }

    @Test func everyOtherOutputOfDecodeIsUnchanged() throws {
        let plain = try Self.decode(["--json"])
        let rooted = try Self.decode(["--json", "--pointer", ""])
        #expect(plain.status == 0)
        #expect(try Self.object(plain.standardOutput) == Self.object(rooted.standardOutput))
    }
}
