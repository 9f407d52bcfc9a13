import Decant
import DecantEventStream
import DecantNDJSON
import Dispatch
import Foundation

/// Streams: records decoded by a `RecordStream` (the path `registry.records` and `URLSession.records` take) from a
/// generated body handed over in 64 KiB chunks, against the Foundation loop a user would write, and the memory a
/// 1 GB stream needs.
enum StreamingWorkloads {
    /// `stream.*`, `memory.stream.ndjson`.
    static var all: [Workload] {
        [
            Workload(
                name: "stream.ndjson", unit: .megabytesPerSecond, baselineName: "split + JSONSerialization per line",
                summary: "100 MB of NDJSON (API-like records) streamed in 64 KiB chunks, every record decoded",
                prepare: { settings in
                    let body = ndjson(bytes: settings.quick ? 10_000_000 : 100_000_000)
                    let expected = body.reduce(0) { $0 + ($1 == 0x0A ? 1 : 0) }
                    let decant = Contender(name: "Decant RecordStream") { try streamNDJSON(body) }
                    let baseline = Contender(name: "split + JSONSerialization per line") { try foundationNDJSON(body) }
                    let same =
                        try decant.run() == expected && baseline.run() == expected
                        && streamedCount(body, head: ndjsonHead, serializer: NDJSONResponseSerializer()) == expected
                    return .timed(
                        TimedBench(
                            quantity: Double(body.count), decant: decant, baseline: .inProcess(baseline),
                            note: same ? nil : "stream.ndjson: a side did not decode every record"))
                }),
            Workload(
                name: "stream.ndjson.whole", unit: .megabytesPerSecond, baselineName: "Decant JSONParser, one document",
                summary: "stream.ndjson against Decant's parse of the same records as one JSON array (same bytes + 2)",
                prepare: { settings in
                    let body = ndjson(bytes: settings.quick ? 10_000_000 : 100_000_000)
                    var array = Data("[".utf8)
                    array.append(contentsOf: body.map { $0 == 0x0A ? UInt8(ascii: ",") : $0 }.dropLast())
                    array.append(contentsOf: Data("]".utf8))
                    // The one document is larger than the parser's default body limit (64 MiB) in a full run.
                    let parser = JSONParser(options: JSONParsingOptions(maxBytes: array.count))
                    return .timed(
                        TimedBench(
                            quantity: Double(body.count),
                            decant: Contender(name: "Decant RecordStream") { try streamNDJSON(body) },
                            baseline: .inProcess(
                                Contender(name: "Decant JSONParser, one document") { try parser.parse(array).count })))
                }),
            eventWorkload(
                name: "stream.sse",
                summary: "50 MB of small server-sent events (a token each) streamed in 64 KiB chunks, every event"
            ) { bytes in
                let body = events(bytes: bytes)
                return (body, body.count / eventLength)
            },
            eventWorkload(
                name: "stream.sse.chat",
                summary: "50 MB of chat-completion chunks as LLM APIs stream them (one token each, ~190 bytes, "
                    + "an id on each), streamed in 64 KiB chunks, every event",
                body: chatEvents(bytes:)),
            Workload(
                name: "memory.stream.ndjson", unit: .multipleOfInput, baselineName: "whole body, then decoded",
                summary: "peak RSS growth decoding a 1 GB NDJSON stream (child process), as a multiple of the input",
                prepare: measureMemory),
        ]
    }

    /// A `stream.sse*` row: the events of `body(bytes)` (the body and its number of events) through the event
    /// stream reader, against the Foundation loop; both sides and the real stream must dispatch every event.
    static func eventWorkload(name: String, summary: String, body: @escaping (Int) -> (Data, Int)) -> Workload {
        Workload(
            name: name, unit: .megabytesPerSecond, baselineName: "Foundation lines + fields", summary: summary,
            prepare: { settings in
                let (body, expected) = body(settings.quick ? 5_000_000 : 50_000_000)
                let decant = Contender(name: "Decant RecordStream") { try streamEvents(body) }
                let baseline = Contender(name: "Foundation lines + fields") { foundationEvents(body) }
                let same =
                    try decant.run() == expected && baseline.run() == expected
                    && streamedCount(body, head: eventHead, serializer: EventStreamResponseSerializer()) == expected
                return .timed(
                    TimedBench(
                        quantity: Double(body.count), decant: decant, baseline: .inProcess(baseline),
                        note: same ? nil : "\(name): a side did not dispatch every event"))
            })
    }

    /// One generated record; `id` varies so that no two lines are equal.
    static func record(_ id: Int) -> String {
        "{\"id\":\(id),\"user\":{\"name\":\"user\(id % 997)\",\"verified\":\(id % 3 == 0)},"
            + "\"text\":\"Streaming record number \(id) with some words in it\",\"score\":\(Double(id % 1000) / 8),"
            + "\"tags\":[\"a\",\"b\(id % 7)\"]}\n"
    }

