import Decant
import DecantConformance
import Dispatch
import Foundation

/// `decant archive FILE|-`: every HTTP response of a HAR or WARC file decoded through the tool's registry, one JSON
/// line each, in archive order.
enum ArchiveCommand: Command {
    static let name = "archive"
    static let summary = "Decode every HTTP response of a HAR or WARC file, one JSON line each, in archive order."
    static let usage = """
        Usage: decant archive [OPTIONS] FILE|-

        Reads a WARC file (ISO 28500: plain, or with each record a gzip member as web crawls store them) or a HAR
        file (the HTTP Archive that browsers' developer tools export), told apart by their first bytes, and decodes
        every HTTP response in it through the tool's registry, as `decant decode` decodes one response: the content
        coding removed, the media type resolved, the body decoded. One JSON line is printed per response, in archive
        order:

          {"index": 0, "url": "https://example.com/a.json", "status": 200, "mediaType": "application/json",
           "serializer": "decant.json", "ok": true, "error": null, "truncated": null}

        "index" counts responses from 0 (request, metadata and other records are skipped); "mediaType" and
        "serializer" are those the response resolved to (null when none); "error" is {"code", "message"} when the
        response did not decode; "truncated" is {"reason", "keptBytes", "statedBytes"} when the archive kept only part
        of the body (WARC-Truncated, or a HAR body shorter than its stated size), and such a response is never "ok"
        (its error is "truncatedBody" when the kept bytes decode). A summary goes to standard error.
        The archive is read as it arrives, never whole: memory holds the records in flight, each at most
        --max-record-bytes.

        Options:
          --values          Add "value": the decoded value in its canonical JSON form (as `decode --json` prints it).
          --jobs N          Decode on N threads while one reads the archive (default 1: one thread reads and
                            decodes). The output is the same, in the same order, for every N.
          --any-status      Decode the body of every response whatever its status. By default a status outside
                            200-299 is an error ("unacceptableStatusCode"), as `decant decode` reports it.
          --sniff           Sniff bodies whose Content-Type is missing or generic, as `decode --sniff` does.
          --max-record-bytes N
                            The largest record (a WARC record's block, a HAR entry) read, in bytes (default
                            16777216); a larger one is reported as a failed response and skipped.
          --strict          Exit 1 when any response failed to decode, not only when the archive is malformed.
          --help            Show this help.

        Exit status: 0 when the whole archive could be read (whether or not every response decoded); 1 when it is
        not a WARC or HAR file, is malformed or ends in the middle of a record (the responses before the problem
        are printed first), or, with --strict, when a response failed; 2 for a usage error.

        Examples:
          decant archive crawl.warc.gz
          decant archive --jobs 2 --strict crawl.warc
          decant archive --values page.har | jq -c 'select(.ok) | .value'
        """

    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(
            arguments, flags: ["--values", "--strict", "--any-status", "--sniff"],
            options: ["--jobs", "--max-record-bytes"])
        guard parsed.positionals.count == 1, let path = parsed.positionals.first else {
            throw CommandLineArguments.UsageError(description: "archive takes one file (or - for standard input)")
        }
        let jobs = try positiveInteger(parsed, "--jobs", default: 1, maximum: 256)
        let maxRecordBytes = try positiveInteger(
            parsed, "--max-record-bytes", default: StreamOptions.defaultMaxRecordBytes, maximum: Int(Int32.max))
        let decoding = ArchiveDecoding(
            registry: context.registry, includesValues: parsed.has("--values"),
            sniffing: parsed.has("--sniff") ? .sniffWhenGeneric : .trustHeader,
            statusCodes: parsed.has("--any-status") ? StatusCodes([100...999]) : .success)

