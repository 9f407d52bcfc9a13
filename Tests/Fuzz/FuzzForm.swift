// libFuzzer target: the WHATWG application/x-www-form-urlencoded parser of the DecantForm plugin. Invariants: no
// crash or hang on any bytes; default parsing never fails below its limits; no pair is longer than the input and
// there are no more pairs than `&`-separated sequences; the canonical form lists the same pairs; writing the pairs
// again with FormWriter (WHATWG urlencoded serializer) gives the bytes of the independent serializer below, and parsing
// them gives equal form data; tight limits only ever fail with limitExceeded and never let more than maxPairs fields
// through.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantPropertyList DecantXMLParser DecantXMLDocument DecantImage DecantRawHTTP DecantConfiguration DecantConformance DecantValueTree DecantForm
// fuzz-seeds: Fixtures/form form/wpt
// fuzz-max-len: 16384
import DecantConformance
import DecantCore
import DecantJSON
import FoundationEssentials

/// The libFuzzer entry point: parses with default and tight limits and checks the invariants above.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzForm(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(UnsafeBufferPointer(start: data, count: size))
    let form: FormData
    do throws(SerializationError) {
        form = try FormParser().parse(bytes)
    } catch {
        preconditionFailure("default limits reject \(size) bytes: \(error)")
    }
    let sequences = bytes.split(separator: UInt8(ascii: "&"), omittingEmptySubsequences: true).count
    precondition(form.pairs.count == sequences, "\(form.pairs.count) pairs for \(sequences) sequences")
    for pair in form.pairs {
        // U+FFFD takes 3 bytes where one bad byte was, so compare in scalars, which never outnumber input bytes.
        precondition(pair.name.unicodeScalars.count + pair.value.unicodeScalars.count <= size, "a pair outgrows input")
    }
    guard let rows = (try? form.conformanceValue())?["pairs"]?.arrayValue, rows.count == form.pairs.count else {
        preconditionFailure("the canonical form does not list every pair")
    }
    for (row, pair) in zip(rows, form.pairs) {
        precondition(row == .array([JSONValue(pair.name), JSONValue(pair.value)]), "the canonical form differs")
    }
    let written = FormWriter().write(form)
    // The output alphabet of the WHATWG serializer: the unreserved `*-._`, ASCII digits and letters, `+` for a space,
    // `%XX` (upper-case hex) for every other byte, `=` and `&` only as separators (a property, not a second copy).
    let output = [UInt8](written)
    var index = 0
    while index < output.count {
        let byte = output[index]
        switch byte {
        case 0x2A, 0x2B, 0x2D, 0x2E, 0x5F, 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x3D, 0x26: index += 1
        case 0x25:
            precondition(index + 2 < output.count, "a cut-short escape")
            for digit in output[index + 1...index + 2] {
                precondition((0x30...0x39).contains(digit) || (0x41...0x46).contains(digit), "a bad escape digit")
            }
            index += 3
        default: preconditionFailure("the byte \(byte) is written as it is")
        }
    }
    precondition(
        output.filter { $0 == UInt8(ascii: "&") }.count == max(0, form.pairs.count - 1), "separators do not match pairs"
    )
    let reparsed = try? FormParser().parse(written)
    precondition(reparsed == form, "writing and parsing again changes the pairs")

    let tight = FormParser(options: FormParsingOptions(maxPairs: 3, maxBytes: 64))
    do throws(SerializationError) {
        let limited = try tight.parse(bytes)
        precondition(limited.pairs.count <= 3 && size <= 64, "a limit was not enforced")
        precondition(limited == form, "limits change the pairs")
    } catch {
        precondition(error.code == .limitExceeded, "a limit failed with \(error.code)")
        precondition(error.message.contains("maxPairs") || error.message.contains("maxBytes"), "the option is unnamed")
    }
    return 0
}
