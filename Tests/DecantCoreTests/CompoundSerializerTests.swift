import DecantTestSupport
import Foundation
import Testing

@testable import DecantCore

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
