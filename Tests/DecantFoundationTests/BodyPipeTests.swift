import Foundation
import Testing

@testable import DecantFoundation

/// The pipe that carries a streamed upload's body to `URLSession`: once closed, it writes nowhere. Its writing thread
/// once went on writing the body into the descriptor number the pipe had just closed; the process gave that number to
/// the next socket it accepted or opened, and a download on another connection received the upload's bytes (a body
/// cut short arrived whole, padded to its `Content-Length`, and decoded as an invalid body).
@Suite struct BodyPipeTests {
    @Test func aClosedPipeWritesNothingMore() async throws {
        let body = try BodyPipe()
        // A second reader, as the stream `URLSession` opens on `/dev/fd/N` is: the pipe stays full and its writer
        // waits for room instead of failing.
        let reader = dup(body.readEnd)
        try #require(reader >= 0)
        defer { close(reader) }
        let sending = Task { await body.send(Data(repeating: 0xAB, count: 1 << 20)) }
        // The writer is writing once bytes are in the pipe; with 1 MiB to write, it then waits for room.
        var ready = pollfd(fd: reader, events: Int16(POLLIN), revents: 0)
        _ = poll(&ready, 1, -1)

        // A probe pipe, and copies of its writing end at the lowest free numbers once the body's pipe is closed:
        // a write to a number the body's pipe closed lands in the probe.
        var probe: [Int32] = [0, 0]
        try #require(pipe(&probe) == 0)
        for end in probe { _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK) }
        body.close()
        let copies = (0..<4).map { _ in dup(probe[1]) }
        // Longer than the writer waits in `poll` between writes, so that a writer still running has written by
        // now (with the pipe as it should be, nothing runs: `close()` returned after the writer ended).
        try await Task.sleep(nanoseconds: 300_000_000)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        let stray = read(probe[0], &buffer, buffer.count)
        // Without a reader, a writer still running fails (EPIPE) rather than wait for room.
        close(probe[0])
        for copy in copies where copy >= 0 { close(copy) }
        close(probe[1])
        #expect(stray <= 0, "the pipe's writer wrote \(stray) bytes into a descriptor it had closed")
        #expect(await sending.value == false)

        // The writing end is closed: the reader gets the bytes written, then the end of the pipe.
        var received = 0
        while true {
            let count = read(reader, &buffer, buffer.count)
            if count <= 0 {
                #expect(count == 0)
                break
            }
            received += count
        }
        #expect(received > 0 && received < 1 << 20)
    }

    /// `stopWriting()` ends the body for `URLSession` (the end of the pipe) and leaves the reading end open.
    @Test func stoppingEndsTheBodyAndKeepsTheReadingEnd() async throws {
        let body = try BodyPipe()
        defer { body.close() }
        #expect(await body.send(Data("abc".utf8)))
        body.stopWriting()
        #expect(await body.send(Data("def".utf8)) == false)
        var buffer = [UInt8](repeating: 0, count: 16)
        #expect(read(body.readEnd, &buffer, buffer.count) == 3)
        #expect(Array(buffer.prefix(3)) == Array("abc".utf8))
        #expect(read(body.readEnd, &buffer, buffer.count) == 0)
    }
}
