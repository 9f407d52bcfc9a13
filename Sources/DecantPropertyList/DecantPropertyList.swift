// DecantPropertyList: binary, XML and OpenStep property lists parsed by Decant's own readers into
// `PropertyListValue`, plus `Decodable` support. See DecantPropertyList.docc for the overview.
public import DecantCore

extension SerializerModule {
    /// The property list module: the `propertyList` serializer (`application/x-plist`, `application/x-bplist`,
    /// `application/plist`) with `Decodable` support.
    public static var propertyList: SerializerModule {
        SerializerModule(name: "DecantPropertyList", factories: [PropertyListSerializerFactory()])
    }
}
