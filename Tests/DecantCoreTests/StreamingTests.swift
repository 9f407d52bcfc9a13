import DecantCore
import DecantTestSupport
import Foundation
import Testing

/// A streaming serializer for the tests: one record per line (`text/x-lines`), the line as a `String`; a line that
/// starts with `!` is a record that cannot be decoded; a line longer than `maxRecordBytes` is a `limitExceeded` record.
private struct LinesSerializer: StreamingResponseSerializer {
    struct Reader: RecordReader {
        var framer: LineFramer

        mutating func consume(
            _ bytes: UnsafeRawBufferPointer, into records: inout [Result<String, SerializationError>]
        ) throws(SerializationError) {
            try framer.consume(bytes) { piece in records.append(Self.record(piece)) }
        }

        mutating func finish(into records: inout [Result<String, SerializationError>]) throws(SerializationError) {
            try framer.finish { piece in records.append(Self.record(piece)) }
        }

        static func record(_ piece: LineFramer.Piece) -> Result<String, SerializationError> {
            switch piece {
            case .line(let bytes, let offset, _):
                if bytes.first == UInt8(ascii: "!") {
                    return .failure(SerializationError(code: .invalidBody, message: "bad line", offset: offset))
                }
                return .success(String(decoding: bytes, as: UTF8.self))
            case .oversized(let offset, let length):
                return .failure(
                    SerializationError(code: .limitExceeded, message: "line of \(length) bytes", offset: offset))
            }
        }
    }

    var mediaRanges: [MediaRange] { [MediaRange("text/x-lines")] }
    var id: SerializerID { "test.lines" }

    func makeRecordReader(for head: Response, options: StreamOptions) throws(SerializationError) -> Reader {
        Reader(framer: LineFramer(lineEnds: .lineFeed, maxLineBytes: options.maxRecordBytes))
    }

    func serialize(_ response: Response) throws -> [String] {
        try makeRecordReader(for: response, options: StreamOptions()).readAll(response.body).map { try $0.get() }
    }
}

/// Chunks handed out one by one, counting how many were asked for.
private struct CountingChunks: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let chunks: [[UInt8]]
    let pulled: Counter
    /// When set, the sequence never ends: after `chunks`, it repeats the last one.
    var endless = false

    struct AsyncIterator: AsyncIteratorProtocol {
        let source: CountingChunks
        var index = 0

        mutating func next() async throws -> [UInt8]? {
            guard index < source.chunks.count || (source.endless && !source.chunks.isEmpty) else { return nil }
            source.pulled.increment()
            defer { index += 1 }
            return source.chunks[Swift.min(index, source.chunks.count - 1)]
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(source: self) }
}

private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}

/// Cuts `bytes` into chunks of 1 to `maxChunk` bytes, at random (seeded) boundaries.
private func randomChunks(_ bytes: [UInt8], seed: UInt64, maxChunk: Int) -> [[UInt8]] {
    var generator = SplitMix64(state: seed)
    var chunks: [[UInt8]] = []
    var start = 0
    while start < bytes.count {
        let length = Int.random(in: 1...maxChunk, using: &generator)
        chunks.append(Array(bytes[start..<min(bytes.count, start + length)]))
        start += length
    }
    return chunks
}

private func collect(_ stream: RecordStream<CountingChunks, String>) async throws -> [String] {
    var records: [String] = []
    for try await record in stream { records.append(record) }
    return records
}

private let head = Response(status: 200, headers: ["Content-Type": "text/x-lines"], body: Data())

@Suite struct RecordStreamTests {
    /// A body with every kind of line: empty lines, CRLF, a line without its end, long and short lines.
    static let body: [UInt8] = {
        var text = "first\nsecond\r\n\n\r\nthird with spaces\n"
        for index in 0..<200 { text += String(repeating: "x", count: index % 37) + "\(index)\r\n" }
        text += "last without a line end"
        return Array(text.utf8)
    }()