        let descriptor = try InputChunks.open(path)
        defer { if descriptor != 0 { close(descriptor) } }
        var prefix = Data()
        while prefix.count < 16 {
            let chunk = try InputChunks.read(descriptor)
            if chunk.isEmpty { break }
            prefix.append(chunk)
        }
        guard let kind = ArchiveKind(detecting: prefix) else {
            Output.error(
                "decant archive: \(path == "-" ? "the input" : path) is neither a WARC file (which starts with "
                    + "'WARC/', or with the gzip signature 1F 8B when its records are compressed) nor a HAR file (a "
                    + "JSON object)" + (prefix.isEmpty ? "; it is empty." : "."))
            return 1
        }
        let head = Response(status: 200, headers: ["Content-Type": kind.mediaType], body: Data())
        let pipeline = ArchivePipeline(decoding: decoding, jobs: jobs)
        let chunks = InputChunks(descriptor: descriptor, prefix: prefix)
        let registry = context.registry
        // The readers report a record they cannot read as a failed response and go on; what they throw ends the archive.
        let options = StreamOptions(errorPolicy: .stop, maxRecordBytes: maxRecordBytes)
        let capture = Output.capture
        let started = DispatchTime.now()
        Task {
            await Output.$capture.withValue(capture) {
                do {
                    let stream = try await registry.records(
                        head, body: chunks, as: ArchivedResponse.self, options: options)
                    for try await record in stream { pipeline.add(record) }
                    pipeline.finishReading(failure: nil)
                } catch let error as SerializationError {
                    pipeline.finishReading(failure: kind.explain(error))
                } catch {
                    pipeline.finishReading(failure: SerializationError(code: .invalidBody, message: "\(error)"))
                }
            }
        }
        // This thread prints, in archive order, the lines the decoding threads make.
        pipeline.printLines()
        let summary = pipeline.summary
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1e9
        var text =
            "decant archive: \(summary.responses) response\(summary.responses == 1 ? "" : "s") in the \(kind.name) "
            + "file, \(summary.decoded) decoded, \(summary.failed) failed"
        if summary.truncated > 0 { text += ", \(summary.truncated) truncated" }
        text += String(format: " (%.2f s, %d job%@)", seconds, jobs, jobs == 1 ? "" : "s")
        Output.error(text)
        if let failure = summary.failure {
            Output.error(
                "decant archive: the \(kind.name) file could not be read to its end: [\(failure.code)] "
                    + failure.message)
            return 1
        }
        if parsed.has("--strict"), summary.failed > 0 { return 1 }
        return 0
    }

    /// The value of an integer option between 1 and `maximum`, or `default` when it is absent.
    private static func positiveInteger(
        _ parsed: CommandLineArguments, _ option: String, default value: Int, maximum: Int
    ) throws -> Int {
        guard let text = parsed.value(option) else { return value }
        guard let number = Int(text), number >= 1, number <= maximum else {
            throw CommandLineArguments.UsageError(
                description: "\(option) takes a whole number from 1 to \(maximum), not '\(text)'")
        }
        return number
    }
}

/// The two kinds of archive, told apart by their first bytes.
enum ArchiveKind {
    case warc
    case har

    /// The kind whose first bytes `prefix` holds: `WARC/` or a gzip member (1F 8B) for WARC; `{` after optional
    /// white space or a UTF-8 byte order mark for HAR.
    init?(detecting prefix: Data) {
        let bytes = [UInt8](prefix)
        if bytes.starts(with: Array("WARC/".utf8)) || bytes.starts(with: [0x1F, 0x8B]) {
            self = .warc
            return
        }
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
        guard index < bytes.count, bytes[index] == UInt8(ascii: "{") else { return nil }
        self = .har
    }

    /// The media type the registry resolves to the kind's reader.
    var mediaType: String {
        switch self {
        case .warc: "application/warc"
        case .har: "application/har+json"
        }
    }

    /// The name printed in messages.
    var name: String {
        switch self {
        case .warc: "WARC"
        case .har: "HAR"
        }
    }

    /// `error` with a hint when it says that no reader is installed for the kind.
    func explain(_ error: SerializationError) -> SerializationError {
        guard error.code == .noSerializer || error.code == .unexpectedOutputType else { return error }
        let plugin = self == .warc ? "DecantWARC" : "DecantHAR"
        var explained = error
        explained.message +=
            " Reading \(name) files needs the \(plugin) plugin, which the decant tool installs unless it runs with "
            + "--no-plugins."
        return explained
    }
}

/// How each archived response becomes its output line.
struct ArchiveDecoding: Sendable {
    let registry: SerializerRegistry
    let includesValues: Bool
    let sniffing: SniffingPolicy
    let statusCodes: StatusCodes

