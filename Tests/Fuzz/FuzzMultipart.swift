// libFuzzer target: the multipart serializer of the DecantMultipart plugin (RFC 2046 framing, part headers, transfer
// encodings, nested bodies, form-data and byteranges rules). The input is a raw HTTP response (the fixtures seed it);
// when it does not parse as one, it is a body whose media type the first byte picks. Invariants: no crash or hang;
// an error is invalidBody or limitExceeded with an offset inside the body; the parts of every level together are at
// most maxParts and nesting stays within maxDepth; every part body without a transfer encoding is a slice inside the
// body at its bodyOffset; parsing again gives the same canonical form. Image and XML parts are decoded too, under one
// small DecodingBudget per input: what all parts keep stays within it, and a spent budget fails only with
// limitExceeded.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantPropertyList DecantXMLParser DecantXMLDocument DecantImage DecantRawHTTP DecantConfiguration DecantConformance DecantMultipart
// fuzz-seeds: Fixtures/multipart
// fuzz-max-len: 16384
import DecantConformance
import DecantCore
import DecantImage
import DecantJSON
import DecantRawHTTP
import DecantXMLDocument
import FoundationEssentials

/// Parts are decoded by JSON, images, XML trees and, for everything else, the raw-bytes serializer.
private let partRegistry = SerializerRegistry(modules: [.json, .image, .xmlDocument, .data])
/// The budget every input's parts share: small, so that it is spent often.
private let budgetBytes = 4 << 20
private let budgetExpansion = 200_000
/// Tight limits, so that the guards are exercised.
private let options = MultipartParsingOptions(maxParts: 64, maxPartHeaderBytes: 512, maxDepth: 3)
private let serializer = MultipartResponseSerializer(decodingPartsWith: partRegistry, options: options)
private let subtypes = ["mixed", "form-data", "byteranges", "alternative"]

/// The libFuzzer entry point: parses the response twice and checks the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMultipart(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let response: Response
    if let raw = try? Response(raw: bytes), raw.contentType?.type == "multipart" {
        response = raw
    } else {
        let subtype = subtypes[Int(bytes.first ?? 0) % subtypes.count]
        response = Response(
            headers: ["Content-Type": "multipart/\(subtype); boundary=b"], body: bytes.dropFirst(min(1, size)))
    }
    let body: MultipartBody
    let budget = DecodingBudget(maxBytes: budgetBytes, maxExpansionBytes: budgetExpansion)
    do {
        body = try DecodingBudget.withBudget(budget) { try serializer.serialize(response) }
    } catch let error as SerializationError {
        precondition(!budget.isExhausted || error.code == .limitExceeded, "a spent budget failed with \(error.code)")
        precondition(
            error.offset.map { (0...response.body.count).contains($0) } ?? false,
            "offset \(String(describing: error.offset)) outside 0...\(response.body.count)")
        precondition(
            error.code == .invalidBody || error.code == .limitExceeded, "unexpected code \(error.code): \(error)")
        return 0
    } catch {
        preconditionFailure("not a SerializationError: \(error)")
    }
    precondition(budget.usedBytes <= budgetBytes && budget.expandedBytes <= budgetExpansion, "budget overspent")
    precondition(!budget.isExhausted, "a spent budget, yet the body succeeded")
    var total = 0
    check(body, input: response.body, depth: 1, total: &total)
    precondition(total <= options.maxParts, "\(total) parts, more than maxParts")
    let second = DecodingBudget(maxBytes: budgetBytes, maxExpansionBytes: budgetExpansion)
    guard let again = try? DecodingBudget.withBudget(second, { try serializer.serialize(response) }) else {
        preconditionFailure("a second parse fails")
    }
    let first = try? body.conformanceValue()
    precondition(first != nil, "no canonical form")
    precondition(first == (try? again.conformanceValue()), "a second parse gives another canonical form")
    return 0
}

/// Checks the parts of `body` (and of its nested bodies) against `input`, the bytes they were framed from.
private func check(_ body: MultipartBody, input: Data, depth: Int, total: inout Int) {
    precondition(depth <= options.maxDepth, "nesting deeper than maxDepth")
    total += body.parts.count
    for (index, part) in body.parts.enumerated() {
        precondition(part.index == index, "part index \(part.index) at \(index)")
        precondition(part.value == nil || part.error == nil, "a part with both a value and an error")
        let encoded = part.headers.firstValue(for: "Content-Transfer-Encoding") != nil
        if !encoded {
            let offset = part.body.startIndex - input.startIndex
            precondition(offset >= 0 && offset + part.body.count <= input.count, "part body outside its input")
        }
        if let nested = part.value as? MultipartBody {
            check(nested, input: encoded ? part.body : input, depth: depth + 1, total: &total)
        }
    }
}
