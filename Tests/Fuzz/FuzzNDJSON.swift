// libFuzzer target: the NDJSON and JSON text sequence record reader of the DecantNDJSON plugin. Invariants: no crash or hang
// on any bytes; the first byte picks the framing (lines or RS-delimited sequences) and a chunk size; decoding the rest
// in chunks of that size gives exactly the records, errors and offsets of decoding it in one piece; every error offset
// lies inside the input; under a tight record limit, what is not a limitExceeded error is a subsequence of the
// loose outcomes (a long line becomes one error, even a blank one, which the loose limit skips).
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantPropertyList DecantXMLParser DecantXMLDocument DecantImage DecantRawHTTP DecantConfiguration DecantConformance DecantNDJSON
// fuzz-seeds: Fixtures/ndjson
// fuzz-max-len: 16384
import DecantCore
import DecantJSON
import FoundationEssentials

/// Records and errors as comparable text.
private func outcomes(
    _ body: [UInt8], framing: NDJSONRecordReader.Framing, chunk: Int, maxRecordBytes: Int
) -> [String] {
    var reader = NDJSONRecordReader(framing: framing, maxRecordBytes: maxRecordBytes)
    var records: [Result<JSONValue, SerializationError>] = []
    var start = 0
    while start < body.count {
        let end = min(body.count, start + chunk)
        body[start..<end].withUnsafeBytes { raw in
            do throws(SerializationError) {
                try reader.consume(raw, into: &records)
            } catch {
                preconditionFailure("consume threw \(error)")
            }
        }
        start = end
    }
    do throws(SerializationError) {
        try reader.finish(into: &records)
    } catch {
        preconditionFailure("finish threw \(error)")
    }
    return records.map { result in
        switch result {
        case .success(let value): return value.description
        case .failure(let error):
            precondition((0...body.count).contains(error.offset ?? -1), "offset \(String(describing: error.offset))")
            return "error \(error.code) at \(error.offset ?? -1)"
        }
    }
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNDJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let framing: NDJSONRecordReader.Framing = control & 1 == 0 ? .lines : .jsonSequence
    let chunk = Int(control >> 1) + 1
    let whole = outcomes(body, framing: framing, chunk: max(1, body.count), maxRecordBytes: 1 << 20)
    let chunked = outcomes(body, framing: framing, chunk: chunk, maxRecordBytes: 1 << 20)
    precondition(whole == chunked, "chunks of \(chunk) change the records")
    let tight = outcomes(body, framing: framing, chunk: chunk, maxRecordBytes: 16)
    var remaining = whole[...]
    for outcome in tight where !outcome.hasPrefix("error limitExceeded") {
        guard let index = remaining.firstIndex(of: outcome) else {
            preconditionFailure("a tight limit made an outcome the loose one does not have: \(outcome)")
        }
        remaining = remaining[(index + 1)...]
    }
    return 0
}
