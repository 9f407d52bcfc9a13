import DecantCore
import Foundation
import Testing

@testable import DecantJSON

/// Decoding failures: `SerializationError` with code, coding path, byte offset, the `DecodingError` as `underlying`
/// and a message that says how to fix it; and Foundation's `JSONDecoder` fails on the same input.
@Suite struct JSONDecodingErrorTests {
    struct Address: Decodable {
        var street: String
        var zip: String
    }

    struct User: Decodable {
        var name: String
        var age: Int
        var addresses: [Address]
    }

    struct Account: Decodable {
        var user: User
    }

    struct Sizes: Decodable {
        var small: Int8
        var ratio: Double
    }

    struct Blob: Decodable {
        var data: Data
        var created: Date
        var link: URL?
    }

    /// One failing input: what we expect of our error, and that `JSONDecoder` fails too.
    struct Case: CustomTestStringConvertible, Sendable {
        var name: String
        var json: String
        /// The start of the offending value in `json` (its first occurrence), or `nil` for no offset.
        var at: String?
        var path: [String]
        var kind: String
        var message: [String]
        var decode: @Sendable (Data) -> (ours: SerializationError?, foundation: (any Error)?)

        var testDescription: String { name }

        init<T: Decodable & Sendable>(
            _ name: String, _ type: T.Type, _ json: String, at: String?, path: [String], kind: String,
            message: [String] = [],
            configure: @escaping @Sendable (inout JSONValueDecoder, JSONDecoder) -> Void = { _, _ in }
        ) {
            self.name = name
            self.json = json
            self.at = at
            self.path = path
            self.kind = kind
            self.message = message
            decode = { data in
                var ours = JSONValueDecoder()
                let foundation = JSONDecoder()
                configure(&ours, foundation)
                var ourError: SerializationError?
                var theirError: (any Error)?
                do throws(SerializationError) { _ = try ours.decode(T.self, from: data) } catch { ourError = error }
                do { _ = try foundation.decode(T.self, from: data) } catch { theirError = error }
                return (ourError, theirError)
            }
        }
    }