    /// About `bytes` of NDJSON.
    static func ndjson(bytes: Int) -> Data {
        var body = Data()
        body.reserveCapacity(bytes + 256)
        var id = 0
        while body.count < bytes {
            body.append(contentsOf: Array(record(id).utf8))
            id += 1
        }
        return body
    }

    /// One generated event: a token as JSON, like a streamed completion. Every event has the same length.
    static let event = "event: token\ndata: {\"t\":\"word\"}\n\n"
    static let eventLength = event.utf8.count

    /// About `bytes` of events.
    static func events(bytes: Int) -> Data {
        Data(String(repeating: event, count: bytes / eventLength).utf8)
    }

    /// About `bytes` of chat-completion chunks, the shape LLM APIs stream: a JSON object per event with the
    /// token (from a small vocabulary, so lengths vary), an `id` field on each; and the number of events.
    static func chatEvents(bytes: Int) -> (Data, Int) {
        let words = [
            "the", " model", " streams", " tokens", ",", " one", " at", " a", " time", ".", " Hello", " world",
        ]
        var body = Data()
        body.reserveCapacity(bytes + 512)
        var count = 0
        while body.count < bytes {
            let event =
                "id: \(count)\ndata: {\"id\":\"chatcmpl-7QyqpwdfhqwajicIEznoc6Q47XAyW\",\"object\":"
                + "\"chat.completion.chunk\",\"created\":1700000000,\"model\":\"gpt-4o\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"content\":\"\(words[count % words.count])\"},\"finish_reason\":null}]}\n\n"
            body.append(contentsOf: Array(event.utf8))
            count += 1
        }
        return (body, count)
    }

    /// `body` in 64 KiB chunks.
    struct Chunks: AsyncSequence, Sendable {
        typealias Element = Data
        let body: Data

        struct AsyncIterator: AsyncIteratorProtocol {
            let body: Data
            var offset = 0
            mutating func next() async throws -> Data? {
                guard offset < body.count else { return nil }
                let end = Swift.min(body.count, offset + 65_536)
                defer { offset = end }
                return body[offset..<end]
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(body: body) }
    }

    /// Runs `work` to completion from synchronous code (the bench's contenders are synchronous).
    static func blocking(_ work: @escaping @Sendable () async throws -> Int) throws -> Int {
        let result = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do {
                result.set(.success(try await work()))
            } catch {
                result.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        return try result.get()
    }

    private final class ResultBox: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<Int, any Error> = .success(0)
        func set(_ value: Result<Int, any Error>) { lock.withLock { result = value } }
        func get() throws -> Int { try lock.withLock { result }.get() }
    }

    static let ndjsonHead = Response(status: 200, headers: ["Content-Type": "application/x-ndjson"], body: Data())
    static let eventHead = Response(status: 200, headers: ["Content-Type": "text/event-stream"], body: Data())

    /// The records of `body` decoded as a `RecordStream` decodes them (its reader fed 64 KiB chunks, the records
    /// taken one by one), on the calling thread: the bench times the CPU time of its own thread, so the async hop a
    /// `RecordStream` makes per chunk (another thread) is left out. ``streamedCount(_:head:serializer:)`` checks that
    /// the real stream gives the same records.
    static func streamNDJSON(_ body: Data) throws -> Int {
        var reader = NDJSONResponseSerializer().makeRecordReader(for: ndjsonHead, options: StreamOptions())
        var pending: [Result<JSONValue, SerializationError>] = []
        var count = 0
        var offset = 0
        while offset < body.count {
            let end = Swift.min(body.count, offset + 65_536)
            try body[offset..<end].withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                try reader.consume(raw, into: &pending)
            }
            for result in pending { count &+= try result.get().count > 0 ? 1 : 0 }
            pending.removeAll(keepingCapacity: true)
            offset = end
        }
        try reader.finish(into: &pending)
        for result in pending { count &+= try result.get().count > 0 ? 1 : 0 }
        return count
    }

    /// The number of records a real `RecordStream` hands out for `body` (its async iteration).
    static func streamedCount<Serializer: StreamingResponseSerializer>(
        _ body: Data, head: Response, serializer: Serializer
    ) throws -> Int {
        try blocking {
            var count = 0
            for try await _ in try RecordStream(serializer, head: head, chunks: Chunks(body: body)) { count += 1 }
            return count
        }
    }

