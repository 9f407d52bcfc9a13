// libFuzzer target: raw HTTP/1.1 message parsing. Invariants: no crash; a parsed response serialises back to a message
// that parses to the same status, headers and body.
// fuzz-seeds: Fixtures
// fuzz-max-len: 16384
import FoundationEssentials

/// The libFuzzer entry point: runs one input through the checks above and traps on a broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let limits = Response.RawMessageLimits(maxHeaderBytes: 4096, maxHeaderFields: 64, maxBodyBytes: 1 << 20)
    for method in [nil, "HEAD"] as [String?] {
        guard let response = try? Response(raw: bytes, requestMethod: method, limits: limits) else { continue }
        guard let again = try? Response(raw: response.rawMessage, requestMethod: method, limits: limits),
            again.status == response.status, again.body == response.body
        else { fatalError("raw message does not round-trip") }
    }
    return 0
}