    static let cases: [Case] = [
        Case(
            "type mismatch deep in arrays", Account.self,
            #"{"user": {"name": "Ada", "age": 36, "addresses": [{"street": "a", "zip": "1"}, "#
                + #"{"street": "b", "zip": "2"}, {"street": "c", "zip": 3}]}}"#,
            at: "3}", path: ["user", "addresses", "2", "zip"], kind: "typeMismatch",
            message: ["Expected String at user.addresses[2].zip (byte ", "found the number 3"]),
        Case(
            "missing key", Account.self, #"{"user": {"name": "Ada", "addresses": []}}"#,
            at: #"{"name""#, path: ["user"], kind: "keyNotFound",
            message: ["The key \"age\" is missing from the object at user (byte 9)", "make the property optional"]),
        Case(
            "misspelled key", Account.self, #"{"user": {"name": "Ada", "agee": 1, "addresses": []}}"#,
            at: #"{"name""#, path: ["user"], kind: "keyNotFound",
            message: ["keys are \"name\", \"agee\", \"addresses\"", "Did you mean \"agee\"?"]),
        Case(
            "snake-case key with default keys", Holder<Inner>.self, #"{"v": {"inner_value": 1}}"#,
            at: #"{"inner"#, path: ["v"], kind: "keyNotFound", message: [".convertFromSnakeCase"]),
        Case(
            "null for a non-optional", Account.self, #"{"user": {"name": null, "age": 1, "addresses": []}}"#,
            at: "null", path: ["user", "name"], kind: "valueNotFound",
            message: ["found null", "Make the property optional (String?)"]),
        Case(
            "null for a nested object", Account.self, #"{"user": null}"#, at: "null", path: ["user"],
            kind: "valueNotFound"),
        Case(
            "array for an object", Account.self, #"{"user": [1, 2]}"#, at: "[1", path: ["user"],
            kind: "typeMismatch", message: ["Expected an object at user", "found an array of 2 elements"]),
        Case(
            "integer overflow", Sizes.self, #"{"small": 300, "ratio": 1}"#, at: "300", path: ["small"],
            kind: "dataCorrupted", message: ["does not fit in Int8", "wider type"]),
        Case(
            "fraction for an integer", [Int].self, "[1, 2.5]", at: "2.5", path: ["1"], kind: "dataCorrupted",
            message: ["<2.5>", "at [1]"]),
        Case(
            "number beyond Double", Sizes.self, #"{"small": 1, "ratio": -1e400}"#, at: "-1e400", path: ["ratio"],
            kind: "dataCorrupted"),
        Case(
            "non-conforming float", Sizes.self, #"{"small": 1, "ratio": "NaN"}"#, at: #""NaN""#, path: ["ratio"],
            kind: "typeMismatch", message: ["nonConformingFloatDecodingStrategy"]),
        Case(
            "non-conforming float with other strings", Sizes.self, #"{"small": 1, "ratio": "NaN"}"#,
            at: #""NaN""#, path: ["ratio"], kind: "typeMismatch",
            configure: { ours, foundation in
                ours.nonConformingFloatDecodingStrategy = .convertFromString(
                    positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "nan")
                foundation.nonConformingFloatDecodingStrategy = .convertFromString(
                    positiveInfinity: "+Inf", negativeInfinity: "-Inf", nan: "nan")
            }),
        Case(
            "bad base64", Blob.self, #"{"data": "abc", "created": 0}"#, at: #""abc""#, path: ["data"],
            kind: "dataCorrupted", message: ["not valid Base64", "RFC 4648"]),
        Case(
            "bad date", Blob.self, #"{"data": "", "created": "01/02/2024"}"#, at: #""01/02"#, path: ["created"],
            kind: "dataCorrupted", message: ["ISO8601", "dateDecodingStrategy"],
            configure: { ours, foundation in
                ours.dateDecodingStrategy = .iso8601
                foundation.dateDecodingStrategy = .iso8601
            }),
        Case(
            "number for an ISO date", Blob.self, #"{"data": "", "created": 17}"#, at: "17", path: ["created"],
            kind: "typeMismatch",
            configure: { ours, foundation in
                ours.dateDecodingStrategy = .iso8601
                foundation.dateDecodingStrategy = .iso8601
            }),
        Case(
            "string for a timestamp", Blob.self, #"{"data": "", "created": "now"}"#, at: #""now""#, path: ["created"],
            kind: "typeMismatch",
            configure: { ours, foundation in
                ours.dateDecodingStrategy = .secondsSince1970
                foundation.dateDecodingStrategy = .secondsSince1970
            }),
        Case(
            "bad URL", Blob.self, #"{"data": "AA==", "created": 0, "link": ""}"#, at: #""""#, path: ["link"],
            kind: "dataCorrupted", message: ["Invalid URL string."]),
        Case(
            "string for an array", Holder<[Int]>.self, #"{"v": "x"}"#, at: #""x""#, path: ["v"], kind: "typeMismatch"),
        Case(
            "string for a number in an array", [Double].self, #"[1, "2"]"#, at: #""2""#, path: ["1"],
            kind: "typeMismatch", message: ["Decode the property as String"]),
        Case(
            "number for a string", Wrapper<String>.self, #"{"v": 12}"#, at: "12", path: ["v"], kind: "typeMismatch",
            message: ["Decode the property as a number"]),
        Case(
            "boolean for an integer", Wrapper<Int>.self, "{\n  \"v\": true\n}", at: "true", path: ["v"],
            kind: "typeMismatch"),
        Case(
            "top-level mismatch", Int.self, #""12""#, at: #""12""#, path: [], kind: "typeMismatch",
            message: ["at the top level (byte 0)"]),
        Case(
            "dictionary value", [String: Int].self, #"{"a": 1, "b\u0020c": "x"}"#, at: #""x""#, path: ["b c"],
            kind: "typeMismatch"),
        Case(
            "snake-case keys in the path", Holder<[Inner]>.self, #"{"v": [{"inner_value": 1}, {"inner_value": "s"}]}"#,
            at: #""s""#, path: ["v", "1", "innerValue"], kind: "typeMismatch",
            configure: { ours, foundation in
                ours.keyDecodingStrategy = .convertFromSnakeCase
                foundation.keyDecodingStrategy = .convertFromSnakeCase
            }),
        Case(
            "duplicate key resolution", Wrapper<Int>.self, #"{"v": 1, "v": "x"}"#, at: #""x""#, path: ["v"],
            kind: "typeMismatch"),
    ]

    struct Inner: Decodable {
        var innerValue: Int
    }

    struct Holder<Value: Decodable & Sendable>: Decodable, Sendable {
        var v: Value
    }

    @Test(arguments: cases)
    func reportsPathOffsetAndCause(_ failure: Case) throws {
        let data = Data(failure.json.utf8)
        let (ours, foundation) = failure.decode(data)
        if failure.name != "duplicate key resolution" {
            // JSONDecoder keeps the first of repeated keys, Decant the last (see JSONParsingOptions.duplicateKeys).
            #expect(foundation != nil, "JSONDecoder accepted \(failure.json)")
        }
        let error = try #require(ours, "JSONValueDecoder accepted \(failure.json)")
        #expect(error.code == .decodingFailed)
        #expect(error.serializerID == "json")
        #expect(error.codingPath == failure.path)
        if let at = failure.at {
            let range = try #require(failure.json.range(of: at))
            #expect(error.offset == failure.json.utf8.distance(from: failure.json.startIndex, to: range.lowerBound))
        } else {
            #expect(error.offset == nil)
        }
        let underlying = try #require(error.underlying as? DecodingError)
        #expect(summary(underlying).hasPrefix(failure.kind), "\(underlying)")
        if case .keyNotFound = underlying {
        } else {
            let context = try Self.context(of: underlying)
            #expect(JSONDecodingFailure.strings(context.codingPath) == failure.path)
            #expect(context.debugDescription.hasSuffix(".") || context.debugDescription.contains("instead"))
        }
        for fragment in failure.message {
            #expect(error.message.lowercased().contains(fragment.lowercased()), "\(error.message)")
        }
        #expect(error.message.utf8.count < 800, "\(error.message)")
    }

    static func context(of error: DecodingError) throws -> DecodingError.Context {
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context),
            .dataCorrupted(let context):
            return context
        @unknown default:
            throw error
        }
    }

