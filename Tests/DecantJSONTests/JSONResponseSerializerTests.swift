import DecantCore
import Foundation
import Testing

@testable import DecantJSON

@Suite struct JSONResponseSerializerTests {
    static func response(
        _ status: Int = 200, type: String? = "application/json", body: String = "", method: String? = nil
    ) -> Response {
        var headers = HTTPHeaderFields()
        if let type { headers.append(name: "Content-Type", value: type) }
        return Response(status: status, headers: headers, body: Data(body.utf8), requestMethod: method)
    }

    var registry: SerializerRegistry {
        var registry = SerializerRegistry()
        registry.install(.json)
        return registry
    }

    @Test(arguments: [
        "application/json", "Application/JSON; Charset=UTF-8", "text/json", "text/javascript",
        "application/problem+json; charset=utf-8", "application/vnd.api+json", "application/geo+json",
    ])
    func resolvesJSONMediaTypes(type: String) throws {
        let response = Self.response(type: type, body: #"{"ok":true}"#)
        #expect(registry.resolve(response).chosen?.id == "json")
        let value = try registry.serialize(response)
        #expect(value.serializerID == "json")
        #expect((value.value as? JSONValue)?["ok"]?.boolValue == true)
        #expect(try registry.serialize(response, as: JSONValue.self)["ok"] == true)
    }

    @Test func doesNotClaimOtherTypes() {
        for type in ["text/plain", "application/xml", "application/jsonp", "image/json"] {
            #expect(registry.resolve(Self.response(type: type, body: "{}")).chosen == nil, "\(type)")
        }
    }

    @Test func notFoundWithAJSONBodyKeepsTheDecodedBody() throws {
        let response = Self.response(
            404, type: "application/problem+json", body: #"{"title":"Not Found","status":404}"#)
        let chain = ResponseChain(JSONResponseSerializer())
        let error = #expect(throws: SerializationError.self) { try chain.serialize(response) }
        #expect(error?.code == .unacceptableStatusCode)
        let body = error?.errorValue as? JSONValue
        #expect(body?["title"]?.stringValue == "Not Found")
        #expect(body?["status"]?.intValue == 404)
        let viaRegistry = #expect(throws: SerializationError.self) { try registry.serialize(response) }
        #expect(viaRegistry?.code == .unacceptableStatusCode)
        #expect((viaRegistry?.errorValue as? JSONValue)?["status"] == 404)
    }

    @Test(arguments: [
        response(body: ""), response(body: " "), response(body: "\r\n\t "), response(204, type: nil),
        response(body: #"{"a":1}"#, method: "HEAD"),
    ])
    func emptyResponsesGiveNull(response: Response) throws {
        let chain = ResponseChain(JSONResponseSerializer())
        #expect(try chain.serialize(response).isNull)
        let result = try registry.serialize(response)
        if response.contentType == nil {
            // A 204 without Content-Type is claimed by no format: the registry's neutral empty value.
            #expect(result.value is EmptyResponse)
            #expect(result.serializerID == "registry")
        } else {
            #expect((result.value as? JSONValue)?.isNull == true)
        }
    }

    @Test func emptyValueIsConfigurable() throws {
        let chain = ResponseChain(JSONResponseSerializer(options: JSONParsingOptions(emptyValue: [:])))
        #expect(try chain.serialize(Self.response(body: " ")).description == "{}")
    }

    @Test func parseErrorsCarryTheResponseAndOffset() throws {
        let response = Self.response(type: "application/json; charset=utf-8", body: #"{"a": [1, 2,]}"#)
        let chain = ResponseChain(JSONResponseSerializer())
        let error = #expect(throws: SerializationError.self) { try chain.serialize(response) }
        #expect(error?.code == .invalidBody)
        #expect(error?.serializerID == "json")
        #expect(error?.offset == 12)
        #expect(error?.response == response)
        #expect(error?.mediaType?.essence == "application/json")
    }

    @Test func factoryBuildsFromConfiguration() throws {
        let factory = JSONSerializerFactory()
        #expect(factory.id == "json")
        let serializer = try factory.makeSerializer(configuration: [
            "allowsFragments": false, "maxDepth": 3, "duplicateKeys": "reject", "removesKeysWithNullValues": true,
            "mediaRanges": ["application/x-custom"], "emptyValue": ["empty": true], "maxBytes": 100,
        ])
        #expect(serializer.options.allowsFragments == false)
        #expect(serializer.options.maxDepth == 3)
        #expect(serializer.options.duplicateKeys == .reject)
        #expect(serializer.options.removesKeysWithNullValues)
        #expect(serializer.options.maxBytes == 100)
        #expect(serializer.options.emptyValue == ["empty": true])
        #expect(serializer.mediaRanges == [MediaRange("application/x-custom")])
        #expect(try factory.makeSerializer(configuration: [:]).options == JSONParsingOptions())
    }

    @Test(arguments: [
        (["maxDepth": 0] as ConfigurationOptions, SerializationError.Code.invalidOption),
        (["maxDepth": 100_001] as ConfigurationOptions, .invalidOption),
        (["duplicateKeys": "firstWins"] as ConfigurationOptions, .invalidOption),
        (["allowsFragments": "yes"] as ConfigurationOptions, .invalidOption),
        (["mediaRanges": ["not a range"]] as ConfigurationOptions, .invalidOption),
        (["maxdepth": 3] as ConfigurationOptions, .unknownOption),
    ])
    func factoryRejectsBadConfiguration(configuration: ConfigurationOptions, code: SerializationError.Code) {
        let error = #expect(throws: SerializationError.self) {
            try JSONSerializerFactory().makeSerializer(configuration: configuration)
        }
        #expect(error?.code == code)
    }

    @Test func moduleIsNamedDecantJSON() {
        #expect(SerializerModule.json.name == "DecantJSON")
        #expect(SerializerModule.json.factories.map(\.id) == ["json"])
        #expect(registry.acceptHeader.description.contains("application/json"))
    }
}
