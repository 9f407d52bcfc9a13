import Decant
import DecantConformance
import DecantWARC
import Foundation

/// Helpers of the WARC tests (a plugin's tests do without DecantTestSupport: they use only what a third party has).
enum WARCTestSupport {
    /// The registry of the conformance fixtures and of `decant`.
    static let registry = SerializerRegistry.standard.installing(.warc)

    /// Every fixture of Fixtures/warc (written by Plugins/DecantWARC/fixtures.py with warcio).
    static let fixtures: [Fixture] = {
        guard let root = FixtureLoader.fixturesDirectory(from: #filePath) else { return [] }
        return (try? FixtureLoader.fixtures(in: root.appendingPathComponent("warc"))) ?? []
    }()

    /// The archive held by the fixture `name`.
    static func archive(_ name: String) throws -> Data {
        guard let fixture = fixtures.first(where: { $0.name == name }) else {
            throw SerializationError(code: .invalidBody, message: "No fixture \(name).")
        }
        return try Response(raw: fixture.raw).body
    }

    /// What a reader hands out for `body` fed in chunks of `chunk` bytes: each response's canonical JSON text, and
    /// the error that ended the stream (code and offset), if any.
    static func read(
        _ body: Data, chunk: Int, reader: WARCRecordReader = WARCRecordReader()
    ) -> (records: [String], error: String?) {
        var reader = reader
        var records: [Result<ArchivedResponse, SerializationError>] = []
        var failure: SerializationError?
        let bytes = [UInt8](body)
        var start = 0
        while start < bytes.count, failure == nil {
            let end = min(bytes.count, start + max(1, chunk))
            bytes[start..<end].withUnsafeBytes { raw in
                do throws(SerializationError) {
                    try reader.consume(raw, into: &records)
                } catch {
                    failure = error
                }
            }
            start = end
        }
        if failure == nil {
            do throws(SerializationError) {
                try reader.finish(into: &records)
            } catch {
                failure = error
            }
        }
        let texts = records.map { result -> String in
            switch result {
            case .success(let archived): return (try? archived.conformanceValue().description) ?? "unrepresentable"
            case .failure(let error): return "record error \(error.code) at \(error.offset ?? -1)"
            }
        }
        return (texts, failure.map { "\($0.code) at \($0.offset ?? -1)" })
    }

    /// A record: a head with `fields` (plus Content-Length) and `block`, in WARC/1.0 framing.
    static func record(_ fields: [(String, String)], block: Data) -> Data {
        var text = "WARC/1.0\r\n"
        for (name, value) in fields { text += "\(name): \(value)\r\n" }
        text += "Content-Length: \(block.count)\r\n\r\n"
        var data = Data(text.utf8)
        data.append(block)
        data.append(Data("\r\n\r\n".utf8))
        return data
    }

    /// A response record for `uri` whose HTTP message has a `text/plain` body.
    static func response(_ uri: String, body: String) -> Data {
        let message = "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        return record(
            [
                ("WARC-Type", "response"), ("WARC-Target-URI", uri),
                ("Content-Type", "application/http; msgtype=response"),
            ],
            block: Data(message.utf8))
    }
}
