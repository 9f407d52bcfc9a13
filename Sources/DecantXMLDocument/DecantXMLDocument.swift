// DecantXMLDocument: an immutable, `Sendable` XML tree (`XMLTree`) built on DecantXMLParser's events, with
// navigation, simple path queries and Canonical XML. See DecantXMLDocument.docc for the overview.
public import DecantCore
import DecantXMLParser

extension SerializerModule {
    /// The XML module: the `xmlDocument` serializer (`application/xml`, `text/xml` and every `+xml` type) producing
    /// an `XMLTree`, then the streaming `xmlParser` serializer from DecantXMLParser.
    ///
    /// Both serializers claim the same media ranges; `xmlDocument` comes first, so it wins the ties and XML bodies
    /// become trees, while a chain or `registry.serializer(id:)` can still name `xmlParser`. Installing them as one
    /// module keeps the registry free of conflicts. Install `SerializerModule.xmlParser` alone to make the streaming
    /// parser the default instead.
    public static var xmlDocument: SerializerModule {
        SerializerModule(
            name: "DecantXMLDocument", factories: [XMLDocumentSerializerFactory(), XMLParserSerializerFactory()])
    }
}
