// libFuzzer target: the whole pipeline, as `decant decode` runs it: a response through the standard registry (every
// built-in serializer, chosen by media type), with default content decoding. Invariants: no crash, hang or unbounded
// allocation; every error is a SerializationError that keeps the response it was given.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantFoundation DecantRawHTTP DecantJSON DecantConfiguration DecantString DecantPropertyList DecantXMLParser DecantXMLDocument DecantImage Decant
// fuzz-seeds: Fixtures
// fuzz-max-len: 65536
import DecantCore
import FoundationEssentials

/// The media types the first byte picks from: one or more for every built-in serializer, with parameters.
let mediaTypes = [
    "application/json", "application/problem+json", "text/json; charset=utf-16", "text/plain",
    "text/plain; charset=shift_jis", "text/html; charset=windows-1252", "application/x-plist", "application/xml",
    "application/atom+xml; charset=iso-8859-1", "image/png", "image/gif", "image/bmp", "image/x-icon", "image/jpeg",
    "application/octet-stream",
]

/// The registry, built once (`SerializerRegistry.standard` is a value, cheap to share).
let registry = SerializerRegistry.standard

/// The libFuzzer entry point: runs one input through the checks above and traps on a broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRegistry(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 1 else { return 0 }
    let selector = Int(data[0])
    var headers: HTTPHeaderFields = ["Content-Type": mediaTypes[selector % mediaTypes.count]]
    // One input in eight claims a gzip body, so the default content decoding runs on fuzzed bytes.
    if selector & 0x80 != 0 && selector & 0x70 == 0 { headers.append(name: "Content-Encoding", value: "gzip") }
    let body = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let response = Response(status: 200, headers: headers, body: body)
    do {
        let result = try registry.serialize(response, sniffing: selector & 1 == 0 ? .trustHeader : .sniffWhenGeneric)
        // Images decode lazily on demand: read the pixels and every frame, as the tool's canonical form does.
        if let image = result.value as? Image {
            _ = image.pixels.count
            for frame in image.frames { _ = frame.pixels.count }
        }
    } catch {
        if error.response == nil { fatalError("a registry error lost its response: \(error.code)") }
    }
    return 0
}
