import DecantTestSupport
import Foundation
import Testing

/// The tool's output at size (issue 34): `--json` strings are escaped as Python's `json.dumps(text,
/// ensure_ascii=False)` writes them, and large outputs and long record streams come out byte for byte as before,
/// through the buffered writer. Every expected value comes from Python's `json`; no timing is asserted.
@Suite struct DecantOutputTests {
    /// A scratch directory, removed by the caller.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("decant-output-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Runs the tool with its standard output in a file (a large output would fill a pipe nobody reads yet).
    static func run(_ arguments: [String], in directory: URL) throws -> (status: Int32, stdout: URL, stderr: String) {
        let executable = try #require(DecantToolTests.executable, "the decant executable is built beside the tests")
        let stdout = directory.appendingPathComponent("stdout-\(UUID())")
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        let outputHandle = try FileHandle(forWritingTo: stdout)
        defer { try? outputHandle.close() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = outputHandle
        let error = Pipe()
        process.standardError = error
        try process.run()
        let errorText = error.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, stdout, String(decoding: errorText, as: UTF8.self))
    }

    /// Python checks each line of `output`: it parses as JSON, and `json.dumps(value, ensure_ascii=False,
    /// separators=(",", ":"))` writes exactly the line again (so every string is escaped as Python escapes it). Prints
    /// the number of lines.
    static let pythonRewritesEveryLine = """
        import json, sys
        data = open(sys.argv[1], "rb").read()
        assert data.endswith(b"\\n"), "the output does not end with a newline"
        lines = data[:-1].split(b"\\n")
        for number, line in enumerate(lines):
            again = json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":")).encode()
            assert again == line, "line %d differs from json.dumps: %r... != %r..." % (number, line[:200], again[:200])
        print(len(lines))
        """

    /// Texts with every byte that needs an escape, and characters that must not be escaped.
    static let texts: [(name: String, body: Data)] = {
        var controls = Data((0..<0x20).map { UInt8($0) })
        controls.append(contentsOf: Array("\"\\/\u{7F} a".utf8))
        let unicode = Data("é\u{FFFD}😀\u{2028}\u{2029}漢字\u{10FFFF}\u{0}\"\\\n".utf8)
        // Bytes that are not UTF-8: the string serializer replaces each with U+FFFD, as Python's errors="replace".
        let invalid = Data([0xFF, 0x41, 0xC0, 0x0A, 0xE2, 0x82, 0x61, 0xED, 0xA0, 0x80, 0x01, 0xF0, 0x9F, 0x98])
        // Large-ish: all of these over and over, about 1.5 MB.
        var large = Data()
        while large.count < 1_500_000 { large.append(controls + unicode + Data("plain text ".utf8)) }
        return [("controls", controls), ("unicode", unicode), ("invalid UTF-8", invalid), ("large", large)]
    }()

    @Test(.enabled(if: Python.isAvailable), arguments: texts.indices)
    func jsonStringsAreEscapedAsPythonEscapesThem(_ index: Int) throws {
        let (name, body) = Self.texts[index]
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("body.txt")
        try body.write(to: input)
        let result = try Self.run(
            ["decode", "--json", "--content-type", "text/plain;charset=utf-8", input.path], in: directory)
        #expect(result.status == 0, "\(name): \(result.stderr)")
        // The whole line, from Python: the body decoded as UTF-8 with replacement, written by json.dumps.
        let expected = try Python.run(
            """
            import json, sys
            text = open(sys.argv[1], "rb").read().decode("utf-8", errors="replace")
            value = {"text": text, "encoding": "UTF-8"}
            line = {"serializer": "string", "mediaType": "text/plain;charset=utf-8", "value": value}
            sys.stdout.buffer.write(json.dumps(line, ensure_ascii=False, separators=(",", ":")).encode() + b"\\n")
            """, [input.path])
        let output = try Data(contentsOf: result.stdout)
        #expect(output == expected, "\(name): the output differs from Python's json.dumps")
        // And read back, the string is the text itself.
        let check = try Python.run(
            """
            import json, sys
            text = open(sys.argv[1], "rb").read().decode("utf-8", errors="replace")
            assert json.loads(open(sys.argv[2], "rb").read())["value"]["text"] == text
            print("same")
            """, [input.path, result.stdout.path])
        #expect(String(decoding: check, as: UTF8.self) == "same\n")
    }