    /// The lines as a whole-body split would give them (LF ends a line, a CR before it goes with it).
    static let expected: [String] = {
        // Split as bytes: a String would see CR LF as one character.
        var lines = body.split(separator: 0x0A, omittingEmptySubsequences: false)
            .map { String(decoding: $0.last == 0x0D ? $0.dropLast() : $0, as: UTF8.self) }
        if lines.last == "" { lines.removeLast() }
        return lines
    }()

    @Test(arguments: [1, 2, 3, 7, 16, 17, 64, 1000, 65536])
    func everyChunkingGivesTheSameRecords(maxChunk: Int) async throws {
        for seed in UInt64(1)...8 {
            let chunks = randomChunks(Self.body, seed: seed, maxChunk: maxChunk)
            let stream = try RecordStream(
                LinesSerializer(), head: head, chunks: CountingChunks(chunks: chunks, pulled: Counter()))
            #expect(try await collect(stream) == Self.expected, "seed \(seed)")
        }
        let whole = try LinesSerializer().serialize(
            Response(headers: ["Content-Type": "text/x-lines"], body: Data(Self.body)))
        #expect(whole == Self.expected)
    }

    @Test func oneByteAtATimeGivesTheSameRecords() async throws {
        let chunks = Self.body.map { [$0] }
        let stream = try RecordStream(
            LinesSerializer(), head: head, chunks: CountingChunks(chunks: chunks, pulled: Counter()))
        #expect(try await collect(stream) == Self.expected)
    }

    /// A CR at the end of one chunk and the LF at the start of the next are one line end.
    @Test func crLFSplitAcrossChunks() async throws {
        let chunks: [[UInt8]] = [Array("a\r".utf8), Array("\nb\r".utf8), [], Array("\n".utf8)]
        let stream = try RecordStream(
            LinesSerializer(), head: head, chunks: CountingChunks(chunks: chunks, pulled: Counter()))
        #expect(try await collect(stream) == ["a", "b"])
    }

    @Test func aSlowConsumerMakesTheStreamReadSlowly() async throws {
        let pulled = Counter()
        let chunks = (0..<1000).map { Array("record \($0)\n".utf8) }
        let stream = try RecordStream(
            LinesSerializer(), head: head, chunks: CountingChunks(chunks: chunks, pulled: pulled))
        var iterator = stream.makeAsyncIterator()
        for index in 0..<10 {
            #expect(try await iterator.next() == "record \(index)")
            // Nothing is read ahead of the records taken.
            #expect(pulled.value == index + 1)
        }
    }

    @Test func cancellingTheConsumerStopsTheReading() async throws {
        let pulled = Counter()
        let stream = try RecordStream(
            LinesSerializer(), head: head,
            chunks: CountingChunks(chunks: [Array("tick\n".utf8)], pulled: pulled, endless: true))
        let task = Task {
            var count = 0
            for try await _ in stream {
                count += 1
                if count == 100 { withUnsafeCurrentTask { $0?.cancel() } }
            }
            return count
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(pulled.value == 100)
    }

    static let withBadLines: [UInt8] = Array("one\n!two\nthree\n!four\nfive\n".utf8)

    @Test func stopEndsAtTheFirstBadRecord() async throws {
        let stream = try RecordStream(
            LinesSerializer(), head: head, chunks: CountingChunks(chunks: [Self.withBadLines], pulled: Counter()))
        var records: [String] = []
        let error = await #expect(throws: SerializationError.self) {
            for try await record in stream { records.append(record) }
        }
        #expect(records == ["one"])
        #expect(error?.offset == 4)
        #expect(error?.serializerID == "test.lines")
        #expect(error?.response?.status == 200)
        #expect(await stream.skippedErrors.isEmpty)
    }

    @Test func skipLeavesBadRecordsOutAndKeepsTheirErrors() async throws {
        let stream = try RecordStream(
            LinesSerializer(), head: head, chunks: CountingChunks(chunks: [Self.withBadLines], pulled: Counter()),
            options: StreamOptions(errorPolicy: .skip))
        #expect(try await collect(stream) == ["one", "three", "five"])
        #expect(await stream.skippedErrors.map(\.offset) == [4, 15])
    }

