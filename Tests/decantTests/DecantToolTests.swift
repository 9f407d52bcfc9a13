import Foundation
import Testing

/// The `decant` tool's documented commands and output: a contract, so these tests pin it.
@Suite struct DecantToolTests {
    struct Result {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    /// The built `decant` executable, next to the test bundle.
    static let executable: URL? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("decant")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    static func run(_ arguments: [String], stdin: Data = Data()) throws -> Result {
        let executable = try #require(Self.executable, "the decant executable is built beside the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let input = Pipe()
        let output = Pipe()
        let error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(stdin)
        try input.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus, stdout: String(decoding: out, as: UTF8.self),
            stderr: String(decoding: err, as: UTF8.self))
    }

    /// `encode --from-response` with the tool's plugins: a multipart body read and written again keeps its parts, as
    /// Python's email package read them for the fixture.
    @Test func encodeWritesAMultipartBodyReadFromAResponse() throws {
        let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../Fixtures/multipart").standardizedFileURL
        let input = fixtures.appendingPathComponent("alternative.http").path
        let written = try Self.run([
            "encode", "--content-type", "multipart/alternative", "--from-response", "--http", input,
        ])
        #expect(written.status == 0, "\(written.stderr)")
        let decoded = try Self.run(["decode", "--json", "-"], stdin: Data(written.stdout.utf8))
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let expectation =
            try JSONSerialization.jsonObject(
                with: Data(contentsOf: fixtures.appendingPathComponent("alternative.expect.json"))) as? [String: Any]
        let expected = (expectation?["expect"] as? [String: Any])?["value"] as? NSObject
        let actual = (try JSONSerialization.jsonObject(with: Data(decoded.stdout.utf8)) as? [String: Any])?["value"]
        #expect(expected != nil && expected == actual as? NSObject)
    }

