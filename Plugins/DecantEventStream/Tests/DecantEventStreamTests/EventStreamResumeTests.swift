import Decant
import DecantConformance
import DecantEventStream
import Foundation
import Testing

private let fixturesScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("fixtures.py")

/// Feeds `body` to a reader in chunks cut at `cuts`, to its end; returns the reader and the events it dispatched.
private func read(
    _ body: [UInt8], cuts: [Int] = [],
    reader: EventStreamRecordReader = EventStreamRecordReader(maxRecordBytes: 1 << 20)
) throws -> (EventStreamRecordReader, [ServerSentEvent]) {
    var reader = reader
    var records: [Result<ServerSentEvent, SerializationError>] = []
    var start = 0
    for cut in cuts.sorted() + [body.count] where cut >= start && cut <= body.count {
        try body[start..<cut].withUnsafeBytes { try reader.consume($0, into: &records) }
        start = cut
    }
    try reader.finish(into: &records)
    return (reader, try records.map { try $0.get() })
}

/// What a reconnecting client keeps from a stream: the last event ID string and the reconnection time.
@Suite struct EventStreamResumeTests {
    /// Hand cases: an empty line commits the last `id` even without data; an event cut off by the end does not;
    /// a `retry` counts as soon as it is read.
    @Test(
        arguments: [
            ("id: 7\n\n", "7", nil), ("id: 7\ndata: x\n\n", "7", nil), ("id: 7\ndata: x\n", "", nil),
            ("id: 1\ndata: a\n\nid: 2\ndata: b", "1", nil), ("id: 1\n\nid\n\n", "", nil),
            ("id: 1\n\nid: a\u{0}b\n\n", "1", nil), ("retry: 10\ndata: cut", "", 10), ("retry: 1x\n\n", "", nil),
            ("id: 5\r\n\r\nretry: 30\r", "5", 30),
        ] as [(String, String, Int?)])
    func resumePoint(body: String, lastEventID: String, retry: Int?) throws {
        let (reader, _) = try read(Array(body.utf8))
        #expect(reader.lastEventID == lastEventID)
        #expect(reader.retry == retry)
    }

    /// 300 generated streams (ids, bare ids, ids with NUL, data, retry fields valid or not, comments, the three
    /// line ends, often cut short), each read in random chunks: the last event ID string and retry are those of
    /// fixtures.py's rendering of the WHATWG algorithm in Python (`--resume`).
    @Test(.enabled(if: PythonReference.isAvailable)) func matchesPythonsReading() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let lines = [
            "id: 1", "id: 22", "id", "id: a\u{0}b", "id:", "data: x", "data", "retry: 12", "retry: 7", "retry: 1x",
            "retry:", ": comment", "event: t", "", "", "",
        ]
        let ends = ["\n", "\r\n", "\r"]
        var bodies: [[UInt8]] = []
        var readers: [EventStreamRecordReader] = []
        for _ in 0..<300 {
            var body: [UInt8] = []
            for _ in 0..<(1 + next(12)) {
                body += Array((lines[next(lines.count)] + ends[next(ends.count)]).utf8)
            }
            if next(2) == 0 { body = Array(body.prefix(next(body.count + 1))) }
            let cuts = (0..<next(4)).map { _ in next(body.count + 1) }
            bodies.append(body)
            readers.append(try read(body, cuts: cuts).0)
        }
        // One Python run for all: the bodies as arrays of byte values.
        let input =
            "[" + bodies.map { "[" + $0.map(String.init).joined(separator: ",") + "]" }.joined(separator: ",")
            + "]"
        let output = try PythonReference.run(script: fixturesScript, ["--resume"], body: Data(input.utf8))
        guard let expected = try JSONParser().parse(output).arrayValue else {
            Issue.record("fixtures.py --resume printed no array")
            return
        }
        #expect(expected.count == 300)
        var checked = 0
        for (index, (reader, expected)) in zip(readers, expected).enumerated() {
            #expect(expected["lastEventID"]?.stringValue == reader.lastEventID, "\(bodies[index])")
            let retry: JSONValue = reader.retry.map { JSONValue($0) } ?? nil
            #expect(expected["retry"] == retry, "\(bodies[index])")
            checked += 1
        }
        #expect(checked == 300)
    }

    /// A reader that continues a stream starts from its last event ID: events without `id` carry it, and it stays
    /// the last event ID string until an `id` field and an empty line replace it.
    @Test func aContinuedStreamKeepsTheLastEventID() throws {
        let seeded = EventStreamRecordReader(maxRecordBytes: 1 << 20, lastEventID: "41")
        #expect(seeded.lastEventID == "41")
        let (reader, events) = try read(Array("data: a\n\nid: 42\ndata: b\n\ndata: c\n\nid\n".utf8), reader: seeded)
        #expect(events.map(\.lastEventID) == ["41", "42", "42"])
        #expect(reader.lastEventID == "42")
    }
}