    @Test func collectThrowsEveryErrorAtTheEnd() async throws {
        let stream = try RecordStream(
            LinesSerializer(), head: head, chunks: CountingChunks(chunks: [Self.withBadLines], pulled: Counter()),
            options: StreamOptions(errorPolicy: .collect))
        var records: [String] = []
        let error = await #expect(throws: SerializationError.self) {
            for try await record in stream { records.append(record) }
        }
        #expect(records == ["one", "three", "five"])
        #expect(error?.attempts.map(\.offset) == [4, 15])
        #expect(error?.message.contains("2 records") == true)
    }

    @Test(arguments: [1, 5, 4096])
    func maxRecordBytesBoundsEveryRecord(maxChunk: Int) async throws {
        let body = Array(("short\n" + String(repeating: "y", count: 5000) + "\nafter\n").utf8)
        let stream = try RecordStream(
            LinesSerializer(), head: head,
            chunks: CountingChunks(chunks: randomChunks(body, seed: 7, maxChunk: maxChunk), pulled: Counter()),
            options: StreamOptions(errorPolicy: .skip, maxRecordBytes: 1000))
        #expect(try await collect(stream) == ["short", "after"])
        let errors = await stream.skippedErrors
        #expect(errors.map(\.code) == [.limitExceeded])
        #expect(errors.first?.offset == 6)
        #expect(errors.first?.message == "line of 5000 bytes")
    }
}

@Suite struct RegistryStreamingTests {
    static let registry: SerializerRegistry = {
        var registry = SerializerRegistry()
        registry.install(SerializerModule(name: "Lines", factories: [LinesFactory()]))
        return registry
    }()

    @Test func theMediaTypeChoosesTheStreamingSerializer() async throws {
        let stream = try await Self.registry.records(
            head, body: CountingChunks(chunks: [Array("a\nb\n".utf8)], pulled: Counter()), as: String.self)
        #expect(stream.serializerID == "test.lines")
        #expect(try await collect(stream) == ["a", "b"])
    }

    @Test func anUnacceptableStatusFailsBeforeTheFirstRecordWithItsBody() async throws {
        let pulled = Counter()
        let notFound = Response(status: 404, headers: ["Content-Type": "text/x-lines"], body: Data())
        let error = await #expect(throws: SerializationError.self) {
            _ = try await Self.registry.records(
                notFound, body: CountingChunks(chunks: [Array("not\n".utf8), Array("found\n".utf8)], pulled: pulled),
                as: String.self)
        }
        #expect(error?.code == .unacceptableStatusCode)
        #expect(error?.response?.body == Data("not\nfound\n".utf8))
        #expect(error?.errorValue as? [String] == ["not", "found"])
    }

    @Test func otherRecordTypesAreNamed() async throws {
        let error = await #expect(throws: SerializationError.self) {
            _ = try await Self.registry.records(
                head, body: CountingChunks(chunks: [], pulled: Counter()), as: Int.self)
        }
        #expect(error?.code == .unexpectedOutputType)
        #expect(error?.message.contains("'test.lines' (records of type String)") == true)
    }

    @Test func aTypeWithoutStreamingSerializerIsNoSerializer() async throws {
        let json = Response(status: 200, headers: ["Content-Type": "application/json"], body: Data())
        let error = await #expect(throws: SerializationError.self) {
            _ = try await Self.registry.records(
                json, body: CountingChunks(chunks: [], pulled: Counter()), as: String.self)
        }
        #expect(error?.code == .noSerializer)
    }

    @Test func aContentEncodingIsRefusedClearly() async throws {
        let gzip = Response(
            status: 200, headers: ["Content-Type": "text/x-lines", "Content-Encoding": "gzip"], body: Data())
        let error = await #expect(throws: SerializationError.self) {
            _ = try await Self.registry.records(
                gzip, body: CountingChunks(chunks: [], pulled: Counter()), as: String.self)
        }
        #expect(error?.code == .unsupportedFeature)
        #expect(error?.message.contains("Content-Encoding gzip") == true)
    }
}

