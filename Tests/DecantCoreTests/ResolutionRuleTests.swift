import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

/// The resolution rule: a typed request only falls back to serializers that produce its type; a serializer that
/// defers parsing, or one that matches the media type only through a wider range, never rescues a rejected body; a
/// success after failures carries them; with no success one error lists every attempt.
@Suite struct ResolutionRuleTests {
    /// Splits `text/csv` bodies into rows of comma-separated fields; an unterminated quote is an error at its offset.
    struct RowsSerializer: ResponseSerializer {
        var mediaRanges: [MediaRange] { [MediaRange("text/csv")] }
        var id: SerializerID { "acme.csv" }

        func serialize(_ response: Response) throws -> [[String]] {
            let bytes = Array(response.body)
            if let quote = bytes.firstIndex(of: UInt8(ascii: "\"")),
                !bytes[(quote + 1)...].contains(UInt8(ascii: "\""))
            {
                throw SerializationError(
                    code: .invalidBody, message: "The quoted field at byte \(quote) is never closed.", offset: quote)
            }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
                $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            }
        }
    }

    /// Accepts `text/csv` and returns a closure that would read the body later: it parses nothing now.
    struct DeferredRowsSerializer: ResponseSerializer {
        var mediaRanges: [MediaRange] { [MediaRange("text/csv")] }
        var id: SerializerID { "acme.lazyCSV" }
        var defersParsing: Bool { true }
        func serialize(_ response: Response) throws -> String { "unparsed" }
    }

    /// Installs `serializer` under its own id and ranges.
    struct FixedFactory<Serializer: ResponseSerializer>: SerializerFactory {
        var format: MediaFormat {
            MediaFormat(id: serializer.id, mediaRanges: serializer.mediaRanges, summary: "A fixed serializer (tests).")
        }
        let serializer: Serializer
        func makeSerializer(options: Void) -> Serializer { serializer }
    }

    static func registry(_ factories: [any SerializerFactory]) -> SerializerRegistry {
        SerializerRegistry(modules: [SerializerModule(name: "Tests", factories: factories)])
    }

    /// `acme.csv` for `text/csv`, then a `string` serializer for every `text/*` type.
    static let csvThenString = registry([
        FixedFactory(serializer: RowsSerializer()),
        TaggingFactory("string", "text/*"),
    ])

    static let malformed = Response.make(type: "text/csv", body: "a,\"b\n1,2")

    /// `acme.csv`, then a second serializer for `text/csv` itself (another implementation of the same format).
    static let csvThenOtherCSV = registry([
        FixedFactory(serializer: RowsSerializer()),
        TaggingFactory("acme.csvText", "text/csv"),
    ])

    @Test func untypedFallbackCarriesTheFailureAndNamesTheProducer() throws {
        let result = try Self.csvThenOtherCSV.serialize(Self.malformed)
        #expect(result.serializerID == "acme.csvText")
        #expect(result.value as? String == "acme.csvText:a,\"b\n1,2")
        #expect(result.attempts.map(\.serializerID) == ["acme.csv"])
        #expect(result.attempts.first?.code == .invalidBody)
        #expect(result.attempts.first?.offset == 2)
        #expect(result.resolution?.chosen?.id == "acme.csv")
        #expect(result.description.contains("failed: acme.csv (invalidBody)"))
        #expect(result.description.hasSuffix("produced by: acme.csvText"))
    }

    /// `string` matches `text/csv` only through `text/*`: it cannot judge CSV, so it is not tried after the CSV
    /// serializer rejected the body, and the CSV error stands.
    @Test(arguments: [false, true])
    func widerRangeIsNoFallbackForARejectedBody(viaChain: Bool) throws {
        let error = #expect(throws: SerializationError.self) {
            _ = try Self.csvThenString.serialize(viaChain ? Self.malformedThroughChain : Self.malformed)
        }
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == 2)
        #expect(error?.serializerID == "acme.csv")
        #expect(error?.message.contains("Not tried after that failure: 'string'") == true)
        // A well-formed body is the CSV serializer's, and a text request still gets the text.
        let rows = try Self.csvThenString.serialize(Response.make(type: "text/csv", body: "a,b"))
        #expect(rows.serializerID == "acme.csv")
        #expect(try Self.csvThenString.serialize(Self.malformed, as: String.self) == "string:a,\"b\n1,2")
    }

    /// A `Content-Encoding` field sends the response through the whole chain (content decoding runs) rather than
    /// the registry's shortcut: the rule is the same there.
    static let malformedThroughChain = Response.make(
        type: "text/csv", body: "a,\"b\n1,2", headers: [("Content-Encoding", "identity")])

    @Test func untypedFallbackThroughTheChainCarriesTheFailure() throws {
        let result = try Self.csvThenOtherCSV.serialize(Self.malformedThroughChain)
        #expect(result.serializerID == "acme.csvText")
        #expect(result.attempts.map(\.code) == [.invalidBody])
    }

    @Test(arguments: [false, true])
    func typedRequestOnlyFallsBackToItsType(viaChain: Bool) throws {
        let error = #expect(throws: SerializationError.self) {
            if viaChain {
                _ = try Self.csvThenString.serialize(Self.malformedThroughChain, as: [[String]].self)
            } else {
                _ = try Self.csvThenString.serialize(Self.malformed, as: [[String]].self)
            }
        }
        // The plugin's own error, not "unexpected output type" blaming the string fallback.
        #expect(error?.code == .invalidBody)
        #expect(error?.offset == 2)
        #expect(error?.serializerID == "acme.csv")
    }

    @Test func typedRequestFallsBackToAnotherSerializerOfItsType() throws {
        let registry = Self.registry([
            FixedFactory(serializer: TaggingSerializer("first", "text/csv")),
            FixedFactory(serializer: RowsSerializer()),
            FixedFactory(
                serializer: AnyResponseSerializer<String>(id: "second", mediaRanges: [MediaRange("text/csv")]) {
                    "second:" + String(decoding: $0.body, as: UTF8.self)
                }),
        ])
        let value = try registry.serialize(Response.make(type: "text/csv", body: "!x"), as: String.self)
        #expect(value == "second:!x")
        let untyped = try registry.serialize(Response.make(type: "text/csv", body: "!x"))
        // Untyped, the rows serializer is next and succeeds on "!x".
        #expect(untyped.serializerID == "acme.csv")
        #expect(untyped.attempts.map(\.serializerID) == ["first"])
    }

    @Test func typedRequestNoCandidateProducesTheTypeNamesDecode() throws {
        struct User: Decodable, Sendable { var name: String }
        let error = #expect(throws: SerializationError.self) {
            _ = try Self.csvThenString.serialize(Response.make(type: "text/csv", body: "a,b"), as: User.self)
        }
        #expect(error?.code == .unexpectedOutputType)
        #expect(error?.message.contains("registry.decode(User.self, from: response)") == true)
        #expect(error?.message.contains("'acme.csv' (Array<Array<String>>)") == true)
    }

    @Test func deferredSerializerNeverRescuesAFailure() throws {
        let registry = Self.registry([
            FixedFactory(serializer: RowsSerializer()),
            FixedFactory(serializer: DeferredRowsSerializer()),
        ])
        let error = #expect(throws: SerializationError.self) { _ = try registry.serialize(Self.malformed) }
        #expect(error?.code == .invalidBody)
        #expect(error?.serializerID == "acme.csv")
        #expect(error?.message.contains("Not tried after that failure: 'acme.lazyCSV'") == true)
        // Chosen first, the deferred serializer still runs (it is the caller's choice).
        let first = Self.registry([
            FixedFactory(serializer: DeferredRowsSerializer()),
            FixedFactory(serializer: RowsSerializer()),
        ])
        #expect(try first.serialize(Self.malformed).serializerID == "acme.lazyCSV")
    }

    @Test func compoundReportsAttemptsBeforeItsSuccess() throws {
        let compound = CompoundSerializer<String>([
            TaggingSerializer("one", "text/plain").eraseToAnySerializer(),
            AnyResponseSerializer(id: "lazy", mediaRanges: [MediaRange("text/plain")], defersParsing: true) {
                _ in "lazy"
            },
            TaggingSerializer("two", "text/*").eraseToAnySerializer(),
        ])
        let bad = Response.make(type: "text/plain", body: "!")
        let error = #expect(throws: SerializationError.self) { _ = try compound.serializeReportingChoice(bad) }
        #expect(error?.code == .allSerializersFailed)
        #expect(error?.attempts.map(\.serializerID) == ["one", "two"])
        #expect(error?.message.contains("'lazy'") == true)
        let chosen = try compound.serializeReportingChoice(Response.make(type: "text/plain", body: "ok"))
        #expect(chosen.serializerID == "one")
        #expect(chosen.attempts.isEmpty)
    }

    @Test func existentialOutputIsCheckedWhenProduced() throws {
        // A closure serializer erased to `any Sendable` says nothing about its values until it produces one.
        struct ErasedFactory: SerializerFactory {
            var format: MediaFormat {
                MediaFormat(
                    id: "erased", mediaRanges: [MediaRange("text/plain")],
                    summary: "Produces an Int behind `any Sendable` (tests).")
            }
            func makeSerializer(options: Void) -> AnyResponseSerializer<any Sendable> {
                AnyResponseSerializer<any Sendable>(id: "erased", mediaRanges: mediaRanges) { _ in 42 }
            }
        }
        let registry = Self.registry([ErasedFactory(), TaggingFactory("string", "text/*")])
        let response = Response.make(type: "text/plain", body: "x")
        #expect(try registry.serialize(response, as: Int.self) == 42)
        #expect(try registry.serialize(response, as: String.self) == "string:x")
    }
}