    /// One decoded response: its JSON line and what the summary counts.
    struct Line: Sendable {
        var bytes: [UInt8]
        var ok: Bool
        var truncated: Bool
    }

    /// Decodes `record`'s response and writes its line.
    func line(for record: ArchivedResponse) -> Line {
        var members: [(String, JSONValue)] = [
            ("index", JSONValue(record.index)),
            ("url", record.targetURI.map { JSONValue($0) } ?? nil),
        ]
        var value: JSONValue?
        var ok = false
        switch record.response {
        case .failure(let error):
            members += [("status", nil), ("mediaType", nil), ("serializer", nil), ("ok", false)]
            members.append(("error", Self.errorObject(error)))
        case .success(let response):
            members.append(("status", JSONValue(response.status)))
            do {
                let result = try registry.serialize(response, sniffing: sniffing, statusCodes: statusCodes)
                if includesValues { value = try CanonicalForm.of(result.value) }
                let mediaType = result.mediaType ?? response.contentType
                members += [
                    ("mediaType", mediaType.map { JSONValue($0.description) } ?? nil),
                    ("serializer", JSONValue(result.serializerID.rawValue)),
                ]
                if let truncation = record.truncation {
                    // Decoded, but from part of the body: the value is not the response's.
                    let error = SerializationError(
                        code: .truncatedBody,
                        message: "The archive kept only part of this response's body (\(truncation)), so its value "
                            + "is incomplete"
                            + (includesValues ? " (\"value\" is what the kept bytes decode to)." : "."))
                    members += [("ok", false), ("error", Self.errorObject(error))]
                } else {
                    members += [("ok", true), ("error", nil)]
                    ok = true
                }
            } catch let error as SerializationError {
                let mediaType = error.mediaType ?? response.contentType
                members += [
                    ("mediaType", mediaType.map { JSONValue($0.description) } ?? nil),
                    ("serializer", error.serializerID.map { JSONValue($0.rawValue) } ?? nil), ("ok", false),
                    ("error", Self.errorObject(error)),
                ]
            } catch {
                // A value without a canonical form (--values): decoded, but not printable as a value.
                members += [
                    ("mediaType", response.contentType.map { JSONValue($0.description) } ?? nil),
                    ("serializer", nil), ("ok", false),
                    ("error", .object([("code", "noCanonicalForm"), ("message", JSONValue("\(error)"))])),
                ]
            }
        }
        members.append(("truncated", (try? record.truncation?.conformanceValue()) ?? nil))
        var bytes: [UInt8] = []
        JSONValue.object(members).appendJSON(to: &bytes)
        if includesValues {
            // The value is written into the same buffer rather than nested in the object, which would copy it.
            bytes.removeLast()
            bytes.append(contentsOf: #","value":"#.utf8)
            if let value { value.appendJSON(to: &bytes) } else { bytes.append(contentsOf: "null".utf8) }
            bytes.append(UInt8(ascii: "}"))
        }
        return Line(bytes: bytes, ok: ok, truncated: record.truncation != nil)
    }

    /// `{"code", "message"}`.
    static func errorObject(_ error: SerializationError) -> JSONValue {
        .object([("code", JSONValue(error.code.rawValue)), ("message", JSONValue(error.message))])
    }
}

/// The records of an archive decoded on `jobs` threads and printed in archive order.
///
/// The reading task hands records over in batches; with one job it decodes each batch itself, with more it queues
/// them for the decoding threads. The printing thread (the command's) prints each batch's lines once every batch
/// before it is printed. At most `16 × jobs` batches are in flight (read and not yet printed), each of at most
/// ``batchRecords`` responses or about ``batchBytes`` bytes of bodies (the last record may pass it, up to the record
/// limit): the reader waits for the printer beyond that, so memory is bounded by the batches in flight, never by the
/// archive. Enough batches are in flight that the reading task, which shares the cores with the decoding threads,
/// seldom waits for one of them to be scheduled, and when it would wait it decodes the oldest queued batch itself
/// (with 4 batches of 64 and no such help, two jobs were 1.6 times as fast as one; as it is, 1.8).
final class ArchivePipeline: @unchecked Sendable {
    /// What the summary line reports.
    struct Summary {
        var responses = 0
        var decoded = 0
        var failed = 0
        var truncated = 0
        var failure: SerializationError?
    }

