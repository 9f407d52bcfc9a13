import Foundation
import Testing

/// `decant decode --stream`: one JSON line per record, printed while the input still arrives.
@Suite struct DecantStreamTests {
    private func run(_ arguments: [String], stdin: String) throws -> DecantToolTests.Result {
        try DecantToolTests.run(arguments, stdin: Data(stdin.utf8))
    }

    @Test func ndjsonRecordsAreLinesOfCanonicalJSON() throws {
        let result = try run(
            ["decode", "--stream", "--content-type", "application/x-ndjson", "-"],
            stdin: "{\"a\": 1}\n\n{\"b\": [true, null]}\r\n\"text\"")
        #expect(result.stdout == "{\"a\":1}\n{\"b\":[true,null]}\n\"text\"\n")
        #expect(result.status == 0)
    }

    @Test func eventStreamFromARawMessage() throws {
        let message =
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n\r\n: ping\ndata: hi\n\nevent: x\nid: 7\ndata: 1\n\n"
        let result = try run(["decode", "--stream", "-"], stdin: message)
        #expect(
            result.stdout
                == "{\"type\":\"message\",\"data\":\"hi\",\"lastEventID\":\"\"}\n"
                + "{\"type\":\"x\",\"data\":\"1\",\"lastEventID\":\"7\"}\n")
        #expect(result.status == 0)
    }

    @Test func aBadRecordEndsTheStreamWithItsError() throws {
        let result = try run(
            ["decode", "--stream", "--json", "--content-type", "application/x-ndjson", "-"],
            stdin: "{\"a\":1}\nnope\n{\"c\":3}\n")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first == "{\"a\":1}")
        #expect(lines.count == 2)
        let error = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: [String: Any]]
        #expect(error?["error"]?["code"] as? String == "invalidBody")
        #expect(error?["error"]?["serializer"] as? String == "ndjson")
        #expect(error?["error"]?["offset"] as? Int == 8)
        #expect(result.status == 1)
    }

    @Test func anErrorStatusIsDecodedIntoTheError() throws {
        let message = "HTTP/1.1 404 Not Found\r\nContent-Type: application/json\r\n\r\n{\"title\": \"gone\"}"
        let result = try run(["decode", "--stream", "--json", "-"], stdin: message)
        let error = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: [String: Any]]
        #expect(error?["error"]?["code"] as? String == "unacceptableStatusCode")
        #expect(error?["error"]?["status"] as? Int == 404)
        #expect((error?["error"]?["errorValue"] as? [String: String])?["title"] == "gone")
        #expect(result.status == 1)
    }

    @Test func aTypeThatDoesNotStreamSaysSo() throws {
        let result = try run(["decode", "--stream", "--content-type", "application/json", "-"], stdin: "{}")
        #expect(result.stderr.contains("[noSerializer] No streaming serializer accepts application/json"))
        #expect(result.status == 1)
    }

    @Test func chunkedFramingLeftInTheBodyIsExplained() throws {
        let message =
            "HTTP/1.1 200 OK\r\nContent-Type: application/x-ndjson\r\nTransfer-Encoding: chunked\r\n\r\n8\r\n{\"a\":1}\n\r\n0\r\n\r\n"
        let result = try run(["decode", "--stream", "-"], stdin: message)
        #expect(result.stderr.contains("still has its chunked framing"))
        #expect(result.status == 1)
    }

    /// The first record is printed before the rest of the input is written: the tool reads and prints as bytes
    /// arrive, not at the end.
    @Test func recordsArePrintedWhileTheInputArrives() throws {
        let executable = try #require(DecantToolTests.executable)
        let process = Process()
        process.executableURL = executable
        process.arguments = ["decode", "--stream", "--content-type", "application/x-ndjson", "-"]
        let input = Pipe()
        let output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // A watchdog: a tool that waited for the end of its input would otherwise block this test forever. Generous,
        // because every test runs at once on a busy machine; it only delays the failure of a tool that waits.
        let watchdog = DispatchWorkItem { try? input.fileHandleForWriting.close() }
        DispatchQueue.global().asyncAfter(deadline: .now() + 120, execute: watchdog)
        input.fileHandleForWriting.write(Data("{\"first\":1}\n{\"second\":".utf8))
        let first = output.fileHandleForReading.availableData
        let stillOpen = !watchdog.isCancelled && process.isRunning
        watchdog.cancel()
        input.fileHandleForWriting.write(Data("2}\n".utf8))
        try? input.fileHandleForWriting.close()
        let rest = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(String(decoding: first, as: UTF8.self) == "{\"first\":1}\n")
        #expect(stillOpen)
        #expect(String(decoding: rest, as: UTF8.self) == "{\"second\":2}\n")
        #expect(process.terminationStatus == 0)
    }
}
