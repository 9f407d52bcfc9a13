// libFuzzer target: the text/event-stream parser of the DecantEventStream plugin. Invariants: no crash or hang on any
// bytes; the first byte picks a chunk size, and parsing the rest in chunks of that size dispatches exactly the events
// (type, data, last event ID, retry) of parsing it in one piece; an event's data is never longer than the input in
// scalars; under a tight limit (lines longer than it are dropped, so an event may lose its type, id or retry), every
// event that is not a limitExceeded error carries the data of an event of the loose parse.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantPropertyList DecantXMLParser DecantXMLDocument DecantImage DecantRawHTTP DecantConfiguration DecantConformance DecantEventStream
// fuzz-seeds: Fixtures/eventStream
// fuzz-max-len: 16384
import DecantCore
import DecantEventStream
import FoundationEssentials

/// What the parse handed out: an event, or the code of an error.
private enum Outcome: Hashable {
    case event(ServerSentEvent)
    case error(String)
}

/// Events and errors, in order.
private func outcomes(_ body: [UInt8], chunk: Int, maxRecordBytes: Int) -> [Outcome] {
    var reader = EventStreamRecordReader(maxRecordBytes: maxRecordBytes)
    var records: [Result<ServerSentEvent, SerializationError>] = []
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
        case .success(let event):
            precondition(event.data.unicodeScalars.count <= body.count, "an event outgrows the input")
            return .event(event)
        case .failure(let error):
            return .error(error.code.rawValue)
        }
    }
}

/// The libFuzzer entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventStream(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let chunk = Int(data[0]) + 1
    let body = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let whole = outcomes(body, chunk: max(1, body.count), maxRecordBytes: 1 << 20)
    let chunked = outcomes(body, chunk: chunk, maxRecordBytes: 1 << 20)
    precondition(whole == chunked, "chunks of \(chunk) change the events")
    let tight = outcomes(body, chunk: chunk, maxRecordBytes: 8)
    let looseData = Set(
        whole.compactMap { outcome -> String? in
            if case .event(let event) = outcome { return event.data }
            return nil
        })
    for outcome in tight {
        switch outcome {
        case .event(let event): precondition(looseData.contains(event.data), "a tight limit made new data")
        case .error(let code): precondition(code == "limitExceeded", "a tight limit made a \(code) error")
        }
    }
    return 0
}
