import Decant
import DecantConformance
import DecantProblemDetails
import Foundation
import Testing

@Suite struct RegistryIntegrationTests {
    static let registry = SerializerRegistry.standard.installing(.problemDetails)

    /// The exact ranges beat the JSON module's `*/*+json` and the XML module's `*/*+xml` (exact > suffix), whatever
    /// the installation order, without a conflict.
    @Test(arguments: ["application/problem+json", "Application/Problem+JSON; charset=utf-8", "application/problem+xml"])
    func problemTypesResolveToThisSerializer(contentType: String) throws {
        let mediaType = try #require(MediaType(contentType))
        for registry in [
            Self.registry, SerializerRegistry(modules: [.problemDetails, .json, .xmlDocument]),
            SerializerRegistry(modules: [.json, .xmlDocument, .problemDetails]),
        ] {
            #expect(registry.resolve(mediaType).chosen?.id == "problemDetails")
            #expect(registry.conflicts.isEmpty)
        }
        // Other +json types stay with the JSON serializer.
        #expect(Self.registry.resolve(MediaType("application/vnd.api+json")).chosen?.id == "json")
    }

    @Test func a200IsAValue() throws {
        let response = Support.response(#"{"title": "ok", "status": 200}"#)
        let result = try Self.registry.serialize(response)
        #expect(result.serializerID == "problemDetails")
        let problem = try #require(result.value as? ProblemDetails)
        #expect(problem.title == "ok")
        #expect(try Self.registry.serialize(response, as: ProblemDetails.self).status == 200)
    }

    /// A 4xx or 5xx with a problem body is a status error whose `errorValue` is the typed problem.
    @Test(arguments: [
        (404, "application/problem+json", #"{"type": "/probs/gone", "title": "Gone", "status": 404, "n": 1}"#),
        (
            503, "application/problem+xml",
            #"<problem xmlns="urn:ietf:rfc:7807"><type>/probs/gone</type><title>Gone</title><n>1</n></problem>"#
        ),
    ])
    func errorStatusCarriesTheProblem(status: Int, contentType: String, body: String) throws {
        let response = Support.response(
            body, contentType: contentType, status: status, url: "https://api.example/users/42")
        let error = #expect(throws: SerializationError.self) { try Self.registry.serialize(response) }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.status == status)
        let problem = try #require(error?.errorValue as? ProblemDetails)
        // urljoin("https://api.example/users/42", "/probs/gone")
        #expect(problem.type.absoluteString == "https://api.example/probs/gone")
        #expect(problem.title == "Gone")
        #expect(error?.problemDetails == problem)
    }

    @Test func typedRequestsCarryTheProblemToo() throws {
        let response = Support.response(#"{"title": "Nope"}"#, status: 400)
        let error = #expect(throws: SerializationError.self) {
            try Self.registry.serialize(response, as: JSONValue.self)
        }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.problemDetails?.title == "Nope")
    }

    struct User: Decodable, Sendable { var id: Int }

    /// `decode` does not decode error bodies (its `errorValue` stays `nil`); the convenience parses the response.
    @Test func decodeErrorsGiveTheProblemThroughTheConvenience() throws {
        let response = Support.response(#"{"title": "No user", "status": 404}"#, status: 404)
        let error = #expect(throws: SerializationError.self) {
            try Self.registry.decode(User.self, from: response)
        }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.problemDetails?.title == "No user")
        #expect(error?.problemDetails?.status == 404)
    }