    /// Without `--json` a large text is printed as it is, after its header lines.
    @Test func largeTextIsPrintedUnchanged() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var body = Data()
        while body.count < 3_000_000 { body.append(Data("line \(body.count) \u{1}\t\"é😀\"\n".utf8)) }
        let input = directory.appendingPathComponent("body.txt")
        try body.write(to: input)
        let result = try Self.run(["decode", "--content-type", "text/plain;charset=utf-8", input.path], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let output = try Data(contentsOf: result.stdout)
        #expect(output.starts(with: Data("serializer: string\n".utf8)))
        let textStart = try #require(output.range(of: Data("\ntext:\n".utf8)))
        #expect(output[textStart.upperBound...] == body + Data("\n".utf8))
    }

    /// A large XML document's `--json` form: one line, its canonical XML escaped as Python escapes it.
    @Test(.enabled(if: Python.isAvailable))
    func largeXMLJSONIsOneLinePythonWritesAgain() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var xml = "<r>\n"
        for index in 0..<40_000 { xml += "<e a=\"\(index)\" b='\"q\"'>v\(index)&amp;\t</e>\n" }
        xml += "</r>"
        let input = directory.appendingPathComponent("body.xml")
        try Data(xml.utf8).write(to: input)
        let result = try Self.run(["decode", "--json", "--content-type", "application/xml", input.path], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = try Python.run(Self.pythonRewritesEveryLine, [result.stdout.path])
        #expect(String(decoding: lines, as: UTF8.self) == "1\n")
    }

    /// `--stream` on a long NDJSON body: each record's line is what Python's json.dumps writes for the input line.
    @Test(.enabled(if: Python.isAvailable))
    func longNDJSONStreamsMatchPython() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var body = ""
        for index in 0..<30_000 {
            body += #"{"id": \#(index), "name": "record \u0001 \"\#(index)\" é😀", "tags": ["a", "\\", "\n"], "#
            body += #""ok": true, "none": null}"# + "\n"
        }
        let input = directory.appendingPathComponent("body.ndjson")
        try Data(body.utf8).write(to: input)
        let result = try Self.run(
            ["decode", "--stream", "--content-type", "application/x-ndjson", input.path], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try Python.run(
            """
            import json, sys
            for line in open(sys.argv[1], "rb"):
                text = json.dumps(json.loads(line), ensure_ascii=False, separators=(",", ":"))
                sys.stdout.buffer.write(text.encode() + b"\\n")
            """, [input.path])
        #expect(try Data(contentsOf: result.stdout) == expected)
    }

    /// `--stream` on many server-sent events: one line per event, in order, none lost at a buffer boundary.
    @Test(.enabled(if: Python.isAvailable))
    func manyEventsStreamOneLineEach() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = 50_000
        let body = (0..<count).map { "id: \($0)\ndata: event \($0) \"é\"\n\n" }.joined()
        let input = directory.appendingPathComponent("body.sse")
        try Data(body.utf8).write(to: input)
        let result = try Self.run(
            ["decode", "--stream", "--content-type", "text/event-stream", input.path], in: directory)
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try Python.run(
            """
            import json, sys
            for i in range(int(sys.argv[1])):
                event = {"type": "message", "data": 'event %d "é"' % i, "lastEventID": str(i)}
                sys.stdout.buffer.write(json.dumps(event, ensure_ascii=False, separators=(",", ":")).encode() + b"\\n")
            """, [String(count)])
        #expect(try Data(contentsOf: result.stdout) == expected)
    }
}
