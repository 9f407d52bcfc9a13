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
    precondition(written == Data(serialize(form).utf8), "FormWriter differs from the reference serializer")
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

/// The reference WHATWG urlencoded serializer, written byte by byte for the differential check: `*-._`, ASCII digits
/// and letters as they are, space as `+`, every other UTF-8 byte percent-encoded.
private func serialize(_ form: FormData) -> String {
    func encode(_ text: String) -> String {
        var out: [UInt8] = []
        for byte in text.utf8 {
            switch byte {
            case 0x2A, 0x2D, 0x2E, 0x5F, 0x30...0x39, 0x41...0x5A, 0x61...0x7A: out.append(byte)
            case 0x20: out.append(UInt8(ascii: "+"))
            default:
                let digits = Array("0123456789ABCDEF".utf8)
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 0xF)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
    return form.pairs.map { encode($0.name) + "=" + encode($0.value) }.joined(separator: "&")
}
