// libFuzzer target: the property list parsers (binary, XML, OpenStep). Invariants: no crash, hang or unbounded
// allocation on any bytes, in each format and with format detection.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantPropertyList
// fuzz-seeds: Fixtures/propertyList plist json/swift-foundation-resources/Tests/FoundationEssentialsTests/Resources
// fuzz-max-len: 16384
import DecantCore
import FoundationEssentials

/// The libFuzzer entry point: the first byte picks the format (auto, binary, XML, OpenStep), the rest is the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPropertyList(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let formats: [PropertyListFormat] = [.auto, .binary, .xml, .openStep]
    var options = PropertyListParsingOptions()
    options.format = formats[Int(data[0]) % formats.count]
    let bytes = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    if let value = try? PropertyListParser(options: options).parse(bytes) {
        _ = value.canonicalJSONText()
    }
    // Every input also goes through detection, so that seeds reach their own parser whatever the first byte.
    _ = try? PropertyListParser().parse(Data(UnsafeBufferPointer(start: data, count: size)))
    return 0
}