    /// The most records in a batch.
    static let batchRecords = 256
    /// The most body bytes in a batch: a batch of large responses is cut short.
    static let batchBytes = 1 << 20

    private let decoding: ArchiveDecoding
    private let jobs: Int
    private let maxInFlight: Int
    private let condition = NSCondition()

    // Guarded by `condition`.
    private var queued: [(sequence: Int, records: [ArchivedResponse])] = []
    private var finished: [Int: [ArchiveDecoding.Line]] = [:]
    private var nextSequence = 0
    private var nextToPrint = 0
    private var readingEnded = false
    private var workersRunning = 0
    private(set) var summary = Summary()

    // Touched by the reading task only.
    private var batch: [ArchivedResponse] = []
    private var batchBytes = 0

    init(decoding: ArchiveDecoding, jobs: Int) {
        self.decoding = decoding
        self.jobs = jobs
        maxInFlight = 16 * jobs
        guard jobs > 1 else { return }
        workersRunning = jobs
        for _ in 0..<jobs {
            let thread = Thread { [self] in work() }
            // Decoders bound their nesting, but a secondary thread's default stack is small on some platforms.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Adds the next record (from the reading task).
    func add(_ record: ArchivedResponse) {
        batch.append(record)
        if case .success(let response) = record.response { batchBytes += response.body.count }
        if batch.count >= Self.batchRecords || batchBytes >= Self.batchBytes { handOver() }
    }

    /// The archive ended (`failure` is `nil`) or could not be read further (from the reading task).
    func finishReading(failure: SerializationError?) {
        if !batch.isEmpty { handOver() }
        condition.lock()
        readingEnded = true
        summary.failure = failure
        condition.broadcast()
        condition.unlock()
    }

    /// Prints every batch's lines in order until the archive's last one (on the command's thread).
    func printLines() {
        condition.lock()
        while true {
            if let lines = finished.removeValue(forKey: nextToPrint) {
                condition.unlock()
                for line in lines { Output.line(bytes: line.bytes) }
                condition.lock()
                for line in lines {
                    summary.responses += 1
                    if line.ok { summary.decoded += 1 } else { summary.failed += 1 }
                    if line.truncated { summary.truncated += 1 }
                }
                nextToPrint += 1
                condition.broadcast()
                continue
            }
            if readingEnded, nextToPrint == nextSequence, workersRunning == 0 || jobs == 1 { break }
            condition.wait()
        }
        condition.unlock()
    }

    /// Queues the batch being built (more than one job) or decodes it here (one job), once fewer than
    /// `maxInFlight` batches are in flight.
    private func handOver() {
        let records = batch
        batch = []
        batchBytes = 0
        condition.lock()
        while nextSequence - nextToPrint >= maxInFlight {
            // Rather than wait for the decoding threads, the reader decodes the oldest queued batch itself.
            guard jobs > 1, !queued.isEmpty else {
                condition.wait()
                continue
            }
            let (oldest, waiting) = queued.removeFirst()
            condition.unlock()
            let lines = waiting.map(decoding.line(for:))
            condition.lock()
            finished[oldest] = lines
            condition.broadcast()
        }
        let sequence = nextSequence
        nextSequence += 1
        if jobs > 1 {
            queued.append((sequence, records))
            condition.broadcast()
            condition.unlock()
            return
        }
        condition.unlock()
        let lines = records.map(decoding.line(for:))
        condition.lock()
        finished[sequence] = lines
        condition.broadcast()
        condition.unlock()
    }

    /// A decoding thread's loop: takes the oldest queued batch, decodes it, files its lines.
    private func work() {
        condition.lock()
        while true {
            if !queued.isEmpty {
                let (sequence, records) = queued.removeFirst()
                condition.unlock()
                let lines = records.map(decoding.line(for:))
                condition.lock()
                finished[sequence] = lines
                condition.broadcast()
                continue
            }
            if readingEnded { break }
            condition.wait()
        }
        workersRunning -= 1
        condition.broadcast()
        condition.unlock()
    }
}
