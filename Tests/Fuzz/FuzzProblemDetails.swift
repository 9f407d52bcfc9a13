// libFuzzer target: the DecantProblemDetails plugin's JSON and XML readers. Invariants: no crash or hang on any bytes;
// every error carries the plugin's id; a JSON body gives a problem exactly when the JSON parser (same limits) reads an
// object, with every other member an extension; XML extensions never use a standard member's name; the canonical
// form writes and parses back to an equal value.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantPropertyList DecantXMLParser DecantXMLDocument DecantImage DecantRawHTTP DecantConfiguration DecantConformance DecantProblemDetails
// fuzz-seeds: Fixtures/problemDetails Fixtures/json
// fuzz-max-len: 16384
// fuzz-dict: FuzzXML.dict
import DecantConformance
import DecantCore
import DecantJSON
import FoundationEssentials

/// The libFuzzer entry point. The first byte picks the form (bit 0), whether a base URL is given (bit 1) and tight
/// limits (bit 2); the rest is the body.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProblemDetails(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let body = Data(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let format: ProblemDetails.Format = control & 1 == 0 ? .json : .xml
    let base = control & 2 == 0 ? nil : URL(string: "https://fuzz.example/a/b/c?q=1")
    var options = ProblemDetailsOptions()
    if control & 4 != 0 {
        options.maxDepth = 4
        options.maxBytes = 4096
    }
    let mediaType = MediaType(format == .json ? "application/problem+json" : "application/problem+xml")
    let problem: ProblemDetails
    do {
        problem = try ProblemDetails(
            parsing: body, format: format, mediaType: mediaType, baseURL: base, options: options)
    } catch {
        precondition(error.serializerID == "problemDetails", "an error without the plugin's id: \(error)")
        if format == .json, body.count <= options.maxBytes,
            let value = try? JSONParser(options: options.jsonParsing).parse(body)
        {
            precondition(value.kind != .object, "the JSON parser reads an object, the plugin fails: \(error)")
            precondition(error.code == .notAProblemDocument, "a non-object gives \(error.code)")
        }
        return 0
    }
    if format == .json {
        guard let value = try? JSONParser(options: options.jsonParsing).parse(body), value.kind == .object else {
            preconditionFailure("the plugin reads a problem where the JSON parser reads no object")
        }
        let extensionNames = value.members.map(\.key).filter { !ProblemDetails.standardMemberNames.contains($0) }
        precondition(problem.extensions.map(\.name) == extensionNames, "extensions differ from the other members")
    }
    precondition(
        !problem.extensions.contains { ProblemDetails.standardMemberNames.contains($0.name) },
        "an extension named like a standard member")
    if let status = problem.status, format == .xml { precondition(status > 0, "an XML status that is not positive") }
    guard let canonical = try? problem.conformanceValue() else { return 0 }
    precondition(canonical["type"]?.stringValue != nil, "the canonical form has no type")
    let written = canonical.jsonData()
    precondition((try? JSONParser().parse(written)) == canonical, "the canonical form does not round-trip")
    return 0
}
