// libFuzzer target: the HAR record reader of the DecantHAR plugin. Invariants: no crash or hang on any bytes; the
// first byte picks a chunk size; reading the rest in chunks of that size gives exactly the records, errors and offsets
// of reading it in one piece (the thrown error included); every offset lies inside the input; records are numbered
// 0, 1, 2... in order; under a tight entry limit, the records are the loose ones with some replaced by limitExceeded
// failures at the same index and offset.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantHAR
// fuzz-seeds: Fixtures/har
// fuzz-max-len: 16384
import DecantCore
import DecantJSON
import FoundationEssentials

/// Records and the final error as comparable text.
private func outcomes(_ body: [UInt8], chunk: Int, maxRecordBytes: Int) -> [String] {
    var reader = HARRecordReader(maxRecordBytes: maxRecordBytes, maxDepth: 64)
    var records: [Result<ArchivedResponse, SerializationError>] = []
    var thrown: SerializationError?
    var start = 0
    while start < body.count, thrown == nil {
        let end = min(body.count, start + chunk)
        body[start..<end].withUnsafeBytes { raw in
            do throws(SerializationError) {
                try reader.consume(raw, into: &records)
            } catch {
                thrown = error
            }
        }
        start = end
    }
    if thrown == nil {
        do throws(SerializationError) {
            try reader.finish(into: &records)
        } catch {
            thrown = error
        }
    }
    var seen: [String] = []
    for (position, result) in records.enumerated() {
        guard case .success(let record) = result else { preconditionFailure("the reader appended a failure") }
        precondition(record.index == position, "record \(position) has index \(record.index)")
        precondition((0..<body.count).contains(record.offset), "offset \(record.offset)")
        switch record.response {
        case .success(let response):
            seen.append("\(record.index)@\(record.offset) \(response.status) \(response.body.count)")
        case .failure(let error):
            seen.append("\(record.index)@\(record.offset) error \(error.code)")
        }
    }
    if let thrown {
        precondition(
            (0...body.count).contains(thrown.offset ?? -1), "thrown offset \(String(describing: thrown.offset))")
        seen.append("thrown \(thrown.code) at \(thrown.offset ?? -1)")
    }
    return seen
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHAR(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let chunk = Int(data[0]) + 1
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let whole = outcomes(body, chunk: max(1, body.count), maxRecordBytes: 1 << 20)
    let chunked = outcomes(body, chunk: chunk, maxRecordBytes: 1 << 20)
    precondition(whole == chunked, "chunks of \(chunk) change the records")
    let tight = outcomes(body, chunk: chunk, maxRecordBytes: 32)
    precondition(tight.count == whole.count, "a tight limit changes the number of records")
    for (loose, strict) in zip(whole, tight) where loose != strict {
        let place = String(loose.prefix { $0 != " " })
        precondition(
            strict == place + " error limitExceeded" || (loose.hasPrefix("thrown") && strict.hasPrefix("thrown")),
            "a tight limit made \(strict) of \(loose)")
    }
    return 0
}
