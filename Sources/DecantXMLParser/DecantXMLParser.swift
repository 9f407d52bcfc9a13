// DecantXMLParser: Decant's own XML 1.0 (Fifth Edition) + Namespaces parser for untrusted bodies (`XMLStreamParser`),
// its serializers and `XMLCanonicalWriter`. See DecantXMLParser.docc for the overview.
public import DecantCore

extension SerializerModule {
    /// The streaming XML module: the `xmlParser` serializer (`application/xml`, `text/xml`, `*/*+xml`), which returns
    /// a ready-to-run ``XMLStreamParser``.
    public static var xmlParser: SerializerModule {
        SerializerModule(name: "DecantXMLParser", factories: [XMLParserSerializerFactory()])
    }
}
