// libFuzzer target: Inflate in zlib, raw and gzip modes, and the ContentDecoding stage over it. Invariants: no crash
// or hang on any bytes, output never beyond maxOutput, the Data and [UInt8] entry points agree, and ContentDecoding
// either returns the decoded body without Content-Encoding or throws with the response it was given.
// fuzz-modules: DecantBytes DecantCompression DecantCore
// fuzz-seeds: images/pngsuite/image-png/tests/pngsuite
// fuzz-max-len: 16384
import DecantCompression
import FoundationEssentials

/// The libFuzzer entry point: the first byte picks the mode, the rest is the compressed stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInflate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0] % 6
    let bytes = [UInt8](UnsafeBufferPointer(start: data + 1, count: size - 1))
    let maxOutput = 1 << 20
    switch mode {
    case 0:
        let output = try? Inflate.zlib(bytes, maxOutput: maxOutput)
        precondition(output == nil || output!.count <= maxOutput, "zlib output limit")
        precondition((try? Inflate.zlib(Data(bytes), maxOutput: maxOutput)) == output, "zlib Data agrees")
    case 1:
        let output = try? Inflate.raw(bytes, maxOutput: maxOutput)
        precondition(output == nil || output!.count <= maxOutput, "raw output limit")
    case 2:
        let output = try? Inflate.gzip(bytes, maxOutput: maxOutput)
        precondition(output == nil || output!.count <= maxOutput, "gzip output limit")
    case 3:
        // A tiny limit: the limit checks at every growth step.
        let output = try? Inflate.raw(bytes, maxOutput: 100)
        precondition(output == nil || output!.count <= 100, "small output limit")
    default:
        // The response stage: gzip, deflate (zlib or the raw fallback), or both stacked; a ratio guard on half.
        let codings = ["gzip", "deflate", "deflate, gzip", "x-gzip, identity"][Int(data[0] / 6) % 4]
        let stage = ContentDecoding(maxDecodedBytes: maxOutput, maxExpansionRatio: mode == 5 ? 50 : nil)
        let response = Response(
            headers: ["Content-Encoding": codings, "Content-Length": String(bytes.count)], body: Data(bytes))
        do {
            let decoded = try stage.process(response)
            precondition(decoded.body.count <= maxOutput, "ContentDecoding output limit")
            precondition(
                bytes.isEmpty ? decoded == response : !decoded.headers.contains("Content-Encoding"),
                "Content-Encoding removed")
            if !bytes.isEmpty {
                precondition(decoded.headers["Content-Length"] == String(decoded.body.count), "Content-Length")
                if codings == "gzip" && mode == 4 {
                    let direct = try? Inflate.gzip(bytes, maxOutput: maxOutput)
                    precondition(direct == [UInt8](decoded.body), "ContentDecoding agrees with Inflate.gzip")
                }
            }
        } catch {
            precondition(error.response == response, "the error keeps the response")
        }
    }
    return 0
}
