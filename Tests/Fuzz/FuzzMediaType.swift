// libFuzzer target: media type, media range and Accept parsing. Built by Tests/Fuzz/run together with DecantCore's
// sources (see README.md in this folder). Invariants checked: no crash; a parsed type re-parses to itself; strict
// parsing never accepts what lenient parsing rejects; equal types hash alike.
/// The libFuzzer entry point: runs one input through the checks above and traps on a broken invariant.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMediaType(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lenient = try? MediaType(parsing: text)
    if let lenient {
        guard let reparsed = try? MediaType(parsing: lenient.description), reparsed == lenient,
            reparsed.hashValue == lenient.hashValue, reparsed.description == lenient.description
        else { fatalError("serialization does not round-trip: \(text.debugDescription) -> \(lenient)") }
        _ = lenient.groups
        _ = lenient.suffix
    }
    if (try? MediaType(parsing: text, mode: .strict)) != nil, lenient == nil {
        fatalError("strict accepted what lenient rejected: \(text.debugDescription)")
    }
    _ = try? MediaRange(parsing: text)
    let header = AcceptHeader(parsing: text)
    if let lenient { _ = header.quality(of: lenient) }
    var headers = HTTPHeaderFields()
    headers.append(name: "Content-Type", value: text)
    _ = headers.contentType
    return 0
}
