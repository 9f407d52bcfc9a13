import Decant
import DecantForm
import Foundation
import Testing

@Suite struct FormDecoderTests {
    struct Token: Decodable, Equatable {
        enum Kind: String, Decodable { case bearer, mac }
        var access_token: String
        var token_type: Kind
        var expires_in: Int
        var ratio: Double
        var refreshable: Bool
        var scope: [String]
        var ports: [UInt16]?
        var state: String?
        var note: String?
    }

    @Test func decodesAFlatStruct() throws {
        // The fields as parse_qsl reads them: access_token "a b+c", scope "read" then "write", note "" (blank).
        let body =
            "access_token=a+b%2Bc&token_type=bearer&expires_in=3600&ratio=-0.5&refreshable=on"
            + "&scope=read&scope=write&ports=80&ports=443&note="
        let token = try FormDecoder().decode(Token.self, from: Data(body.utf8))
        #expect(
            token
                == Token(
                    access_token: "a b+c", token_type: .bearer, expires_in: 3600, ratio: -0.5, refreshable: true,
                    scope: ["read", "write"], ports: [80, 443], state: nil, note: ""))
    }

    @Test(arguments: [
        ("true", true), ("1", true), ("ON", true), ("yes", true), ("false", false), ("0", false), ("off", false),
        ("No", false),
    ])
    func decodesBooleanSpellings(text: String, expected: Bool) throws {
        struct Flag: Decodable { var flag: Bool }
        #expect(try FormDecoder().decode(Flag.self, from: Data("flag=\(text)".utf8)).flag == expected)
    }

    @Test func firstValueWinsForScalars() throws {
        struct One: Decodable { var a: Int }
        #expect(try FormDecoder().decode(One.self, from: Data("a=1&a=2".utf8)).a == 1)
    }

    @Test func decodesADictionaryOfFirstValues() throws {
        let fields = try FormDecoder().decode([String: String].self, from: Data("b=2&a=1&b=3".utf8))
        #expect(fields == ["a": "1", "b": "2"])
    }

    @Test func missingFieldNamesTheField() throws {
        struct Needs: Decodable { var id: Int }
        let error = try #require(throws: SerializationError.self) {
            try FormDecoder().decode(Needs.self, from: Data("other=1".utf8))
        }
        #expect(error.code == .decodingFailed)
        #expect(error.codingPath == ["id"])
        #expect(error.message.contains("'id'"))
        #expect(error.underlying is DecodingError)
    }

    @Test(arguments: ["n=abc", "n=", "n=1.5", "n=99999999999999999999", "n=%20"])
    func badIntegerIsATypeMismatch(body: String) throws {
        struct Number: Decodable { var n: Int }
        let error = try #require(throws: SerializationError.self) {
            try FormDecoder().decode(Number.self, from: Data(body.utf8))
        }
        #expect(error.code == .decodingFailed)
        #expect(error.codingPath.first == "n")
    }

    @Test(arguments: ["x=nan", "x=inf", "x=1e999", "x=two"])
    func nonFiniteOrBadDoubleFails(body: String) throws {
        struct Real: Decodable { var x: Double }
        let error = #expect(throws: SerializationError.self) {
            try FormDecoder().decode(Real.self, from: Data(body.utf8))
        }
        #expect(error?.code == .decodingFailed)
    }

    @Test func nestedStructuresAreRejected() throws {
        struct Inner: Decodable { var a: Int }
        struct Outer: Decodable { var inner: Inner }
        let error = try #require(throws: SerializationError.self) {
            try FormDecoder().decode(Outer.self, from: Data("inner=1&a=1".utf8))
        }
        #expect(error.code == .decodingFailed)
        #expect(error.message.contains("flat"))
        let topLevelArray = #expect(throws: SerializationError.self) {
            try FormDecoder().decode([String].self, from: Data("a=1".utf8))
        }
        #expect(topLevelArray?.code == .decodingFailed)
    }

    @Test func limitsApplyWhenDecodingBytes() throws {
        let decoder = FormDecoder(parsingOptions: FormParsingOptions(maxPairs: 1))
        let error = try #require(throws: SerializationError.self) {
            try decoder.decode([String: String].self, from: Data("a=1&b=2".utf8))
        }
        #expect(error.code == .limitExceeded)
    }

    @Test func registryDecodesFormResponses() throws {
        struct Login: Decodable, Equatable { var user: String; var remember: Bool? }
        let registry = SerializerRegistry.standard.installing(.form)
        let response = Response(
            status: 200, headers: ["Content-Type": "application/x-www-form-urlencoded; charset=utf-8"],
            body: Data("user=ada%40example.org&remember=1".utf8))
        #expect(try registry.decode(Login.self, from: response) == Login(user: "ada@example.org", remember: true))
    }
}
