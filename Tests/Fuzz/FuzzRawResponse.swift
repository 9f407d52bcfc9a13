// libFuzzer target: raw HTTP/1.1 message parsing. Invariants: no crash; a parsed response serialises back to a message
// that parses to the same status, headers and body. The written head may be larger than the one read (CRLF for bare
// LF, a Content-Length the writer adds), so the second parse allows twice the head size and two more fields.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantRawHTTP
// fuzz-seeds: Fixtures
// fuzz-max-len: 16384
import DecantCore
import FoundationEssentials

/// The libFuzzer entry point: runs one input through the checks above and traps on a broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let limits = Response.RawMessageLimits(maxHeaderBytes: 4096, maxHeaderFields: 64, maxBodyBytes: 1 << 20)
    let roomier = Response.RawMessageLimits(maxHeaderBytes: 2 * 4096 + 64, maxHeaderFields: 66, maxBodyBytes: 1 << 20)
    for method in [nil, "HEAD"] as [String?] {
        guard let response = try? Response(raw: bytes, requestMethod: method, limits: limits) else { continue }
        guard let again = try? Response(raw: response.rawMessage, requestMethod: method, limits: roomier),
            again.status == response.status, again.body == response.body
        else { fatalError("raw message does not round-trip") }
    }
    return 0
}
