import DecantCore
import DecantXMLParser
import Foundation
import Testing

@testable import DecantXMLDocument

@Suite struct XMLDocumentSerializerTests {
    static func response(_ body: String, contentType: String = "application/xml", status: Int = 200) -> Response {
        Response(status: status, headers: ["Content-Type": contentType], body: Data(body.utf8))
    }

    static let acceptedTypes = [
        "application/xml", "text/xml", "application/atom+xml", "image/svg+xml", "application/rss+xml; charset=utf-8",
        "Application/XML", "application/vnd.acme.thing+xml",
    ]

    @Test(arguments: acceptedTypes)
    func acceptsXMLMediaTypes(_ text: String) throws {
        let mediaType = try MediaType(parsing: text)
        #expect(XMLDocumentResponseSerializer().accepts(mediaType))
    }

    @Test(arguments: ["application/json", "text/plain", "application/xml-dtd", "text/html", "application/xhtml"])
    func rejectsOtherMediaTypes(_ text: String) throws {
        #expect(!XMLDocumentResponseSerializer().accepts(try MediaType(parsing: text)))
    }

    @Test func hasTheStableIdentifiers() throws {
        #expect(XMLDocumentResponseSerializer().id == "xmlDocument")
        #expect(XMLDocumentSerializerFactory().id == "xmlDocument")
        #expect(SerializerModule.xmlDocument.name == "DecantXMLDocument")
        // The DOM first, so it wins the ties over the streaming parser the module also brings.
        #expect(SerializerModule.xmlDocument.factories.map(\.id) == ["xmlDocument", "xmlParser"])
        let registry = SerializerRegistry(modules: [.xmlDocument])
        #expect(registry.conflicts.isEmpty)
        let atom = try MediaType(parsing: "application/atom+xml")
        #expect(registry.resolve(atom).chosen?.id == "xmlDocument")
        #expect(XMLDocumentSerializerFactory().mediaRanges == MediaFormat.xmlDocument.mediaRanges)
        #expect(
            MediaFormat.xmlDocument.mediaRanges.map(\.description)
                == ["application/xml", "text/xml", "*/*+xml"])
    }

    @Test func schemaIsTheParsersOptionsAndMediaRanges() {
        let names = XMLDocumentSerializerFactory().optionSchema.map(\.name)
        #expect(names == XMLParsingOptions.optionSchema.map(\.name) + ["mediaRanges"])
    }

    @Test func factoryBuildsFromConfiguration() throws {
        let factory = XMLDocumentSerializerFactory()
        let serializer = try factory.makeSerializer(configuration: ["mediaRanges": ["application/x-custom+xml"]])
        #expect(serializer.mediaRanges == [MediaRange("application/x-custom+xml")])
        #expect(serializer.options == XMLParsingOptions())
        let defaults = try factory.makeSerializer(configuration: [:])
        #expect(defaults.mediaRanges == MediaFormat.xmlDocument.mediaRanges)
    }

    @Test func factoryPassesTheParsersOptionsThrough() throws {
        // Each option of the parser's schema set to a value of its declared type that differs from the default
        // must reach the serializer's parsing options.
        let factory = XMLDocumentSerializerFactory()
        for option in XMLParsingOptions.optionSchema {
            let value: ConfigurationValue
            switch option.kind {
            case .bool:
                guard case .bool(let flag)? = option.defaultValue else { continue }
                value = .bool(!flag)
            case .integer(let range):
                guard case .integer(let number)? = option.defaultValue else { continue }
                let candidate = number == (range?.lowerBound ?? 0) ? number + 1 : (range?.lowerBound ?? 0)
                value = .integer(candidate)
            default:
                continue
            }
            let serializer = try factory.makeSerializer(configuration: [option.name: value])
            #expect(serializer.options != XMLParsingOptions(), "\(option.name) = \(value)")
        }
    }

    static let badConfigurations: [(ConfigurationOptions, SerializationError.Code, String)] = [
        (["mediaRanges": ["not a range"]], .invalidOption, "mediaRanges"),
        (["mediaRanges": []], .invalidOption, "mediaRanges"),
        (["mediaRanges": "application/xml"], .invalidOption, "mediaRanges"),
        (["mediaRange": ["application/xml"]], .unknownOption, "Did you mean 'mediaRanges'?"),
        (["nonsense": true], .unknownOption, "Its options are:"),
    ]

    @Test(arguments: badConfigurations)
    func factoryRejectsBadConfiguration(
        configuration: ConfigurationOptions, code: SerializationError.Code, message: String
    ) {
        let error = #expect(throws: SerializationError.self) {
            try XMLDocumentSerializerFactory().makeSerializer(configuration: configuration)
        }
        #expect(error?.code == code)
        #expect(error?.serializerID == "xmlDocument")
        #expect(error?.message.contains(message) == true, "\(error?.message ?? "")")
        #expect(error?.codingPath.first.map { configuration.keys.contains($0) } == true)
    }

    @Test(.enabled(if: CanonicalXMLTests.parserWorks, "needs the XML parser"))
    func serializesABody() throws {
        let tree = try XMLDocumentResponseSerializer().serialize(
            Self.response("<feed xmlns='urn:f'><title>Hi</title></feed>", contentType: "application/atom+xml"))
        #expect(tree.root.namespaceURI == "urn:f")
        #expect(try tree.string(at: "/f:feed/f:title", namespaces: ["f": "urn:f"]) == "Hi")
    }

    @Test(.enabled(if: CanonicalXMLTests.parserWorks, "needs the XML parser"))
    func registryDispatchesByMediaType() throws {
        var registry = SerializerRegistry()
        _ = registry.install(.xmlDocument)
        let tree = try registry.serialize(
            Self.response("<svg><g/></svg>", contentType: "image/svg+xml"), as: XMLTree.self)
        #expect(tree.root.childElements.map(\.qualifiedName) == ["g"])
    }

    @Test(arguments: ["<a><b></a>", "", "<a/><b/>", "not xml"])
    func errorsCarryTheResponse(_ body: String) {
        let response = Self.response(body, contentType: "text/xml; charset=utf-8", status: 422)
        let error = #expect(throws: SerializationError.self) { try XMLDocumentResponseSerializer().serialize(response) }
        #expect(error?.response?.body == Data(body.utf8))
        #expect(error?.status == 422)
        #expect(error?.serializerID == "xmlDocument")
        #expect(error?.mediaType?.essence == "text/xml")
        if CanonicalXMLTests.parserWorks {
            #expect(error?.code == .invalidBody, "\(error?.message ?? "")")
        }
    }
}
