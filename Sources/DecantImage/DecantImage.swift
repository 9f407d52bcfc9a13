// DecantImage: pure-Swift image decoding (PNG with inflate, GIF with LZW, BMP, ICO/CUR) behind the `image` serializer.
// See DecantImage.docc for the overview.
public import DecantCore

extension SerializerModule {
    /// The `DecantImage` module: the `image` serializer for AFNetworking's image media types.
    ///
    /// ```swift
    /// var registry = SerializerRegistry()
    /// registry.install(.image)
    /// ```
    public static var image: SerializerModule {
        SerializerModule(name: "DecantImage", factories: [ImageSerializerFactory()])
    }
}