    /// Without the plugin, the JSON serializer decodes the error body into a `JSONValue`; the convenience still
    /// reads it as a problem.
    @Test func theConvenienceWorksWithoutThePlugin() throws {
        let response = Support.response(#"{"title": "Plain JSON", "status": 409}"#, status: 409)
        let error = #expect(throws: SerializationError.self) { try SerializerRegistry.standard.serialize(response) }
        #expect(error?.errorValue is JSONValue)
        #expect(error?.problemDetails?.title == "Plain JSON")
    }

    @Test func otherErrorsHaveNoProblem() throws {
        let html = Support.response("<h1>down</h1>", contentType: "text/html", status: 500)
        let error = #expect(throws: SerializationError.self) { try Self.registry.serialize(html) }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.problemDetails == nil)
    }

    /// A problem+json body that is not an object is this serializer's error: the JSON serializer matches the type
    /// only through `*/*+json` and is no fallback for a body the problem serializer rejected. Asking for a
    /// `JSONValue` still gets the JSON.
    @Test func aNonObjectIsTheProblemSerializersError() throws {
        let error = #expect(throws: SerializationError.self) { try Self.registry.serialize(Support.response("[1, 2]")) }
        #expect(error?.code == .notAProblemDocument)
        #expect(error?.serializerID == "problemDetails")
        #expect(error?.message.contains("Not tried after that failure: 'json'") == true)
        #expect(try Self.registry.serialize(Support.response("[1, 2]"), as: JSONValue.self) == [1, 2])
    }

    @Test func theFactoryReadsConfiguration() throws {
        let serializer = try Self.registry.serializer(id: "problemDetails", configuration: ["maxDepth": .integer(2)])
        let deep = Support.response(#"{"a": {"b": [1]}}"#)
        let error = #expect(throws: SerializationError.self) { try serializer.serialize(deep) }
        #expect(error?.code == .limitExceeded)
        #expect(error?.message.contains("ProblemDetailsOptions.maxDepth") == true)
        let unknown = #expect(throws: SerializationError.self) {
            try Self.registry.serializer(id: "problemDetails", configuration: ["maxDeep": .integer(2)])
        }
        #expect(unknown?.code == .unknownOption)
    }
}

@Suite struct ErrorAndLimitTests {
    @Test(arguments: [#""text""#, "[]", "42", "null", "true"])
    func aJSONBodyThatIsNotAnObjectIsAnError(body: String) throws {
        let error = #expect(throws: SerializationError.self) {
            try Support.serializer.serialize(Support.response(body))
        }
        #expect(error?.code == .notAProblemDocument)
        #expect(error?.code.rawValue == "problemDetails.notAProblemDocument")
        #expect(error?.serializerID == "problemDetails")
        #expect(error?.message.contains("not an object") == true)
    }

    @Test(arguments: [
        (#"<error xmlns="urn:ietf:rfc:7807"/>"#, 0), ("<problem/>", 0),
        (#"<?xml version="1.0"?> <p:problem xmlns:p="urn:other"/>"#, 22),
    ])
    func anXMLRootOtherThanProblemIsAnError(body: String, offset: Int) throws {
        let error = #expect(throws: SerializationError.self) {
            try Support.serializer.serialize(Support.response(body, contentType: "application/problem+xml"))
        }
        #expect(error?.code == .notAProblemDocument)
        #expect(error?.offset == offset)
        #expect(error?.message.contains("urn:ietf:rfc:7807") == true)
    }

    @Test func syntaxErrorsKeepTheParsersCodeAndOffset() throws {
        let json = #expect(throws: SerializationError.self) {
            try Support.serializer.serialize(Support.response(#"{"title": 1,}"#))
        }
        #expect(json?.code == .invalidBody)
        #expect(json?.serializerID == "problemDetails")
        #expect(json?.offset == 12)
        let xml = #expect(throws: SerializationError.self) {
            try Support.serializer.serialize(
                Support.response(
                    "<problem xmlns=\"urn:ietf:rfc:7807\"><a></b></problem>",
                    contentType: "application/problem+xml"))
        }
        #expect(xml?.code == .invalidBody)
        #expect(xml?.offset != nil)
    }

    /// `maxDepth` bounds JSON nesting (the object counts one) and XML nesting (the root counts one).
    @Test func depthLimit() throws {
        var options = ProblemDetailsOptions()
        options.maxDepth = 3
        let serializer = ProblemDetailsResponseSerializer(options: options)
        #expect(try serializer.serialize(Support.response(#"{"a": {"b": [1]}}"#)).extensions.count == 1)
        let json = #expect(throws: SerializationError.self) {
            try serializer.serialize(Support.response(#"{"a": {"b": [[1]]}}"#))
        }
        #expect(json?.code == .limitExceeded)
        #expect(json?.message.contains("ProblemDetailsOptions.maxDepth") == true)
        let xmlType = "application/problem+xml"
        let shallow = #"<problem xmlns="urn:ietf:rfc:7807"><a><b>1</b></a></problem>"#
        #expect(try serializer.serialize(Support.response(shallow, contentType: xmlType)).extensions.count == 1)
        let deep = #"<problem xmlns="urn:ietf:rfc:7807"><a><b><c>1</c></b></a></problem>"#
        let xml = #expect(throws: SerializationError.self) {
            try serializer.serialize(Support.response(deep, contentType: xmlType))
        }
        #expect(xml?.code == .limitExceeded)
        #expect(xml?.message.contains("ProblemDetailsOptions.maxDepth") == true)
    }

    /// The default depth (64) holds for a document nested 10,000 deep in both forms: an error, no stack overflow.
    @Test func deepDocumentsFailCleanly() throws {
        let json = String(repeating: #"{"a":"#, count: 10_000) + "1" + String(repeating: "}", count: 10_000)
        let xml =
            #"<problem xmlns="urn:ietf:rfc:7807">"# + String(repeating: "<a>", count: 10_000)
            + String(repeating: "</a>", count: 10_000) + "</problem>"
        for response in [Support.response(json), Support.response(xml, contentType: "application/problem+xml")] {
            let error = #expect(throws: SerializationError.self) { try Support.serializer.serialize(response) }
            #expect(error?.code == .limitExceeded)
        }
    }

    @Test func sizeLimit() throws {
        var options = ProblemDetailsOptions()
        options.maxBytes = 16
        let serializer = ProblemDetailsResponseSerializer(options: options)
        for (body, type) in [
            (#"{"title": "seventeen bytes"}"#, "application/problem+json"),
            (#"<problem xmlns="urn:ietf:rfc:7807"/>"#, "application/problem+xml"),
        ] {
            let error = #expect(throws: SerializationError.self) {
                try serializer.serialize(Support.response(body, contentType: type))
            }
            #expect(error?.code == .bodyTooLarge)
            #expect(error?.message.contains("ProblemDetailsOptions.maxBytes") == true)
        }
        #expect(ProblemDetailsOptions().maxBytes == 1 << 20)
    }

    /// An entity expansion bomb in problem+xml stops at the XML parser's limits.
    @Test func entityBombIsStopped() throws {
        var body = "<?xml version=\"1.0\"?><!DOCTYPE problem [<!ENTITY a0 \"aaaaaaaaaaaaaaaaaaaa\">"
        for level in 1...10 {
            body += "<!ENTITY a\(level) \"" + String(repeating: "&a\(level - 1);", count: 10) + "\">"
        }
        body += "]><problem xmlns=\"urn:ietf:rfc:7807\"><title>&a10;</title></problem>"
        let error = #expect(throws: SerializationError.self) {
            try Support.serializer.serialize(Support.response(body, contentType: "application/problem+xml"))
        }
        #expect(error?.code == .limitExceeded)
    }

    /// 1 MB of seeded random bytes under each media type (and none) is an error, never a crash.
    @Test(arguments: ["application/problem+json", "application/problem+xml", nil] as [String?])
    func randomBytesAreAnError(contentType: String?) throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var bytes = [UInt8](repeating: 0, count: 1_000_000)
        for index in bytes.indices {
            // xorshift64*
            state ^= state >> 12
            state ^= state << 25
            state ^= state >> 27
            bytes[index] = UInt8(truncatingIfNeeded: (state &* 0x2545_F491_4F6C_DD1D) >> 56)
        }
        for prefix in [[], Array("<".utf8), Array("{".utf8)] as [[UInt8]] {
            let response = Support.response(Data(prefix + bytes), contentType: contentType)
            let error = #expect(throws: SerializationError.self) { try Support.serializer.serialize(response) }
            #expect(error?.code == .invalidBody)
        }
    }
}

@Suite struct ConformanceTests {
    @Test func fixturesPass() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("problemDetails"))
        try ConformanceRunner(registry: SerializerRegistry.standard.installing(.problemDetails)).check(fixtures)
        #expect(fixtures.count >= 15)
    }

    /// The serializer rules every format must follow, with fixture bodies as samples.
    @Test func followsTheSerializerRules() throws {
        let root = try #require(FixtureLoader.fixturesDirectory(from: #filePath))
        let fixtures = try FixtureLoader.fixtures(in: root.appendingPathComponent("problemDetails"))
        try SerializerRules(samplesFrom: fixtures).check(.problemDetails)
    }
}
