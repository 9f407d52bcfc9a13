import Decant
import DecantConformance
import DecantHAR
import Foundation

/// Helpers of the HAR tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum HARTestSupport {
    /// The registry of the conformance fixtures and of `decant`: the built-ins plus `har`.
    static let registry = SerializerRegistry.standard.installing(.har)

    /// `Plugins/DecantHAR/cases`, written by `Plugins/DecantHAR/fixtures.py`.
    static let cases = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("cases")

    /// Reads `pieces` (fed one after the other, each cut into chunks of `chunk` bytes) with `reader`.
    static func read(
        _ pieces: [Data], chunk: Int = .max, reader: HARRecordReader = HARRecordReader()
    ) throws(SerializationError) -> [ArchivedResponse] {
        var reader = reader
        var records: [Result<ArchivedResponse, SerializationError>] = []
        for piece in pieces {
            var start = 0
            while start < piece.count {
                let end = start + min(chunk, piece.count - start)
                try consume(piece[piece.startIndex + start..<piece.startIndex + end], by: &reader, into: &records)
                start = end
            }
        }
        try reader.finish(into: &records)
        return try records.map { result throws(SerializationError) in try result.get() }
    }

    /// Feeds `bytes` to `reader`.
    static func consume(
        _ bytes: Data, by reader: inout HARRecordReader,
        into records: inout [Result<ArchivedResponse, SerializationError>]
    ) throws(SerializationError) {
        var failure: SerializationError?
        bytes.withUnsafeBytes { raw in
            do throws(SerializationError) {
                try reader.consume(raw, into: &records)
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
    }

    /// The canonical forms of `records`, as `ArchivedResponses` gives them.
    static func canonical(_ records: [ArchivedResponse]) throws -> JSONValue {
        try ArchivedResponses(responses: records).conformanceValue()
    }
}
