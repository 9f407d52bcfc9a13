// libFuzzer target: the JSON parser and writer. Invariants: no crash or hang on any bytes; whatever parses is
// written back as JSON that parses to an equal value, and writing that again gives the same bytes.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON
// fuzz-seeds: Fixtures/json json/JSONTestSuite json/nativejson-benchmark/data/jsonchecker json/nativejson-benchmark/data/roundtrip
// fuzz-max-len: 16384
import DecantCore
import FoundationEssentials

/// The libFuzzer entry point: parses, writes compact and sorted pretty-printed text, and parses both back.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    guard let value = try? JSONParser().parse(bytes) else { return 0 }
    let compact = value.jsonData()
    guard let reparsed = try? JSONParser().parse(compact) else {
        preconditionFailure("written JSON does not parse: \(String(decoding: compact, as: UTF8.self))")
    }
    precondition(reparsed == value, "round trip changes the value")
    precondition(reparsed.jsonData() == compact, "writing is not stable")
    let pretty = value.jsonData(options: [.prettyPrinted, .sortedKeys])
    precondition((try? JSONParser().parse(pretty)) == value, "pretty round trip changes the value")
    return 0
}
