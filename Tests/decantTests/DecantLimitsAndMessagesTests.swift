import Foundation
import Testing

/// Issue 34: a configured limit never traps the tool, absurd limits are refused with the key path, the value and the
/// allowed range, and inputs or outputs that are directories or devices get a message that says what to do (exit 1).
@Suite struct DecantLimitsAndMessagesTests {
    /// 1 TiB, the largest byte limit a configuration may set (`BodySizeLimit.maxConfigurableBytes`).
    static let maximum = 1 << 40

    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("decant-limits-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    /// A configuration file with one `string` chain whose `limits` member is `limits`.
    static func configuration(limits: String, in directory: URL) throws -> String {
        let file = directory.appendingPathComponent("chain-\(UUID()).json")
        try Data(#"{"version": 1, "chains": [{"name": "c", "serializers": ["string"], "limits": \#(limits)}]}"#.utf8)
            .write(to: file)
        return file.path
    }

    @Test(arguments: [
        ("maxBodyBytes", "9223372036854775807"), ("maxBodyBytes", "1099511627777"),
        ("maxDecodedBytes", "9223372036854775807"), ("maxBodyBytes", "-1"),
    ])
    func anAbsurdByteLimitIsRefusedWithItsRange(key: String, value: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.configuration(limits: "{\"\(key)\": \(value)}", in: directory)
        let check = try DecantToolTests.run(["config", "check", config])
        #expect(check.status == 1)
        #expect(check.stderr.contains("chains[0].limits.\(key): must be an integer from 0 to \(Self.maximum)"))
        #expect(check.stderr.contains("not \(value)"))
        let json = try DecantToolTests.run(["config", "check", "--json", config])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let problems = try #require(object["problems"] as? [[String: Any]])
        #expect(problems.map { $0["keyPath"] as? String } == ["chains[0].limits.\(key)"])
        // Loading it to decode fails the same way, and does not trap.
        let decode = try DecantToolTests.run(
            ["decode", "--config", config, "--content-type", "text/plain", "-"], stdin: Data("hi".utf8))
        #expect(decode.status == 1)
        #expect(decode.stderr.contains("chains[0].limits.\(key)"))
    }

    /// The largest allowed limits work, for a bare body and a raw message (whose read allowance adds to the limit).
    @Test func theLargestByteLimitsDecode() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let config = try Self.configuration(
            limits: "{\"maxBodyBytes\": \(Self.maximum), \"maxDecodedBytes\": \(Self.maximum)}", in: directory)
        let check = try DecantToolTests.run(["config", "check", config])
        #expect(check.status == 0, "\(check.stderr)")
        #expect(check.stdout.contains("max body bytes: \(Self.maximum)"))
        let bare = try DecantToolTests.run(
            ["decode", "--json", "--config", config, "--content-type", "text/plain", "-"], stdin: Data("hi".utf8))
        #expect(bare.status == 0, "\(bare.stderr)")
        #expect(bare.stdout.contains(#""text":"hi""#))
        let message = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\nhi"
        let raw = try DecantToolTests.run(["decode", "--json", "--config", config, "-"], stdin: Data(message.utf8))
        #expect(raw.status == 0, "\(raw.stderr)")
        #expect(raw.stdout.contains(#""text":"hi""#))
    }

    @Test func decodingADirectorySaysItIsOne() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for arguments in [["decode"], ["decode", "--content-type", "text/plain"], ["decode", "--stream"]] {
            let result = try DecantToolTests.run(arguments + [directory.path])
            #expect(result.status == 1, "\(arguments)")
            #expect(
                result.stderr.contains("cannot read \(directory.path): it is a directory, not a file"), "\(arguments)")
            #expect(!result.stderr.contains("error 21"))
        }
    }

    @Test(arguments: ["--png", "--rgba"])
    func writingAnImageToADirectorySaysItIsOne(_ option: String) throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try DecantToolTests.run(
            ["decode", "--content-type", "image/png", option, directory.path, "-"], stdin: Data())
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot write \(option) \(directory.path): it is a directory"))
        #expect(!result.stderr.contains("NSCocoaErrorDomain"))
        let missing = directory.appendingPathComponent("no/such/dir/out.png").path
        let nowhere = try DecantToolTests.run(
            ["decode", "--content-type", "image/png", option, missing, "-"], stdin: Data())
        #expect(nowhere.status == 1)
        #expect(nowhere.stderr.contains("the directory \(directory.path)/no/such/dir does not exist"))
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/dev/zero")))
    func checkingADeviceRefusesIt() throws {
        let result = try DecantToolTests.run(["config", "check", "/dev/zero"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("it is not a regular file (a character device)"))
        #expect(!result.stderr.contains("check that the file is readable"))
    }

    @Test func checkingAHugeFileRefusesIt() throws {
        let directory = try Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("huge.json")
        try Data(repeating: 0x20, count: 4 * 1024 * 1024 + 1).write(to: file)
        let result = try DecantToolTests.run(["config", "check", file.path])
        #expect(result.status == 1)
        #expect(result.stderr.contains("is 4194305 bytes, more than a configuration file may be (4194304 bytes"))
    }
}
