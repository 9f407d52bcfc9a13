#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// A record reader behind closures, so that a stream's type does not name the serializer's reader.
struct ErasedRecordReader<Record: Sendable> {
    private let consumeBytes:
        (UnsafeRawBufferPointer, inout [Result<Record, SerializationError>]) throws(SerializationError) -> Void
    private let finishBody: (inout [Result<Record, SerializationError>]) throws(SerializationError) -> Void

    init<Reader: RecordReader>(_ prototype: Reader) where Reader.Record == Record {
        let state = ReaderState(prototype)
        consumeBytes = { (bytes, records) throws(SerializationError) in try state.reader.consume(bytes, into: &records)
        }
        finishBody = { (records) throws(SerializationError) in try state.reader.finish(into: &records) }
    }

    /// A reader of another record type whose records are `Record`s (the registry checked that the types are the
    /// same), so no record is converted.
    init<Reader: RecordReader>(sameType prototype: Reader) {
        let state = ReaderState(prototype)
        consumeBytes = { (bytes, records) throws(SerializationError) in
            var produced: [Result<Reader.Record, SerializationError>] = []
            defer { records.append(contentsOf: unsafeBitCast(produced, to: [Result<Record, SerializationError>].self)) }
            try state.reader.consume(bytes, into: &produced)
        }
        finishBody = { (records) throws(SerializationError) in
            var produced: [Result<Reader.Record, SerializationError>] = []
            defer { records.append(contentsOf: unsafeBitCast(produced, to: [Result<Record, SerializationError>].self)) }
            try state.reader.finish(into: &produced)
        }
    }

    /// A reader whose records are handed out as `any Sendable` (`Record` is `any Sendable`: the registry checked).
    init<Reader: RecordReader>(erasing prototype: Reader) {
        let state = ReaderState(prototype)
        func convert(_ produced: [Result<Reader.Record, SerializationError>]) -> [Result<Record, SerializationError>] {
            produced.map { result in result.map { record in (record as any Sendable) as! Record } }
        }
        consumeBytes = { (bytes, records) throws(SerializationError) in
            var produced: [Result<Reader.Record, SerializationError>] = []
            defer { records.append(contentsOf: convert(produced)) }
            try state.reader.consume(bytes, into: &produced)
        }
        finishBody = { (records) throws(SerializationError) in
            var produced: [Result<Reader.Record, SerializationError>] = []
            defer { records.append(contentsOf: convert(produced)) }
            try state.reader.finish(into: &produced)
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

/// The mutable reader of one iteration, owned by that iteration's iterator alone.
private final class ReaderState<Reader: RecordReader> {
    var reader: Reader
    init(_ reader: Reader) { self.reader = reader }
}
