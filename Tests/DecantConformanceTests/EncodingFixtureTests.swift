import Decant
import DecantConformance
import DecantJSON
import Foundation
import Testing

/// The writing cases' runner: what passes, and that each kind of mismatch fails with a message saying where.
@Suite struct EncodingFixtureTests {
    static func run(_ document: String) throws -> ConformanceResult {
        let fixture = EncodingFixture(
            area: "json", name: "case", document: try JSONParser().parse(Data(document.utf8)),
            url: URL(fileURLWithPath: "/tmp/case.encode.json"))
        return ConformanceRunner(registry: .standard).run(writing: fixture)
    }

    /// `{"a":1}` in hex.
    static let hex = Data(#"{"a":1}"#.utf8).map { String($0, radix: 16) }.joined()

    @Test func aCorrectCasePasses() throws {
        let result = try Self.run(
            #"{"value": {"a": 1}, "as": "application/json", "expect": {"serializer": "json", "#
                + #""contentType": "application/json", "body": {"hex": "\#(Self.hex)"}}}"#)
        #expect(result.passed, "\(result.failure ?? "")")
        #expect(result.module == "DecantJSON")
        let text = try Self.run(
            #"{"value": {"a": 1}, "as": "application/json", "expect": {"body": {"text": "{\"a\":1}"}}}"#)
        #expect(text.passed, "\(text.failure ?? "")")
    }

    @Test func aDifferentBodySaysWhereItDiffers() throws {
        let result = try Self.run(
            #"{"value": {"a": 2}, "as": "application/json", "expect": {"body": {"hex": "\#(Self.hex)"}}}"#)
        let failure = try #require(result.failure)
        #expect(failure.contains("at byte 5 (expected 7 bytes, got 7): expected 31 7d, got 32 7d"), "\(failure)")
    }

    @Test func aDifferentContentTypeOrFormatFails() throws {
        let type = try Self.run(
            #"{"value": 1, "as": "application/json", "expect": {"contentType": "text/json", "body": {"text": "1"}}}"#)
        #expect(type.failure?.contains("expected the Content-Type text/json, got application/json") == true)
        let format = try Self.run(
            #"{"value": 1, "as": "application/json", "expect": {"serializer": "string", "body": {"text": "1"}}}"#)
        #expect(format.failure?.contains("expected the format 'string' to write, but 'json' wrote it") == true)
    }

    @Test func anExpectedErrorIsCheckedAndAMissingOneFails() throws {
        let notAcceptable = try Self.run(
            #"{"value": [1], "accept": "image/*", "expect": {"error": {"code": "notAcceptable", "#
                + #""messageContains": "application/json"}}}"#)
        #expect(notAcceptable.passed, "\(notAcceptable.failure ?? "")")
        let wrongCode = try Self.run(
            #"{"value": [1], "accept": "image/*", "expect": {"error": {"code": "noSerializer"}}}"#)
        #expect(wrongCode.failure?.contains("expected the error code noSerializer, got notAcceptable") == true)
        let written = try Self.run(
            #"{"value": [1], "as": "application/json", "expect": {"error": {"code": "notAcceptable"}}}"#)
        #expect(written.failure?.contains("expected an error, but 'json' wrote 3 bytes as application/json") == true)
    }

    @Test func aMisspeltKeyIsNamedWithTheNearestOne() throws {
        let result = try Self.run(#"{"vlaue": 1, "as": "application/json", "expect": {"body": {"text": "1"}}}"#)
        #expect(result.failure?.contains(#"unknown key "vlaue"; did you mean "value"?"#) == true, "\(result)")
        let body = try Self.run(#"{"value": 1, "as": "application/json", "expect": {"body": {"hx": "31"}}}"#)
        #expect(body.failure?.contains(#"in "expect.body"; did you mean "hex"?"#) == true, "\(body)")
    }

    @Test func acceptAndAsTogetherAreRejected() throws {
        let result = try Self.run(
            #"{"value": 1, "as": "application/json", "accept": "*/*", "expect": {"body": {"text": "1"}}}"#)
        #expect(result.failure?.contains(#""accept" negotiates the format"#) == true, "\(result)")
    }

    @Test func theWriterIsChosenLikeDecantEncode() throws {
        // Only "string" writes text/plain from {"text", "encoding"}; naming "json" for it finds no writer.
        let result = try Self.run(
            #"{"value": {"text": "é", "encoding": "windows-1252"}, "as": "text/plain", "serializer": "json", "#
                + #""expect": {"error": {"code": "noSerializer", "messageContains": "'json' does not write"}}}"#)
        #expect(result.passed, "\(result.failure ?? "")")
        let string = try Self.run(
            #"{"value": {"text": "é", "encoding": "windows-1252"}, "as": "text/plain", "#
                + #""expect": {"contentType": "text/plain;charset=windows-1252", "body": {"hex": "e9"}}}"#)
        #expect(string.passed, "\(string.failure ?? "")")
    }
}
