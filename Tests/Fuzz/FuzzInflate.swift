// libFuzzer target: Inflate in zlib, raw and gzip modes. Invariants: no crash or hang on any bytes, output never
// beyond maxOutput, and the Data and [UInt8] entry points agree.
// fuzz-modules: DecantCore DecantImage
// fuzz-seeds: images/pngsuite/image-png/tests/pngsuite
// fuzz-max-len: 16384
import DecantCore
import FoundationEssentials

/// The libFuzzer entry point: the first byte picks the mode, the rest is the compressed stream.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzInflate(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let mode = data[0] % 4
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
    default:
        // A tiny limit: the limit checks at every growth step.
        let output = try? Inflate.raw(bytes, maxOutput: 100)
        precondition(output == nil || output!.count <= 100, "small output limit")
    }
    return 0
}
