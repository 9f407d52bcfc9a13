import DecantCore
import DecantXMLParser
import Foundation
import Testing

/// `XMLParserResponseSerializer`, `XMLHandlerResponseSerializer`, the `xmlParser` factory and module.
@Suite struct XMLSerializerTests {
    static func response(_ body: String, contentType: String = "application/xml") -> Response {
        Response(status: 200, headers: ["Content-Type": contentType], body: Data(body.utf8))
    }

    struct Names: XMLHandler {
        var names: [String] = []
        mutating func handle(_ event: XMLEvent, at position: XMLPosition) throws {
            if case .startElement(let start) = event { names.append(start.name.localName) }
        }
        mutating func finish() throws -> [String] { names }
    }

    @Test func returnsAReadyParser() throws {
        let serializer = XMLParserResponseSerializer()
        let parser = try serializer.serialize(Self.response("<r><a/></r>"))
        #expect(try parser.events().count == 4)
        // Lazy by default: a malformed body is returned too, and fails when run.
        let lazy = try serializer.serialize(Self.response("<r>"))
        let error = #expect(throws: SerializationError.self) { try lazy.events() }
        #expect(error?.code == .invalidBody)
    }

    @Test func eagerParsingCarriesTheResponse() throws {
        let serializer = XMLParserResponseSerializer(parsesEagerly: true)
        let response = Self.response("<r>", contentType: "text/xml")
        let error = #expect(throws: SerializationError.self) { try serializer.serialize(response) }
        #expect(error?.code == .invalidBody)
        #expect(error?.response == response)
        #expect(error?.serializerID == "xmlParser")
        #expect(error?.mediaType?.essence == "text/xml")
    }

    @Test func handlerSerializerReturnsTheOutput() throws {
        let serializer = XMLHandlerResponseSerializer { Names() }
        #expect(try serializer.serialize(Self.response("<r><a/><b/></r>")) == ["r", "a", "b"])
        let error = #expect(throws: SerializationError.self) { try serializer.serialize(Self.response("<r/><x/>")) }
        #expect(error?.response != nil)
    }

    @Test(arguments: ["application/xml", "text/xml", "application/atom+xml", "image/svg+xml", "Application/XML"])
    func acceptsXMLMediaTypes(_ mediaType: String) throws {
        #expect(XMLParserResponseSerializer().accepts(try MediaType(parsing: mediaType)))
    }

    @Test(arguments: ["application/json", "text/html", "application/xml-dtd"])
    func rejectsOtherMediaTypes(_ mediaType: String) throws {
        #expect(!XMLParserResponseSerializer().accepts(try MediaType(parsing: mediaType)))
    }

    @Test func factoryBuildsFromConfiguration() throws {
        let factory = XMLParserSerializerFactory()
        #expect(factory.id == "xmlParser")
        let names = Set(factory.optionSchema.map(\.name))
        #expect(names.isSuperset(of: ["namespaceAware", "maxDepth", "parsesEagerly", "mediaRanges"]))
        let serializer = try factory.makeSerializer(configuration: [
            "namespaceAware": .bool(false), "maxDepth": .integer(2), "parsesEagerly": .bool(true),
            "mediaRanges": .array([.string("application/vnd.acme+xml")]),
        ])
        #expect(serializer.options.namespaceAware == false)
        #expect(serializer.options.maxDepth == 2)
        #expect(serializer.parsesEagerly)
        #expect(serializer.mediaRanges.map(\.description) == ["application/vnd.acme+xml"])
        let deep = Self.response("<a><b><c/></b></a>")
        let error = #expect(throws: SerializationError.self) { try serializer.serialize(deep) }
        #expect(error?.code == .limitExceeded)
    }

    @Test func factoryRejectsBadOptions() {
        let factory = XMLParserSerializerFactory()
        let unknown = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["maxDeph": .integer(3)])
        }
        #expect(unknown?.code == .unknownOption)
        #expect(unknown?.message.contains("maxDepth") == true)
        let illTyped = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["namespaceAware": .string("yes")])
        }
        #expect(illTyped?.code == .invalidOption)
        let empty = #expect(throws: SerializationError.self) {
            try factory.makeSerializer(configuration: ["mediaRanges": .array([])])
        }
        #expect(empty?.code == .invalidOption)
    }

    @Test func parsingOptionsApplyConfiguration() throws {
        var options = XMLParsingOptions()
        try options.apply(["maxTextLength": .integer(5), "maxEntityExpansionRatio": .number(3)])
        #expect(options.maxTextLength == 5 && options.maxEntityExpansionRatio == 3)
        #expect(options.maxNameLength == XMLParsingOptions.defaultMaxNameLength)
        let error = #expect(throws: SerializationError.self) { try options.apply(["maxTextLength": .string("x")]) }
        #expect(error?.code == .invalidOption)
    }

    @Test func moduleInstallsTheFactory() throws {
        let registry = SerializerRegistry(modules: [.xmlParser])
        #expect(registry.conflicts.isEmpty)
        #expect(registry.resolve(try MediaType(parsing: "application/rss+xml")).chosen?.id == "xmlParser")
    }
}
