// libFuzzer target: body sniffing and the sniffing policy. Invariant: no crash, on any bytes and any slice offset.
import FoundationEssentials

/// The libFuzzer entry point: runs one input through the checks above and traps on a broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSniffer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    _ = MediaTypeSniffer.sniff(bytes)
    if bytes.count > 1 { _ = MediaTypeSniffer.sniff(bytes.dropFirst()) }
    let response = Response(status: 200, headers: ["Content-Type": "application/octet-stream"], body: bytes)
    _ = SniffingPolicy.sniffWhenGeneric.effectiveMediaType(for: response)
    return 0
}
