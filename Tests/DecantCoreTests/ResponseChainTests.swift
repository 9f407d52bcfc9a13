import DecantTestSupport
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

    /// The limit a download is held to: the smallest ``BodySizeLimit`` among the preprocessors, `nil` without one;
    /// the registry's is the one of its default stages.
    @Test func bodySizeLimitIsTheSmallestOfThePreprocessors() {
        var chain = ResponseChain(DataResponseSerializer())
        #expect(chain.bodySizeLimit == BodySizeLimit.default)
        chain.preprocessors = [BodySizeLimit(maxBytes: 100), ContentDecoding(), BodySizeLimit(maxBytes: 10)]
        #expect(chain.bodySizeLimit == BodySizeLimit(maxBytes: 10))
        chain.preprocessors = [ContentDecoding()]
        #expect(chain.bodySizeLimit == nil)
        #expect(SerializerRegistry().bodySizeLimit == BodySizeLimit.default)
        let response = Response(status: 200, headers: ["Content-Length": "500"], body: Data(count: 20))
        let announced = BodySizeLimit(maxBytes: 10).downloadError(response, announcedLength: 500)
        #expect(announced.code == .bodyTooLarge)
        #expect(announced.message.contains("announces 500 bytes, more than the body size limit of 10"))
        let received = BodySizeLimit(maxBytes: 10).downloadError(response)
        #expect(received.code == .bodyTooLarge)
        #expect(received.message.contains("when 20 bytes had arrived"))
        #expect(received.response?.body.count == 20)
    }
}