private struct LinesFactory: SerializerFactory {
    var format: MediaFormat {
        MediaFormat(
            id: "test.lines", mediaRanges: [MediaRange("text/x-lines")], summary: "Lines, for the streaming tests.")
    }
    var defaultOptions: Void { () }
    func makeSerializer(options: Void) throws -> LinesSerializer { LinesSerializer() }
    func options(from configuration: ConfigurationOptions) throws {}
}

@Suite struct LineFramerTests {
    /// With `lineFeed`, a CR carried at the end of one chunk and dropped when the LF arrives does not move the
    /// line's offset: every chunking gives the offsets of the whole body.
    @Test(arguments: [1, 2, 3, 5, 8])
    func lineFeedOffsetsDoNotDependOnChunks(maxChunk: Int) throws {
        let text = "ab\r\ncd\r\n\r\nefg\nh\r\r\nlast"
        func lines(_ chunks: [[UInt8]]) -> [String] {
            var framer = LineFramer(lineEnds: .lineFeed, maxLineBytes: 100)
            var seen: [String] = []
            let collectPiece = { (piece: LineFramer.Piece) in
                if case .line(let bytes, let offset, let terminated) = piece {
                    seen.append("\(offset):\(String(decoding: bytes, as: UTF8.self)):\(terminated)")
                }
            }
            for chunk in chunks {
                chunk.withUnsafeBytes { raw in try? framer.consume(raw, collectPiece) }
            }
            try? framer.finish(collectPiece)
            return seen
        }
        let whole = lines([Array(text.utf8)])
        #expect(whole == ["0:ab:true", "4:cd:true", "8::true", "10:efg:true", "14:h\r:true", "18:last:false"])
        for seed in UInt64(1)...10 {
            #expect(lines(randomChunks(Array(text.utf8), seed: seed, maxChunk: maxChunk)) == whole, "seed \(seed)")
        }
    }

    /// Lines of a body with every line end of the event stream format, against a whole-body split.
    @Test(arguments: [1, 2, 3, 16, 33, 4096])
    func carriageReturnOrLineFeed(maxChunk: Int) throws {
        let text = "a\rb\nc\r\nd\r\r\ne\n\rf\r\n\r\ng" + String(repeating: "h", count: 40) + "\r"
        var expected: [String] = []
        var current = ""
        var scalars = Array(text.unicodeScalars)[...]
        while let scalar = scalars.popFirst() {
            if scalar == "\r" || scalar == "\n" {
                expected.append(current)
                current = ""
                if scalar == "\r", scalars.first == "\n" { scalars.removeFirst() }
            } else {
                current.unicodeScalars.append(scalar)
            }
        }
        for seed in UInt64(1)...6 {
            var framer = LineFramer(lineEnds: .carriageReturnOrLineFeed, maxLineBytes: 100)
            var lines: [String] = []
            var offsets: [Int] = []
            let collectPiece = { (piece: LineFramer.Piece) in
                if case .line(let bytes, let offset, let terminated) = piece {
                    #expect(terminated)
                    lines.append(String(decoding: bytes, as: UTF8.self))
                    offsets.append(offset)
                }
            }
            for chunk in randomChunks(Array(text.utf8), seed: seed, maxChunk: maxChunk) {
                var failure: SerializationError?
                chunk.withUnsafeBytes { raw in
                    do throws(SerializationError) {
                        try framer.consume(raw, collectPiece)
                    } catch {
                        failure = error
                    }
                }
                #expect(failure == nil)
            }
            try framer.finish(collectPiece)
            #expect(lines == expected, "seed \(seed)")
            #expect(framer.offset == text.utf8.count)
            #expect(offsets.first == 0)
        }
    }

