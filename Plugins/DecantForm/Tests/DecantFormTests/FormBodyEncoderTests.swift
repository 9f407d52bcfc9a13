import Decant
import DecantForm
import Foundation
import Testing

@Suite struct FormBodyEncoderTests {
    typealias Login = FormEncoderTests.Login

    static let formType: MediaType = "application/x-www-form-urlencoded"
    static let registry = SerializerRegistry.standard.installing(.form)
    static let snakeCase = EncodingOptions(keyEncodingStrategy: .convertToSnakeCase)

    func expected(_ name: String) throws -> String {
        try #require(FormTestSupport.encoderCase(name), "encoding-cases.json lacks '\(name)'").body
    }

    @Test func registryWritesFormDataByMediaType() throws {
        let form = FormData([("name", "Ada"), ("lang", "en")])
        let body = try Self.registry.encode(form, as: Self.formType)
        #expect(body.body == Data("name=Ada&lang=en".utf8))  // urlencode([("name", "Ada"), ("lang", "en")])
        #expect(body.contentType.description == "application/x-www-form-urlencoded")
        #expect(body.serializerID == "form")
        // Read back through the same registry.
        #expect(try Self.registry.serialize(body.response(), as: FormData.self) == form)
    }

    @Test func registryWritesEncodableValuesAndDecodesThemBack() throws {
        let login = Login(userName: "ada l", scopes: ["read", "write"], remember: true, otp: nil)
        let snake = try Self.registry.encode(login, as: Self.formType, options: Self.snakeCase)
        #expect(String(decoding: snake.body, as: UTF8.self) == (try expected("login")))
        let plain = try Self.registry.encode(login, as: Self.formType)
        #expect(try Self.registry.decode(Login.self, from: plain.response()) == login)
    }

    @Test func registryOptionsApplyUnlessTheCallOverridesThem() throws {
        var registry = Self.registry
        registry.encodingOptions = Self.snakeCase
        let login = Login(userName: "u", scopes: [], remember: false, otp: "1")
        #expect(try registry.encode(login, as: Self.formType).body == Data("user_name=u&remember=false&otp=1".utf8))
        let custom = EncodingOptions(keyEncodingStrategy: .useDefaultKeys)
        #expect(
            try registry.encode(login, as: Self.formType, options: custom).body
                == Data("userName=u&remember=false&otp=1".utf8))
    }

    @Test func charsetIsNeverWritten() throws {
        // The format is UTF-8 only: a requested charset is not echoed, and the body is the same.
        let form = FormData([("q", "é")])
        let body = try Self.registry.encode(form, as: "application/x-www-form-urlencoded; charset=utf-8")
        #expect(body.contentType.description == "application/x-www-form-urlencoded")
        #expect(body.body == Data("q=%C3%A9".utf8))  // urlencode([("q", "é")])
    }

    @Test func negotiationChoosesTheFormWhenAcceptPrefersIt() throws {
        let accept = AcceptHeader(parsing: "text/html, application/json;q=0.5, application/x-www-form-urlencoded")
        let body = try Self.registry.encode(FormData([("a", "1")]), accepting: accept)
        #expect(body.serializerID == "form")
        #expect(body.contentType == Self.formType)
        let login = Login(userName: "ada l", scopes: ["read", "write"], remember: true, otp: nil)
        let encoded = try Self.registry.encode(login, accepting: accept, options: Self.snakeCase)
        #expect(encoded.serializerID == "form")
        #expect(String(decoding: encoded.body, as: UTF8.self) == (try expected("login")))
        #expect(
            try Self.registry.decode(Login.self, from: Self.registry.encode(login, accepting: accept).response())
                == login)
    }

    @Test func valuesThatAreNoFormAreNotOffered() throws {
        let encoder = FormBodyEncoder()
        #expect(encoder.canEncode(FormData()))
        #expect(encoder.canEncode(Login(userName: "", scopes: [], remember: false)))
        #expect(encoder.canEncode(["a": "b"]))
        #expect(!encoder.canEncode("text"))
        #expect(!encoder.canEncode(42))
        #expect(!encoder.canEncode([1, 2]))
        #expect(!encoder.canEncode(Data()))
        #expect(!encoder.canEncode(NotEncodable()))
        // Only the form is acceptable, and it cannot write a string: 406.
        let accept = AcceptHeader(parsing: "application/x-www-form-urlencoded")
        let error = try #require(throws: SerializationError.self) {
            try Self.registry.encode("text", accepting: accept)
        }
        #expect(error.code == .notAcceptable)
    }

    @Test func unsupportedAndFailedValuesSayWhichFormatFailed() throws {
        let unsupported = try #require(throws: SerializationError.self) {
            try FormBodyEncoder().encode(NotEncodable(), as: Self.formType, options: EncodingOptions())
        }
        #expect(unsupported.code == .unsupportedValue)
        #expect(unsupported.serializerID == "form")

        struct Nested: Encodable, Sendable { var inner = ["a": "b"] }
        let failed = try #require(throws: SerializationError.self) {
            try Self.registry.encode(Nested(), as: Self.formType)
        }
        #expect(failed.code == .encodingFailed)
        #expect(failed.serializerID == "form")
        #expect(failed.mediaType?.essence == "application/x-www-form-urlencoded")
        #expect(failed.codingPath == ["inner"])
    }

    @Test func factoryBuildsTheEncoderFromOptions() throws {
        let factory = FormSerializerFactory()
        let login = Login(userName: "ada l", scopes: ["read", "write"], remember: true, otp: nil)
        let brackets = try #require(try factory.makeEncoder(configuration: ["arrayEncoding": .string("brackets")]))
        let body = try brackets.encode(login, as: Self.formType, options: Self.snakeCase)
        #expect(String(decoding: body.body, as: UTF8.self) == (try expected("login-brackets")))
        let numeric = try #require(try factory.makeEncoder(configuration: ["boolEncoding": .string("numeric")]))
        let numericBody = try numeric.encode(login, as: Self.formType, options: Self.snakeCase)
        #expect(String(decoding: numericBody.body, as: UTF8.self) == (try expected("login-numeric")))
        let invalid = try #require(throws: SerializationError.self) {
            try factory.makeEncoder(configuration: ["arrayEncoding": .string("dots")])
        }
        #expect(invalid.code == .invalidOption)
    }

    /// The round-trip law for every writer case: decoding what the registry encoded gives the pairs back.
    @Test(arguments: FormTestSupport.encodingCases("writer"))
    func roundTripsThroughTheRegistry(_ testCase: FormTestSupport.EncodingCase) throws {
        let form = FormData(testCase.pairs)
        let body = try Self.registry.encode(form, as: Self.formType)
        #expect(String(decoding: body.body, as: UTF8.self) == testCase.body)
        #expect(try Self.registry.serialize(body.response(), as: FormData.self) == form)
    }
}

/// A value of no type any format writes.
private struct NotEncodable: Sendable {}
