import Foundation
import Testing

@testable import DecantCore

@Suite struct ResponseChainTests {
    static let integerType = "text/x-integer"

    struct EmptyCase: Sendable, CustomTestStringConvertible {
        let name: String
        let response: Response
        let outcome: EmptyBodyPolicy.Outcome
        /// `nil` when the chain must throw `.emptyBody`; else the value (0 is the serializer's empty value).
        let expected: Int?
        var testDescription: String { "\(name) / \(outcome)" }
    }

    static let emptyCases: [EmptyCase] = {
        let head = Response.make(200, type: integerType, body: "", method: "HEAD", headers: [("Content-Length", "42")])
        let cases: [(String, Response)] = [
            ("204", .make(204)),
            ("205", .make(205)),
            ("304", .make(304, type: integerType)),
            ("HEAD", head),
            ("Content-Length 0", .make(200, type: integerType, headers: [("Content-Length", "0")])),
            ("no bytes", .make(200, type: integerType)),
            ("whitespace", .make(200, type: integerType, body: " \r\n\t")),
            ("Rails head :ok", .make(200, type: integerType, body: " ")),
        ]
        var result: [EmptyCase] = []
        for (name, response) in cases {
            let byProtocol = ["204", "205", "304", "HEAD"].contains(name)
            result.append(EmptyCase(name: name, response: response, outcome: .emptyValue, expected: 0))
            result.append(
                EmptyCase(
                    name: name, response: response, outcome: .emptyValueOnlyForNoContent,
                    expected: byProtocol ? 0 : nil))
            result.append(EmptyCase(name: name, response: response, outcome: .error, expected: nil))
        }
        return result
    }()

    @Test(arguments: emptyCases)
    func emptyBodyPolicyDecidesBetweenEmptyValueAndError(testCase: EmptyCase) throws {
        var chain = ResponseChain(IntegerSerializer())
        chain.emptyBodyPolicy.outcome = testCase.outcome
        // 304 is outside the default 2xx; a client that handles revalidation itself accepts it explicitly.
        chain.statusValidation.acceptable = StatusCodes([200...299, 304...304])
        if let expected = testCase.expected {
            #expect(try chain.serialize(testCase.response) == expected)
        } else {
            let error = #expect(throws: SerializationError.self) { try chain.serialize(testCase.response) }
            #expect(error?.code == .emptyBody)
            #expect(error?.response == testCase.response)
        }
    }