    @Test func mediaTypePrintsOneSerializationPerInputAndInvalid() throws {
        let result = try Self.run([
            "media-type", "Application/Problem+JSON; Charset=UTF-8", "text/html;charset=", "nonsense",
            "text/plain;x=\"a b\"",
        ])
        #expect(
            result.stdout
                == "application/problem+json;charset=UTF-8\ntext/html\ninvalid\ntext/plain;x=\"a b\"\n")
        #expect(result.status == 1)
    }

    @Test func mediaTypeTreatsDashInputsAsInputs() throws {
        let result = try Self.run(["media-type", "-a/b", "--x", "--", "--json"])
        #expect(result.stdout == "-a/b\ninvalid\ninvalid\n")
        #expect(result.status == 1)
    }

    @Test func mediaTypeExitsZeroWhenAllAreValidAndReadsStdin() throws {
        let result = try Self.run(["media-type"], stdin: Data("TEXT/JSON\nimage/svg+xml ; a=b\n".utf8))
        #expect(result.stdout == "text/json\nimage/svg+xml;a=b\n")
        #expect(result.status == 0)
    }

    @Test func mediaTypeStrictAndJSON() throws {
        let strict = try Self.run(["media-type", "--strict", "text/html;charset =x"])
        #expect(strict.stdout == "invalid\n")
        let json = try Self.run(["media-type", "--json", "application/vnd.api+json;charset=utf-8"])
        let object = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["essence"] as? String == "application/vnd.api+json")
        #expect(object["suffix"] as? String == "json")
        #expect(object["charset"] as? String == "utf-8")
        #expect(object["groups"] as? [String] == ["JSON"])
    }

    @Test(arguments: [
        (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]), "image/png"),
        (Data("GIF89a\u{1}\0\u{1}\0".utf8), "image/gif"),
        (Data("  {\"a\": [1, 2]}".utf8), "application/json"),
        (Data([0x00, 0x01, 0x02, 0x03, 0xFF]), "unknown"),
    ])
    func sniffPrintsTheTypeOrUnknown(body: Data, expected: String) throws {
        let result = try Self.run(["sniff", "-"], stdin: body)
        #expect(result.stdout == expected + "\n")
        #expect(result.status == 0)
    }

    @Test func usageErrorsExitTwoWithTheCommandsUsage() throws {
        let unknown = try Self.run(["frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown command 'frobnicate'"))
        let badFlag = try Self.run(["sniff", "--bogus", "-"])
        #expect(badFlag.status == 2)
        #expect(badFlag.stderr.contains("Usage: decant sniff"))
        let missing = try Self.run(["sniff", "/nonexistent/file"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("cannot read /nonexistent/file"))
    }

    /// The package root, for running the tool on the committed fixtures.
    static let packageRoot: URL = {
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
            directory.deleteLastPathComponent()
        }
        return directory
    }()

    @Test func decodePrintsTheSerializerAndThePrettyValue() throws {
        let result = try Self.run(
            ["decode", "--content-type", "application/vnd.api+json", "-"], stdin: Data(#"{"title":"x","n":[1]}"#.utf8))
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("serializer: json\nmedia type: application/vnd.api+json (from Content-Type)\n"))
        #expect(result.stdout.contains("\"title\": \"x\""))
    }

    @Test func decodeJSONOutputIsOneObjectWithTheCanonicalValue() throws {
        let raw = "HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=windows-1252\r\n\r\ncaf\u{E9}"
        var body = Data(raw.utf8.dropLast(2))
        body.append(0xE9)
        let result = try Self.run(["decode", "--json", "-"], stdin: body)
        #expect(result.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["serializer"] as? String == "string")
        #expect(object["mediaType"] as? String == "text/plain;charset=windows-1252")
        let value = try #require(object["value"] as? [String: Any])
        #expect(value["text"] as? String == "caf\u{E9}")
        #expect(value["encoding"] as? String == "windows-1252")
    }

    @Test func decodeFailuresGoToStderrWithEveryAttemptAndExitOne() throws {
        let raw = Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{\"a\": 1,}".utf8)
        let text = try Self.run(["decode", "-"], stdin: raw)
        #expect(text.status == 1)
        #expect(text.stdout.isEmpty)
        #expect(text.stderr.contains("[invalidBody]"))
        let json = try Self.run(["decode", "--json", "-"], stdin: raw)
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "invalidBody")
        #expect(error["attempts"] is [Any])
    }

    @Test func decodeExplainPrintsTheTrace() throws {
        let result = try Self.run(
            ["decode", "--explain", "--content-type", "text/markdown", "-"], stdin: Data("a,b".utf8))
        #expect(result.stdout.contains("resolution:\n  media type: text/markdown (from Content-Type)"))
        #expect(result.stdout.contains("chosen: string"))
    }

    @Test func decodeExplainNamesTheProducerAndTheFailures() throws {
        let result = try Self.run(
            ["decode", "--explain", "--content-type", "text/markdown", "-"], stdin: Data("a,b".utf8))
        #expect(result.stdout.contains("  chosen: string\n  produced by: string\n"))
        let failed = try Self.run(
            ["decode", "--explain", "--content-type", "application/xml", "-"], stdin: Data("<a x='1' x='2'/>".utf8))
        #expect(failed.status == 1)
        #expect(failed.stdout.contains("  failed: xmlDocument (invalidBody)\n  produced by: none"))
    }

    /// Regression: a malformed body of a `text/` type exited 0, because the registry fell back to `string` (which
    /// matches only through `text/*`) and printed the text. The format's own error now stands; with the CSV plugin
    /// left out (`--no-plugins`), `text/csv` is plain text again.
    @Test(arguments: [
        ("text/xml", "<a><b></a>", "xmlDocument"), ("text/csv", "a,\"b\n", "csv"), ("text/json", "{\"a\":", "json"),
    ])
    func malformedTextTypesExitOneWithTheFormatsError(type: String, body: String, serializer: String) throws {
        let result = try Self.run(["decode", "--json", "--content-type", type, "-"], stdin: Data(body.utf8))
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["serializer"] as? String == serializer)
        #expect(error["code"] as? String == "invalidBody")
        #expect((error["message"] as? String)?.contains("Not tried after that failure: 'string'") == true)
        if type == "text/csv" {
            let plain = try Self.run(["--no-plugins", "decode", "--content-type", type, "-"], stdin: Data(body.utf8))
            #expect(plain.status == 0)
            #expect(plain.stdout.hasPrefix("serializer: string"))
        }
    }

    /// The CSV plugin's canonical form, the tool contract: `{"header", "rows"}`, every field a string.
    @Test func csvDecodesToItsCanonicalForm() throws {
        let result = try Self.run(
            ["decode", "--json", "--content-type", "text/csv", "-"], stdin: Data("a,b\r\n1,\"x, y\"\r\n".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["serializer"] as? String == "csv")
        let value = try #require(object["value"] as? [String: Any])
        #expect(value["header"] as? [String] == ["a", "b"])
        #expect(value["rows"] as? [[String]] == [["1", "x, y"]])
    }

    /// Regression: a malformed XML body exited 0, because the registry fell back from `xmlDocument` to the lazy
    /// `xmlParser`, which had not parsed anything yet.
    @Test(arguments: ["<a x='1' x='2'/>", "<feed><entry>", "<!DOCTYPE a [<!ENTITY a 'x'>]><a>&b;</a>"])
    func malformedXMLExitsOneWithTheDocumentError(_ body: String) throws {
        let text = try Self.run(["decode", "--content-type", "application/atom+xml", "-"], stdin: Data(body.utf8))
        #expect(text.status == 1)
        #expect(text.stderr.contains("[invalidBody] XML is not well-formed"))
        let json = try Self.run(["decode", "--json", "--content-type", "application/xml", "-"], stdin: Data(body.utf8))
        #expect(json.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["serializer"] as? String == "xmlDocument")
        #expect(error["code"] as? String == "invalidBody")
    }

    /// A gzip body whose `Content-Encoding` says so is decoded by default (`python3 -c 'import gzip;
    /// print(gzip.compress(b"[1, 2]", mtime=0).hex())'`).
    @Test func decodeDecodesAGzipBodyByDefault() throws {
        let gzip = Data(
            [
                0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02, 0x03, 0x8B, 0x36, 0xD4, 0x51, 0x30, 0x8A,
                0x05, 0x00, 0xFF, 0xE7, 0xC9, 0x61, 0x06, 0x00, 0x00, 0x00,
            ])
        let raw =
            Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Encoding: gzip\r\n\r\n".utf8) + gzip
        let result = try Self.run(["decode", "--json", "-"], stdin: raw)
        #expect(result.status == 0, "\(result.stdout)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        #expect(object["value"] as? [Int] == [1, 2])
        // Without the field, the error says the body looks compressed.
        let unlabelled = Data("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n".utf8) + gzip
        let failed = try Self.run(["decode", "-"], stdin: unlabelled)
        #expect(failed.status == 1)
        #expect(failed.stderr.contains("gzip's signature (1F 8B)"))
    }

    /// Regression: `decode` and `sniff` read their input whole, so an endless input grew until the process died.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/zero")))
    func endlessInputsAreReadOnlyAsFarAsNeeded() throws {
        let sniff = try Self.run(["sniff", "/dev/zero"])
        #expect(sniff.status == 0)
        #expect(sniff.stdout == "unknown\n")
        let decode = try Self.run(["decode", "--content-type", "text/plain", "/dev/zero"])
        #expect(decode.status == 1)
        #expect(decode.stderr.contains("[bodyTooLarge] The file /dev/zero holds more than 67108864 bytes"))
        #expect(decode.stderr.contains("stopped reading"))
    }

    @Test func decodeReadsAtMostTheConfiguredBodyLimit() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("decant-limit-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = directory.appendingPathComponent("chain.json")
        try Data(
            #"{"version": 1, "chains": [{"name": "small", "serializers": ["string"], "limits": {"maxBodyBytes": 100}}]}"#
                .utf8
        ).write(to: config)
        let body = directory.appendingPathComponent("body.txt")
        try Data(repeating: UInt8(ascii: "a"), count: 101).write(to: body)
        let result = try Self.run([
            "decode", "--json", "--config", config.path, "--content-type", "text/plain", body.path,
        ])
        #expect(result.status == 1)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let error = try #require(object["error"] as? [String: Any])
        #expect(error["code"] as? String == "bodyTooLarge")
        try Data(repeating: UInt8(ascii: "a"), count: 100).write(to: body)
        let fits = try Self.run(["decode", "--config", config.path, "--content-type", "text/plain", body.path])
        #expect(fits.status == 0, "\(fits.stderr)")
    }

    @Test func conformanceRunsTheFixtureTreeAndEndsWithTheCounts() throws {
        let fixtures = Self.packageRoot.appendingPathComponent("Fixtures").path
        let result = try Self.run(["conformance", fixtures])
        #expect(result.status == 0, "\(result.stdout)")
        let lastLine = result.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(lastLine.hasSuffix("passed, 0 failed"))
        #expect(result.stdout.contains("DecantJSON"))
        let junit = try Self.run(["conformance", "--format", "junit", "--no-perturb", fixtures])
        #expect(junit.stdout.hasPrefix("<?xml"))
        let bad = try Self.run(["conformance", "--format", "yaml", fixtures])
        #expect(bad.status == 2)
    }

    @Test func configCheckPrintsChainsAndResolution() throws {
        let config = Self.packageRoot.appendingPathComponent("Fixtures/chains/api.json").path
        let result = try Self.run(["config", "check", config])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("valid (version 1, 2 chains)"))
        #expect(result.stdout.contains("chain api"))
        #expect(result.stdout.contains("    application/json -> json"))
        let json = try Self.run(["config", "check", "--json", config])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["valid"] as? Bool == true)
    }

    @Test func configCheckPrintsEveryProblemAndExitsOne() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-bad-\(UUID()).json")
        try Data(#"{"version": 1, "chains": [{"name": "a", "serializers": ["jsn"], "sniffing": "x"}]}"#.utf8)
            .write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let result = try Self.run(["config", "check", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("has 2 problems and was not loaded"))
        #expect(
            result.stderr.contains(
                "chains[0].serializers[0].id: No serializer with the id 'jsn' is installed. Did you mean 'json'?"))
        #expect(result.stderr.contains("chains[0].sniffing"))
    }

    @Test func decodeThroughAConfiguredChain() throws {
        let config = Self.packageRoot.appendingPathComponent("Fixtures/chains/api.json").path
        let result = try Self.run(
            ["decode", "--config", config, "--chain", "api", "--content-type", "application/json", "-"],
            stdin: Data(")]}',\n[1]".utf8))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("serializer: json"))
        let missing = try Self.run(["decode", "--chain", "api", "-"])
        #expect(missing.status == 2)
    }

    @Test func helpAndVersion() throws {
        let version = try Self.run(["--version"])
        #expect(version.stdout.hasPrefix("decant "))
        #expect(version.status == 0)
        for command in ["decode", "media-type", "sniff", "conformance", "registry", "config"] {
            let help = try Self.run([command, "--help"])
            #expect(help.status == 0)
            #expect(help.stdout.contains("Usage: decant \(command)"))
        }
    }

    @Test func registryListsModulesAndResolves() throws {
        let listing = try Self.run(["registry"])
        #expect(listing.status == 0)
        #expect(listing.stdout.contains("conflicts:"))
        let json = try Self.run(["registry", "--json"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["serializers"] is [Any])
        let resolve = try Self.run(["registry", "--resolve", "application/x-nothing"])
        #expect(resolve.stdout.contains("chosen: none"))
        #expect(resolve.status == 1)
    }
}
