import Decant
import DecantCommandLine
import DecantConformance
import Foundation
import Testing

/// `decant encode` (issue #38 item 5): a value in its canonical JSON form written as a body, by media type or by
/// `Accept` negotiation, and read back by `decant decode`.
@Suite struct EncodeCommandTests {
    static func file(_ bytes: Data) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("decant-encode-\(UUID().uuidString)")
        try bytes.write(to: url)
        return url.path
    }

    static func encode(_ input: String, _ arguments: [String]) throws -> DecantTool.Outcome {
        let path = try file(Data(input.utf8))
        defer { try? FileManager.default.removeItem(atPath: path) }
        return DecantTool().capture(["encode"] + arguments + [path])
    }

    static func jsonObject(_ data: Data) throws -> NSObject {
        try #require(try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) as? NSObject)
    }

    @Test(arguments: [
        #"{"b": [1, 2.50, "é", {"c": null}], "a": true}"#, #"[]"#, #""just a string""#, #"-12.5e3"#,
    ])
    func jsonIsWrittenAsTheSameValue(_ input: String) throws {
        let outcome = try Self.encode(input, ["--content-type", "application/json"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // Foundation's JSONSerialization is the independent reader of both.
        #expect(try Self.jsonObject(outcome.standardOutputBytes) == Self.jsonObject(Data(input.utf8)))
    }

    @Test func textIsWrittenInTheEncodingItsFormNames() throws {
        let outcome = try Self.encode(
            #"{"text": "café", "encoding": "windows-1252"}"#, ["--content-type", "text/plain", "--http"])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        // Python: "café".encode("cp1252") == b"caf\xe9".
        let expected =
            Data("HTTP/1.1 200 OK\r\nContent-Type: text/plain;charset=windows-1252\r\nContent-Length: 4\r\n\r\n".utf8)
            + Data([0x63, 0x61, 0x66, 0xE9])
        #expect(outcome.standardOutputBytes == expected)
        let asked = try Self.encode(
            #"{"text": "日本", "encoding": "UTF-8"}"#, ["--content-type", "text/plain;charset=shift_jis"])
        // Python: "日本".encode("shift_jis") == b"\x93\xfa\x96{".
        #expect(asked.standardOutputBytes == Data([0x93, 0xFA, 0x96, 0x7B]))
    }

    @Test func acceptChoosesAmongTheFormatsThatCanWriteTheValue() throws {
        let object = try Self.encode(#"{"id": 1}"#, ["--accept", "text/html, application/json;q=0.1", "--http"])
        #expect(object.status == 0, "\(object.standardError)")
        #expect(object.standardOutput.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"))
        let text = try Self.encode(
            #"{"text": "<p>hi</p>", "encoding": "UTF-8"}"#, ["--accept", "text/html, application/json;q=0.1", "--http"])
        #expect(text.standardOutput.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/html;charset=utf-8\r\n"))
        #expect(text.standardOutput.hasSuffix("\r\n\r\n<p>hi</p>"))
    }

    @Test func theTraceSaysWhyEachFormatWasOrWasNotChosen() throws {
        let outcome = try Self.encode(#"{"id": 1}"#, ["--accept", "text/html, application/json;q=0.1", "--explain"])
        #expect(outcome.standardError.contains("1. json → application/json (q=0.1, by application/json)"))
        #expect(outcome.standardError.contains("skipped string: This JSON is not the canonical form of a DecodedText"))
        #expect(outcome.standardError.contains("chosen: json → application/json"))
    }

    @Test func whatWasWrittenDecodesBackToTheSameValue() throws {
        let input = #"{"users": [{"id": 7, "name": "Zoë"}], "next": null}"#
        let written = try Self.encode(input, ["--accept", "application/json", "--http"])
        let path = try Self.file(written.standardOutputBytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoded = DecantTool().capture(["decode", "--json", path])
        #expect(decoded.status == 0, "\(decoded.standardError)")
        let object = try #require(try Self.jsonObject(decoded.standardOutputBytes) as? [String: Any])
        let value = try #require(object["value"])
        #expect(
            try JSONSerialization.data(withJSONObject: value, options: .sortedKeys)
                == JSONSerialization.data(withJSONObject: Self.jsonObject(Data(input.utf8)), options: .sortedKeys))
    }

    @Test func nothingAcceptableListsWhatTheValueCanBeWrittenAs() throws {
        let outcome = try Self.encode(#"{"id": 1}"#, ["--accept", "text/html, image/*"])
        #expect(outcome.status == 1)
        #expect(outcome.standardOutputBytes.isEmpty)
        #expect(outcome.standardError.contains("[notAcceptable]"))
        #expect(outcome.standardError.contains("'Accept: text/html, image/*'"))
        #expect(outcome.standardError.contains("application/json"))
    }

    @Test func aValueThatDoesNotFitTheFormatNamesTheFormExpected() throws {
        let outcome = try Self.encode(#"[1, 2]"#, ["--content-type", "text/plain"])
        #expect(outcome.status == 1)
        #expect(outcome.standardError.contains("[unsupportedValue]"))
        #expect(outcome.standardError.contains(#"{"text": TEXT, "encoding": NAME}"#))
        #expect(!outcome.standardError.contains(".."), "one sentence ends once: \(outcome.standardError)")
        let unknown = try Self.encode(#"{"id": 1}"#, ["--content-type", "image/x-unknown"])
        #expect(unknown.status == 1)
        #expect(unknown.standardError.contains("No installed format writes image/x-unknown"))
        let notJSON = try Self.encode("{id: 1}", ["--content-type", "application/json"])
        #expect(notJSON.status == 1)
        #expect(notJSON.standardError.contains("the input is not JSON"))
    }

    @Test(arguments: [
        ["--content-type", "application/json", "--accept", "*/*"], [], ["--content-type", "not a type"],
    ])
    func usageErrorsExitTwo(_ arguments: [String]) throws {
        let outcome = try Self.encode("{}", arguments)
        #expect(outcome.status == 2, "\(outcome.standardError)")
    }
}

/// `decant encode --from-response` / `--from-type`: a body read through the registry and its value written again, for
/// the values whose canonical form cannot be turned back into them (images, multipart bodies).
@Suite struct EncodeFromBodyTests {
    static let fixtures = FixtureLoader.fixturesDirectory()

    static func expectedValue(_ relativePath: String) throws -> JSONValue {
        let url = try #require(fixtures).appendingPathComponent(relativePath)
        return try #require(try JSONParser().parse(Data(contentsOf: url))["expect"]?["value"])
    }

    static func decodedValue(_ outcome: DecantTool.Outcome, arguments: [String]) throws -> JSONValue {
        let path = try EncodeCommandTests.file(outcome.standardOutputBytes)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let decoded = DecantTool().capture(["decode", "--json", "--no-preview"] + arguments + [path])
        #expect(decoded.status == 0, "\(decoded.standardError)")
        return try #require(try JSONParser().parse(decoded.standardOutputBytes)["value"])
    }

    @Test func aJPEGIsWrittenAsAPNGOfTheSamePixels() throws {
        let input = try #require(Self.fixtures).appendingPathComponent("image/jpeg.http").path
        let outcome = DecantTool().capture(["encode", "--content-type", "image/png", "--from-response", input])
        #expect(outcome.status == 0, "\(outcome.standardError)")
        #expect(outcome.standardOutputBytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]))
        let png = try Self.decodedValue(outcome, arguments: ["--content-type", "image/png"])
        // The fixture's digest is Pillow's decoding of the JPEG: the PNG holds the same pixels.
        let expected = try Self.expectedValue("image/jpeg.expect.json")
        #expect(png["rgbaSHA256"] == expected["rgbaSHA256"])
        #expect(png["width"] == expected["width"] && png["height"] == expected["height"])
        #expect(png["format"]?.stringValue == "png")
    }

    @Test func aBareBodyNamesItsType() throws {
        let json = try EncodeCommandTests.file(Data(#"{"a": [1, 2]}"#.utf8))
        defer { try? FileManager.default.removeItem(atPath: json) }
        let text = try EncodeCommandTests.file(Data("café".utf8))
        defer { try? FileManager.default.removeItem(atPath: text) }
        let latin = DecantTool().capture([
            "encode", "--content-type", "text/plain;charset=windows-1252", "--from-type", "text/plain;charset=utf-8",
            text,
        ])
        #expect(latin.status == 0, "\(latin.standardError)")
        // Python: "café".encode("cp1252") == b"caf\xe9".
        #expect(latin.standardOutputBytes == Data([0x63, 0x61, 0x66, 0xE9]))
        // A JSONValue is written by JSON only: asking for a property list is 406, listing what it can be.
        let plist = DecantTool().capture([
            "encode", "--accept", "application/x-plist", "--from-type", "application/json", json,
        ])
        #expect(plist.status == 1)
        #expect(plist.standardError.contains("[notAcceptable]"), "\(plist.standardError)")
        let garbage = DecantTool().capture(["encode", "--content-type", "image/png", "--from-type", "image/png", json])
        #expect(garbage.status == 1)
        #expect(!garbage.standardError.isEmpty)
    }

    @Test(arguments: [
        ["--from-response", "--from-type", "image/png"], ["--from-type", "not a type"],
    ])
    func misuseIsAUsageError(_ options: [String]) {
        let outcome = DecantTool().capture(["encode", "--content-type", "image/png"] + options + ["-"])
        #expect(outcome.status == 2, "\(outcome.standardError)")
    }
}