    /// Whitespace is emptiness only for a format that says so: otherwise the body reaches the serializer (which here
    /// rejects the space as not a digit), whatever the policy's outcome.
    @Test(arguments: [EmptyBodyPolicy.Outcome.emptyValue, .emptyValueOnlyForNoContent, .error])
    func whitespaceReachesAFormatThatDoesNotCountItAsEmpty(outcome: EmptyBodyPolicy.Outcome) {
        var serializer = IntegerSerializer()
        serializer.whitespaceIsEmpty = false
        var chain = ResponseChain(serializer)
        chain.emptyBodyPolicy.outcome = outcome
        let error = #expect(throws: SerializationError.self) {
            try chain.serialize(.make(200, type: "text/x-integer", body: " \r\n"))
        }
        #expect(error?.code == .invalidBody)
        #expect(error?.message.contains("not a decimal digit") == true)
    }

    @Test func notModifiedIsAStatusErrorUnlessAccepted() {
        let chain = ResponseChain(IntegerSerializer())
        let error = #expect(throws: SerializationError.self) { try chain.serialize(.make(304)) }
        #expect(error?.code == .unacceptableStatusCode)
    }

    @Test func whitespaceIsABodyWhenThePolicySaysSo() {
        var chain = ResponseChain(IntegerSerializer())
        chain.emptyBodyPolicy.treatsWhitespaceAsEmpty = false
        let error = #expect(throws: SerializationError.self) {
            try chain.serialize(.make(type: Self.integerType, body: " "))
        }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == 0)
    }

    @Test func unacceptableStatusKeepsTheBodyAndDecodesIt() throws {
        let chain = ResponseChain(IntegerSerializer())
        let response = Response.make(404, type: Self.integerType, body: "1234")
        let error = #expect(throws: SerializationError.self) { try chain.serialize(response) }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.status == 404)
        #expect(error?.response?.body == Data("1234".utf8))
        #expect(error?.errorValue as? Int == 1234)
        #expect(error?.message.contains("404") == true)
    }

    @Test func statusErrorWinsOverAParseErrorWhichBecomesAnAttempt() throws {
        let chain = ResponseChain(IntegerSerializer())
        let error = #expect(throws: SerializationError.self) {
            try chain.serialize(.make(500, type: Self.integerType, body: "12x"))
        }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.errorValue == nil)
        #expect(error?.attempts.map(\.code) == [.invalidBody])
        #expect(error?.attempts.first?.offset == 2)
    }

    @Test func errorBodyOfAnotherTypeIsKeptRawAndNotParsed() throws {
        let chain = ResponseChain(IntegerSerializer())
        let error = #expect(throws: SerializationError.self) {
            try chain.serialize(.make(404, type: "text/html", body: "<h1>Not Found</h1>"))
        }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.attempts.isEmpty == true)
        #expect(error?.errorValue == nil)
        #expect(error?.response?.body == Data("<h1>Not Found</h1>".utf8))
    }

    @Test func aDedicatedErrorBodySerializerDecodesProblemDocuments() throws {
        var chain = ResponseChain(IntegerSerializer())
        chain.statusValidation.errorBodyDecoding = .serializer(
            TaggingSerializer("problem", "application/problem+json").eraseOutput())
        let error = #expect(throws: SerializationError.self) {
            try chain.serialize(.make(422, type: "application/problem+json", body: "{\"title\":\"bad\"}"))
        }
        #expect(error?.errorValue as? String == "problem:{\"title\":\"bad\"}")
        #expect(error?.serializerID == nil, "the status error is not a serializer's failure")
    }

    @Test(arguments: [
        (StatusCodes.success, 201, true), (.success, 299, true), (.success, 300, false), (.success, 199, false),
        (StatusCodes([200...200, 304...304]), 304, true), (StatusCodes([200...200, 304...304]), 201, false),
        (StatusCodes(200..<200), 200, false),
    ])
    func acceptableStatusCodes(codes: StatusCodes, status: Int, accepted: Bool) {
        #expect(codes.contains(status) == accepted)
    }

    @Test func bodySizeLimitComesBeforeEverythingElse() {
        var chain = ResponseChain(IntegerSerializer())
        chain.preprocessors = [BodySizeLimit(maxBytes: 4)]
        let error = #expect(throws: SerializationError.self) {
            try chain.serialize(.make(404, type: Self.integerType, body: "123456"))
        }
        #expect(error?.code == .bodyTooLarge)
        #expect(error?.response?.status == 404)
    }

    @Test(arguments: [")]}',\n42", ")]}'\n42", "while(1);42", "for(;;);42", "\u{FEFF})]}',\r\n42", "42"])
    func xssiPrefixIsRemoved(body: String) throws {
        var chain = ResponseChain(IntegerSerializer())
        chain.preprocessors.append(XSSIPrefixRemoval())
        #expect(try chain.serialize(.make(type: Self.integerType, body: body)) == 42)
    }

    @Test func utf8ByteOrderMarkIsRemoved() throws {
        var chain = ResponseChain(IntegerSerializer())
        chain.preprocessors.append(ByteOrderMarkRemoval())
        #expect(try chain.serialize(.make(type: Self.integerType, body: "\u{FEFF}7")) == 7)
    }

    @Test func unacceptableMediaTypeNamesWhatWasExpected() {
        let chain = ResponseChain(IntegerSerializer())
        let error = #expect(throws: SerializationError.self) {
            try chain.serialize(.make(type: "text/html", body: "1"))
        }
        #expect(error?.code == .unacceptableMediaType)
        #expect(error?.message.contains("text/x-integer") == true)
        #expect(error?.message.contains("text/html") == true)
    }

    @Test func missingMediaTypeIsAllowedByDefaultAndCanBeRequired() throws {
        var chain = ResponseChain(IntegerSerializer())
        #expect(try chain.serialize(.make(body: "5")) == 5)
        chain.mediaTypeValidation?.allowsMissingMediaType = false
        let error = #expect(throws: SerializationError.self) { try chain.serialize(.make(body: "5")) }
        #expect(error?.code == .missingMediaType)
    }

    @Test func nonDecantErrorsAreWrappedNotSwallowed() {
        let chain = ResponseChain(ThrowingSerializer())
        let error = #expect(throws: SerializationError.self) {
            try chain.serialize(.make(type: "text/plain", body: "x"))
        }
        #expect(error?.code == .serializerFailed)
        #expect(error?.underlying as? ThrowingSerializer.Failure == ThrowingSerializer.Failure(reason: "boom"))
        #expect(error?.serializerID == "throwingSerializer")
        #expect(error?.response?.body == Data("x".utf8))
    }
}

@Suite struct CompoundSerializerTests {
    static let compound = CompoundSerializer([
        TaggingSerializer("csv", "text/csv").eraseToAnySerializer(),
        TaggingSerializer("anyText", "text/*").eraseToAnySerializer(),
        TaggingSerializer("plain", "text/plain").eraseToAnySerializer(),
        TaggingSerializer("json", "application/json").eraseToAnySerializer(),
    ])

    @Test func triesMatchingSerializersMostSpecificFirst() throws {
        let plan = Self.compound.plan(for: .make(type: "text/plain", body: "x")).map(\.serializer.id)
        #expect(plan == ["plain", "anyText"])
        #expect(try Self.compound.serialize(.make(type: "text/plain", body: "x")) == "plain:x")
    }

