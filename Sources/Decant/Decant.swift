@_exported public import DecantCore
@_exported public import DecantFoundation

extension SerializerRegistry {
    /// A registry with every built-in format module installed, in this order: (none yet besides the core).
    ///
    /// Format modules (JSON, String, PropertyList, XMLParser, XMLDocument, Image) add themselves here as they land.
    /// The raw-bytes `data` serializer is not installed, so that an unknown media type fails with a clear
    /// ``SerializationError/Code/noSerializer`` error; install ``SerializerModule/data`` for a catch-all.
    public static var standard: SerializerRegistry {
        SerializerRegistry()
    }
}