    @Test func keepsTheParsersErrors() throws {
        for (json, code) in [
            ("{\"a\": 1,}", SerializationError.Code.invalidBody), ("", .invalidBody), ("[1", .invalidBody),
        ] {
            let error = #expect(throws: SerializationError.self) {
                try JSONValueDecoder().decode([String: Int].self, from: Data(json.utf8))
            }
            #expect(error?.code == code)
            // JSONDecoder accepts the trailing comma, which RFC 8259 §4 does not allow (Decant's parser is strict).
            if !json.hasSuffix(",}") {
                #expect(throws: DecodingError.self) {
                    try JSONDecoder().decode([String: Int].self, from: Data(json.utf8))
                }
            }
        }
        var limited = JSONValueDecoder()
        limited.parsingOptions.maxDepth = 2
        let deep = #expect(throws: SerializationError.self) {
            try limited.decode([[[Int]]].self, from: Data("[[[1]]]".utf8))
        }
        #expect(deep?.code == .limitExceeded)
    }

    @Test func offsetsCountTheOriginalBytesOfUTF16Bodies() throws {
        let json = #"{"v": [1, "é", 3]}"#
        let data = Data([0xFF, 0xFE]) + json.data(using: .utf16LittleEndian)!
        let error = #expect(throws: SerializationError.self) {
            try JSONValueDecoder().decode(Wrapper<[Int]>.self, from: data)
        }
        // The string starts at UTF-16 unit 10, after the 2-byte byte order mark.
        #expect(error?.offset == 2 + 10 * 2)
        #expect(error?.codingPath == ["v", "1"])
    }

    @Test func wrapsErrorsThrownByInitializers() throws {
        struct Rejected: Error, Equatable {}
        struct Picky: Decodable, Sendable {
            init(from decoder: any Decoder) throws {
                let value = try decoder.singleValueContainer().decode(Int.self)
                if value < 0 { throw Rejected() }
            }
        }
        let json = #"{"v": [1, 2, -3]}"#
        let error = #expect(throws: SerializationError.self) {
            try JSONValueDecoder().decode(Holder<[Picky]>.self, from: Data(json.utf8))
        }
        #expect(error?.code == .decodingFailed)
        #expect(error?.underlying is Rejected)
        #expect(error?.codingPath == ["v", "2"])
        #expect(error?.offset == 13)
        #expect(error?.message.contains("v[2]") == true)
    }

    @Test func reportsErrorsThrownWithDecodingErrorHelpers() throws {
        struct Even: Decodable {
            enum CodingKeys: CodingKey { case n }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                let n = try container.decode(Int.self, forKey: .n)
                if n % 2 != 0 {
                    throw DecodingError.dataCorruptedError(forKey: .n, in: container, debugDescription: "Odd: \(n).")
                }
            }
        }
        let json = #"[{"n": 2}, {"n": 5}]"#
        let error = #expect(throws: SerializationError.self) {
            try JSONValueDecoder().decode([Even].self, from: Data(json.utf8))
        }
        #expect(error?.codingPath == ["1", "n"])
        #expect(error?.offset == 17)
        #expect(error?.message.contains("Odd: 5.") == true)
    }

    @Test func parsedValuesHaveNoOffset() throws {
        let value: JSONValue = ["user": ["name": "Ada", "age": "old", "addresses": []]]
        let error = #expect(throws: SerializationError.self) {
            try JSONValueDecoder().decode(Account.self, from: value)
        }
        #expect(error?.codingPath == ["user", "age"])
        #expect(error?.offset == nil)
        #expect(error?.message.contains("user.age") == true)
    }

    @Test func describesTheErrorWithPathAndOffset() throws {
        let json = #"{"user": {"name": "Ada", "age": "36", "addresses": []}}"#
        let error = #expect(throws: SerializationError.self) {
            try JSONValueDecoder().decode(Account.self, from: Data(json.utf8))
        }
        let description = try #require(error).description
        #expect(description.contains("[decodingFailed]"))
        #expect(description.contains("path: user.age"))
        #expect(description.contains("offset: 32"))
    }
}
