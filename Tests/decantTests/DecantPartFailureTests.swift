import Foundation
import Testing

/// A multipart body whose part failed still decodes (exit 0), and the tool says what failed in that part, in full:
/// a `part failed:` line, or `"partFailures"` with `--json`; with whitespace bodies, the binary formats' values.
@Suite struct DecantPartFailureTests {
    /// A JSON part cut short, then a text part.
    static let body = Data(
        "--b\r\nContent-Type: application/json\r\n\r\n{\"a\":\r\n--b\r\nContent-Type: text/plain\r\n\r\nok\r\n--b--\r\n"
            .utf8)
    static let arguments = ["decode", "--content-type", "multipart/mixed; boundary=b", "-"]

    @Test func aFailedPartIsReportedInFull() throws {
        let result = try DecantToolTests.run(Self.arguments, stdin: Self.body)
        #expect(result.status == 0)
        let line = result.stdout.split(separator: "\n").first { $0.hasPrefix("part failed: ") }
        #expect(line?.hasPrefix("part failed: [invalidBody] Part 1 (index 0): ") == true, "\(result.stdout)")
        #expect(line?.contains("ends too early") == true)
    }

    @Test func jsonOutputListsThePartFailures() throws {
        let result = try DecantToolTests.run(["decode", "--json"] + Self.arguments.dropFirst(), stdin: Self.body)
        #expect(result.status == 0)
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let failures = try #require(object["partFailures"] as? [[String: Any]])
        #expect(failures.count == 1)
        #expect(failures.first?["code"] as? String == "invalidBody")
        #expect((failures.first?["message"] as? String)?.hasPrefix("Part 1 (index 0): ") == true)
        #expect(failures.first?["serializer"] as? String == "json")
        // The canonical value is unchanged: the part's error is its code there.
        let parts = try #require((object["value"] as? [String: Any])?["parts"] as? [[String: Any]])
        #expect(parts.first?["error"] as? String == "invalidBody")
    }

    @Test func noPartFailuresNoMember() throws {
        let body = Data("--b\r\nContent-Type: text/plain\r\n\r\nok\r\n--b--\r\n".utf8)
        let result = try DecantToolTests.run(["decode", "--json"] + Self.arguments.dropFirst(), stdin: body)
        #expect(result.status == 0)
        #expect(!result.stdout.contains("partFailures"))
    }

    /// Whitespace bytes are values in binary formats (issue #34's probe): CBOR 0x20 is -1, MessagePack 0x20 is 32,
    /// a CBOR sequence of two is [-1, -1].
    @Test(
        arguments: [
            ("application/cbor", [0x20], "-1"), ("application/cbor", [0x0A], "10"),
            ("application/msgpack", [0x20], "32"),
            ("application/cbor-seq", [0x20, 0x20], "[-1,-1]"),
        ] as [(String, [UInt8], String)])
    func whitespaceBytesAreValues(contentType: String, bytes: [UInt8], value: String) throws {
        let result = try DecantToolTests.run(
            ["decode", "--json", "--content-type", contentType, "-"], stdin: Data(bytes))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("\"value\":\(value)}"), "\(result.stdout)")
    }
}
