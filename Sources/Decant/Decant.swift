@_exported public import DecantBytes
@_exported public import DecantCharset
@_exported public import DecantCompression
@_exported public import DecantConfiguration
@_exported public import DecantCore
@_exported public import DecantFoundation
@_exported public import DecantImage
@_exported public import DecantJSON
@_exported public import DecantPropertyList
@_exported public import DecantRawHTTP
@_exported public import DecantString
@_exported public import DecantXMLDocument
@_exported public import DecantXMLParser

extension SerializerRegistry {
    /// A registry with every built-in format module installed, in this order: `DecantJSON` (`json`:
    /// `application/json`, `text/json`, `text/javascript`, `*/*+json`), `DecantPropertyList` (`propertyList`:
    /// `application/x-plist`, `application/x-bplist`, `application/plist`), `DecantXMLDocument` (`xmlDocument`, the
    /// immutable DOM: `application/xml`, `text/xml`, `*/*+xml`; the module also brings the streaming `xmlParser`
    /// serializer, which loses the ties so that XML bodies become trees unless a chain names `xmlParser`),
    /// `DecantImage` (`image`: PNG, JPEG, GIF, BMP, ICO; TIFF reports "not yet supported") and `DecantString`
    /// (`string`: `text/*`).
    ///
    /// Format modules are installed here as they land. The raw-bytes `data` serializer is not installed, so that an
    /// unknown media type fails with a clear ``SerializationError/Code/noSerializer`` error; install
    /// ``SerializerModule/data`` for a catch-all.
    public static var standard: SerializerRegistry {
        SerializerRegistry(modules: [.json, .propertyList, .xmlDocument, .image, .string])
    }
}