    /// The framer's lines against a byte-at-a-time reference written here, on random bodies whose line ends fall at
    /// every position of the framer's 64-byte blocks (runs of up to 150 bytes between them), for every mode, whole
    /// and in random chunks, through the closure and the generic sink.
    @Test(arguments: [LineFramer.LineEnds.lineFeed, .carriageReturnOrLineFeed, .recordSeparator])
    func matchesAByteAtATimeReference(lineEnds: LineFramer.LineEnds) throws {
        var generator = SplitMix64(state: 42)
        for round in 0..<40 {
            var body: [UInt8] = []
            while body.count < 3_000 {
                let run = Int.random(in: 0...(round % 2 == 0 ? 150 : 12), using: &generator)
                body += (0..<run).map { _ in UInt8.random(in: 0x20...0x7E, using: &generator) }
                body.append([0x0A, 0x0D, 0x1E, 0x0D, 0x0A].randomElement(using: &generator)!)
            }
            if round % 3 == 0 { body += Array("tail".utf8) }
            let expected = Self.reference(body, lineEnds: lineEnds)
            #expect(Self.framed([body], lineEnds: lineEnds, generic: false) == expected, "round \(round)")
            #expect(Self.framed([body], lineEnds: lineEnds, generic: true) == expected, "round \(round)")
            let chunks = randomChunks(body, seed: UInt64(round + 1), maxChunk: round % 4 == 0 ? 3 : 200)
            #expect(Self.framed(chunks, lineEnds: lineEnds, generic: round % 2 == 1) == expected, "round \(round)")
        }
    }

    /// "offset:text:terminated" for each line of `body`, found one byte at a time.
    static func reference(_ body: [UInt8], lineEnds: LineFramer.LineEnds) -> [String] {
        var lines: [String] = []
        var start = 0
        var index = 0
        func line(_ end: Int, terminated: Bool) {
            lines.append("\(start):\(String(decoding: body[start..<end], as: UTF8.self)):\(terminated)")
        }
        while index < body.count {
            let byte = body[index]
            switch lineEnds {
            case .lineFeed where byte == 0x0A:
                line(index > start && body[index - 1] == 0x0D ? index - 1 : index, terminated: true)
                start = index + 1
            case .carriageReturnOrLineFeed where byte == 0x0A || byte == 0x0D:
                line(index, terminated: true)
                if byte == 0x0D, index + 1 < body.count, body[index + 1] == 0x0A { index += 1 }
                start = index + 1
            case .recordSeparator where byte == 0x1E:
                line(index, terminated: true)
                start = index + 1
            default:
                break
            }
            index += 1
        }
        if start < body.count { line(body.count, terminated: false) }
        return lines
    }

    struct Collector: LineSink {
        var lines: [String] = []
        mutating func take(_ piece: LineFramer.Piece) throws(SerializationError) {
            guard case .line(let bytes, let offset, let terminated) = piece else {
                throw SerializationError(code: .limitExceeded, message: "oversized")
            }
            lines.append("\(offset):\(String(decoding: bytes, as: UTF8.self)):\(terminated)")
        }
    }

    static func framed(_ chunks: [[UInt8]], lineEnds: LineFramer.LineEnds, generic: Bool) -> [String] {
        var framer = LineFramer(lineEnds: lineEnds, maxLineBytes: 10_000)
        var collector = Collector()
        var failure: SerializationError?
        for chunk in chunks {
            chunk.withUnsafeBytes { raw in
                do throws(SerializationError) {
                    if generic {
                        try framer.consume(raw, into: &collector)
                    } else {
                        try framer.consume(raw) { (piece) throws(SerializationError) in try collector.take(piece) }
                    }
                } catch {
                    failure = error
                }
            }
        }
        do throws(SerializationError) {
            try framer.finish(into: &collector)
        } catch {
            failure = error
        }
        return failure == nil ? collector.lines : ["failed"]
    }
}
