// libFuzzer target: every text decoder and the charset pipeline. Invariants: no crash; strict and replacement modes
// agree on valid input; a strict error's offset lies inside the input.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset
// fuzz-seeds: Fixtures/string
import DecantCore
import FoundationEssentials

/// The libFuzzer entry point: runs one input through the checks above and traps on a broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCharset(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let encodings = TextEncoding.allWHATWG + [.isoLatin1]
    let encoding = encodings[Int(data[0]) % encodings.count]
    let bytes = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let replaced = try? encoding.decode(bytes, mode: .replacement)
    do {
        let strict = try encoding.decode(bytes, mode: .strict)
        if strict != replaced { fatalError("strict and replacement disagree on valid \(encoding) input") }
    } catch {
        if error.offset < 0 || error.offset > bytes.count { fatalError("error offset \(error.offset) outside input") }
    }
    let mediaType = try? MediaType(parsing: "text/plain;charset=\(encoding.name)")
    _ = try? CharsetPipeline(mode: .strict).decode(bytes, mediaType: mediaType)
    return 0
}