    /// The Foundation loop: the lines of the body, each through `JSONSerialization`.
    static func foundationNDJSON(_ body: Data) throws -> Int {
        var count = 0
        var start = body.startIndex
        while let end = body[start...].firstIndex(of: 0x0A) {
            let object = try JSONSerialization.jsonObject(with: body[start..<end])
            count &+= (object as? [String: Any])?.isEmpty == false ? 1 : 0
            start = end + 1
        }
        return count
    }

    /// The events of `body` decoded as a `RecordStream` decodes them, on the calling thread (see
    /// ``streamNDJSON(_:)``).
    static func streamEvents(_ body: Data) throws -> Int {
        var reader = EventStreamResponseSerializer().makeRecordReader(for: eventHead, options: StreamOptions())
        var pending: [Result<ServerSentEvent, SerializationError>] = []
        var count = 0
        var offset = 0
        while offset < body.count {
            let end = Swift.min(body.count, offset + 65_536)
            try body[offset..<end].withUnsafeBytes { (raw: UnsafeRawBufferPointer) in
                try reader.consume(raw, into: &pending)
            }
            for index in pending.indices {
                switch pending[index] {
                case .success(let event): count &+= event.isDataEmpty ? 0 : 1
                case .failure(let error): throw error
                }
            }
            pending.removeAll(keepingCapacity: true)
            offset = end
        }
        try reader.finish(into: &pending)
        return count
    }

    /// The code a user would write with Foundation: the text's lines, each split at its first colon, events
    /// dispatched on empty lines.
    static func foundationEvents(_ body: Data) -> Int {
        let text = String(decoding: body, as: UTF8.self)
        var count = 0
        var data: [String] = []
        var type = ""
        for line in text.components(separatedBy: "\n") {
            if line.isEmpty {
                if !data.isEmpty { count += type.isEmpty ? 1 : 1 }
                data = []
                type = ""
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { continue }
            var value = line[line.index(after: colon)...]
            if value.first == " " { value = value.dropFirst() }
            switch line[..<colon] {
            case "data": data.append(String(value))
            case "event": type = String(value)
            default: break
            }
        }
        return count
    }

    /// The bytes the memory row streams: 1 GiB (128 MiB with `--quick`).
    static func memoryStreamBytes(quick: Bool) -> Int { quick ? 128 << 20 : 1 << 30 }

    private static func measureMemory(_ settings: RunSettings) throws -> Prepared {
        let bytes = memoryStreamBytes(quick: settings.quick)
        let decant = try MemoryWorkloads.probe(side: "stream-ndjson", path: String(bytes))
        let whole = try MemoryWorkloads.probe(side: "stream-ndjson-whole", path: String(bytes))
        return .direct(
            DirectResult(
                decant: Double(decant.growth) / Double(bytes), baseline: Double(whole.growth) / Double(bytes),
                baselineName: "whole body, then decoded", rounds: 1, spread: nil, baselineSpread: nil,
                note: "memory.stream.ndjson: \(bytes >> 20) MiB generated on the fly in 64 KiB chunks; peak RSS grew "
                    + "\(decant.growth >> 20) MiB streaming (\(decant.outcome)), \(whole.growth >> 20) MiB with the "
                    + "whole body first"))
    }

    /// The probe's side: decodes `bytes` of generated NDJSON, streamed or whole; returns the outcome in words.
    static func probe(side: String, bytes: Int) throws -> String {
        let chunk: Data = {
            var chunk = Data()
            var id = 0
            while chunk.count < 60_000 {
                chunk.append(contentsOf: Array(record(id).utf8))
                id += 1
            }
            return chunk
        }()
        let chunkCount = bytes / chunk.count
        if side == "stream-ndjson-whole" {
            var body = Data()
            body.reserveCapacity(chunkCount * chunk.count)
            for _ in 0..<chunkCount { body.append(chunk) }
            let records = try NDJSONResponseSerializer().serialize(
                Response(headers: ["Content-Type": "application/x-ndjson"], body: body))
            return "\(records.records.count)-records"
        }
        let count = try blocking {
            var count = 0
            let chunks = RepeatedChunks(chunk: chunk, count: chunkCount)
            for try await _ in try RecordStream(NDJSONResponseSerializer(), head: ndjsonHead, chunks: chunks) {
                count += 1
            }
            return count
        }
        return "\(count)-records"
    }

    /// The same chunk `count` times: a long stream that never sits in memory.
    struct RepeatedChunks: AsyncSequence, Sendable {
        typealias Element = Data
        let chunk: Data
        let count: Int

        struct AsyncIterator: AsyncIteratorProtocol {
            let chunk: Data
            var remaining: Int
            mutating func next() async throws -> Data? {
                guard remaining > 0 else { return nil }
                remaining -= 1
                return chunk
            }
        }

        func makeAsyncIterator() -> AsyncIterator { AsyncIterator(chunk: chunk, remaining: count) }
    }
}
