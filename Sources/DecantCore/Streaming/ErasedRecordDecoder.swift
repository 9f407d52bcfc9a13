#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A record decoder behind closures, so that a stream's type does not name the serializer's decoder.
struct ErasedRecordDecoder<Record: Sendable> {
    private let consumeBytes:
        (UnsafeRawBufferPointer, inout [Result<Record, SerializationError>]) throws(SerializationError) -> Void
    private let finishBody: (inout [Result<Record, SerializationError>]) throws(SerializationError) -> Void

    init<Decoder: RecordDecoder>(_ prototype: Decoder) where Decoder.Record == Record {
        let state = DecoderState(prototype)
        consumeBytes = { (bytes, records) throws(SerializationError) in try state.decoder.consume(bytes, into: &records)
        }
        finishBody = { (records) throws(SerializationError) in try state.decoder.finish(into: &records) }
    }

    /// A decoder of another record type whose records are `Record`s (the registry checked that the types are the
    /// same), so no record is converted.
    init<Decoder: RecordDecoder>(sameType prototype: Decoder) {
        let state = DecoderState(prototype)
        consumeBytes = { (bytes, records) throws(SerializationError) in
            var produced: [Result<Decoder.Record, SerializationError>] = []
            defer { records.append(contentsOf: unsafeBitCast(produced, to: [Result<Record, SerializationError>].self)) }
            try state.decoder.consume(bytes, into: &produced)
        }
        finishBody = { (records) throws(SerializationError) in
            var produced: [Result<Decoder.Record, SerializationError>] = []
            defer { records.append(contentsOf: unsafeBitCast(produced, to: [Result<Record, SerializationError>].self)) }
            try state.decoder.finish(into: &produced)
        }
    }

    /// A decoder whose records are handed out as `any Sendable` (`Record` is `any Sendable`: the registry checked).
    init<Decoder: RecordDecoder>(erasing prototype: Decoder) {
        let state = DecoderState(prototype)
        func convert(_ produced: [Result<Decoder.Record, SerializationError>]) -> [Result<Record, SerializationError>] {
            produced.map { result in result.map { record in (record as any Sendable) as! Record } }
        }
        consumeBytes = { (bytes, records) throws(SerializationError) in
            var produced: [Result<Decoder.Record, SerializationError>] = []
            defer { records.append(contentsOf: convert(produced)) }
            try state.decoder.consume(bytes, into: &produced)
        }
        finishBody = { (records) throws(SerializationError) in
            var produced: [Result<Decoder.Record, SerializationError>] = []
            defer { records.append(contentsOf: convert(produced)) }
            try state.decoder.finish(into: &produced)
        }
    }

    mutating func consume(
        _ chunk: some ContiguousBytes, into records: inout [Result<Record, SerializationError>]
    ) throws(SerializationError) {
        var failure: SerializationError?
        chunk.withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
            do throws(SerializationError) {
                try consumeBytes(raw, &records)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    mutating func finish(into records: inout [Result<Record, SerializationError>]) throws(SerializationError) {
        try finishBody(&records)
    }
}

/// The mutable decoder of one iteration, owned by that iteration's iterator alone.
private final class DecoderState<Decoder: RecordDecoder> {
    var decoder: Decoder
    init(_ decoder: Decoder) { self.decoder = decoder }
}