    @Test func reportsEveryAttemptWhenAllFail() {
        var compound = Self.compound
        compound.triesNonMatching = true
        let error = #expect(throws: SerializationError.self) {
            try compound.serialize(.make(type: "text/csv", body: "!nope"))
        }
        #expect(error?.code == .allSerializersFailed)
        #expect(error?.attempts.map(\.serializerID?.rawValue) == ["csv", "anyText", "plain", "json"])
        #expect(error?.message.contains("All 4 serializers failed") == true)
        let description = error?.description ?? ""
        #expect(description.contains("attempt 1:") && description.contains("attempt 4:"))
        #expect(description.contains("json refuses bodies"))
    }

    @Test func nonMatchingSerializersAreTriedOnlyWhenAsked() throws {
        let response = Response.make(type: "application/xml", body: "<a/>")
        let error = #expect(throws: SerializationError.self) { try Self.compound.serialize(response) }
        #expect(error?.code == .noSerializer)
        #expect(error?.message.contains("application/xml") == true)
        var compound = Self.compound
        compound.triesNonMatching = true
        #expect(try compound.serialize(response) == "csv:<a/>")
    }

    @Test func aSingleAttemptIsThrownAsItIs() {
        let error = #expect(throws: SerializationError.self) {
            try Self.compound.serialize(.make(type: "application/json", body: "!"))
        }
        #expect(error?.code == .invalidBody)
        #expect(error?.serializerID == "json")
    }

    @Test func firstSuccessWinsAfterEarlierFailures() throws {
        let compound = CompoundSerializer([
            IntegerSerializer(ranges: [.any], id: "integer").map { String($0) },
            TaggingSerializer("text", "*/*").eraseToAnySerializer(),
        ])
        #expect(try compound.serialize(.make(type: "text/plain", body: "abc")) == "text:abc")
        #expect(try compound.serialize(.make(type: "text/plain", body: "12")) == "12")
    }

    @Test func sniffedTypeIsTriedWhenTheHeaderIsGeneric() throws {
        let compound = CompoundSerializer(
            [TaggingSerializer("json", "application/json").eraseToAnySerializer()], sniffing: .sniffWhenGeneric)
        #expect(try compound.serialize(.make(type: "application/octet-stream", body: "{\"a\":1}")) == "json:{\"a\":1}")
        let strict = CompoundSerializer(
            [TaggingSerializer("json", "application/json").eraseToAnySerializer()], sniffing: .trustHeader)
        let error = #expect(throws: SerializationError.self) {
            try strict.serialize(.make(type: "application/octet-stream", body: "{\"a\":1}"))
        }
        #expect(error?.code == .noSerializer)
    }

    @Test func wrappedInAChainA404IsReportedAsA404() {
        let chain = ResponseChain(Self.compound)
        let error = #expect(throws: SerializationError.self) {
            try chain.serialize(.make(404, type: "text/html", body: "<html>Not Found</html>"))
        }
        #expect(error?.code == .unacceptableStatusCode)
    }
}

@Suite struct SerializationErrorTests {
    @Test func descriptionCapsTheBodySnippet() {
        let body = String(repeating: "x", count: 100_000)
        let error = SerializationError(
            code: .invalidBody, message: "Bad.", response: .make(type: "application/json", body: body))
        #expect(error.description.count < 600)
        #expect(error.description.contains("100000 bytes"))
        #expect(error.description.contains("…"))
    }

    @Test func binaryBodiesAreShownAsHex() {
        let error = SerializationError(
            code: .invalidBody, message: "Bad.", response: Response(body: Data([0x89, 0x50, 0x00, 0x01])))
        #expect(error.description.contains("4 bytes: 89 50 00 01"))
    }

    @Test func descriptionNamesTheContext() throws {
        let error = SerializationError(
            code: .invalidBody, message: "Unexpected character.", mediaType: try MediaType(parsing: "application/json"),
            serializerID: "json", offset: 17, codingPath: ["user", "0", "name"],
            response: .make(502, type: "application/json", body: "{"))
        let text = error.description
        #expect(text.hasPrefix("[invalidBody] Unexpected character."))
        #expect(
            text.contains("serializer: json, media type: application/json, status: 502, offset: 17, path: user.0.name"))
    }

    @Test func codesAreExtensibleByThirdParties() {
        let custom = SerializationError.Code("acme.yaml.tabs")
        #expect(custom != .invalidBody)
        #expect(custom.rawValue == "acme.yaml.tabs")
    }

    @Test func wrappingKeepsExistingSerializationErrorsAndFillsContext() {
        let original = SerializationError(code: .invalidBody, message: "x", offset: 3)
        let wrapped = SerializationError(wrapping: original, serializerID: "json", response: .make(body: "abc"))
        #expect(wrapped.code == .invalidBody)
        #expect(wrapped.offset == 3)
        #expect(wrapped.serializerID == "json")
        #expect(wrapped.response?.body == Data("abc".utf8))
    }
}

@Suite struct CompoundOrderingTests {
    @Test func asListedKeepsTheGivenOrderAmongMatches() {
        var compound = CompoundSerializer([
            TaggingSerializer("anyText", "text/*").eraseToAnySerializer(),
            TaggingSerializer("plain", "text/plain").eraseToAnySerializer(),
        ])
        let response = Response.make(type: "text/plain", body: "x")
        #expect(compound.plan(for: response).map(\.serializer.id) == ["plain", "anyText"])
        compound.order = .asListed
        #expect(compound.plan(for: response).map(\.serializer.id) == ["anyText", "plain"])
    }
}
