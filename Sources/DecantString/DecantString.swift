// DecantString: text bodies decoded through the WHATWG Encoding charset pipeline of DecantCore
// (`CharsetPipeline`, `TextEncoding`). See DecantString.docc for the overview.
public import DecantCore

extension SerializerModule {
    /// The `DecantString` module: the `string` serializer for `text/*`.
    ///
    /// ```swift
    /// var registry = SerializerRegistry()
    /// registry.install(.string)
    /// ```
    public static var string: SerializerModule {
        SerializerModule(name: "DecantString", factories: [StringSerializerFactory()])
    }
}
