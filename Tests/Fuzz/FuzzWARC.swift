// libFuzzer target: the WARC record reader of the DecantWARC plugin, plain and gzip-compressed per record (the seeds
// hold both). Invariants: no crash or hang on any bytes; the first byte picks a chunk size; decoding the rest in chunks
// of that size gives exactly the responses and the ending error (code and offset) of decoding it in one piece; every
// offset lies inside the input; under a tight record limit the reader still ends cleanly.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantRawHTTP DecantWARC
// fuzz-seeds: Fixtures/warc
// fuzz-max-len: 16384
import DecantCore
import DecantJSON
import FoundationEssentials

/// Responses and the ending error as comparable text.
private func outcomes(_ body: [UInt8], chunk: Int, maxRecordBytes: Int) -> [String] {
    var reader = WARCRecordReader(maxRecordBytes: maxRecordBytes, maxHeadBytes: 4096)
    var records: [Result<ArchivedResponse, SerializationError>] = []
    var ending: SerializationError?
    var start = 0
    while start < body.count, ending == nil {
        let end = min(body.count, start + chunk)
        body[start..<end].withUnsafeBytes { raw in
            do throws(SerializationError) {
                try reader.consume(raw, into: &records)
            } catch {
                ending = error
            }
        }
        start = end
    }
    if ending == nil {
        do throws(SerializationError) {
            try reader.finish(into: &records)
        } catch {
            ending = error
        }
    }
    var texts: [String] = records.map { result in
        switch result {
        case .success(let archived):
            precondition((0...body.count).contains(archived.offset), "offset \(archived.offset)")
            return (try? archived.conformanceValue().description) ?? "unrepresentable"
        case .failure(let error):
            return "record error \(error.code)"
        }
    }
    if let ending {
        precondition((0...body.count).contains(ending.offset ?? -1), "offset \(String(describing: ending.offset))")
        texts.append("error \(ending.code) at \(ending.offset ?? -1)")
    }
    return texts
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWARC(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let control = data[0]
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let chunk = Int(control & 0x3F) + 1
    let whole = outcomes(body, chunk: max(1, body.count), maxRecordBytes: 1 << 20)
    let chunked = outcomes(body, chunk: chunk, maxRecordBytes: 1 << 20)
    precondition(whole == chunked, "chunks of \(chunk) change the responses")
    _ = outcomes(body, chunk: chunk, maxRecordBytes: 64)
    return 0
}
