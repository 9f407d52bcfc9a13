import Decant
import DecantMultipart
import Dispatch
import Foundation

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `multipart.upload.1gib`: a 1 GiB `multipart/form-data` body (a few fields and a generated file part) produced by
/// `MultipartUpload` in a child process, against reading the same file in 64 KiB chunks with `FileHandle`; the
/// child's peak RSS is in the note (target: under 64 MiB), and so is a real upload of the body through
/// `URLSession.upload` to a server on 127.0.0.1 that discards it.
enum MultipartUploadWorkloads {
    /// `multipart.upload.1gib`.
    static var all: [Workload] {
        [
            Workload(
                name: "multipart.upload.1gib", unit: .megabytesPerSecond, baselineName: "FileHandle, 64 KiB reads",
                summary: "a 1 GiB multipart/form-data body (fields + a file read from disk) streamed in 64 KiB "
                    + "chunks in a child process; peak RSS in the note",
                prepare: measure)
        ]
    }

    /// The file part's size: 1 GiB (128 MiB with `--quick`).
    static func fileBytes(quick: Bool) -> Int { quick ? 128 << 20 : 1 << 30 }

    private static func measure(_ settings: RunSettings) throws -> Prepared {
        let bytes = fileBytes(quick: settings.quick)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-bench-\(UUID()).bin")
        try writeFile(file, bytes: bytes)
        defer { try? FileManager.default.removeItem(at: file) }
        let writer = try report(MemoryWorkloads.probe(side: "multipart-chunks", path: file.path))
        let reader = try report(MemoryWorkloads.probe(side: "multipart-read", path: file.path))
        let upload = try report(MemoryWorkloads.probe(side: "multipart-loopback", path: file.path))
        let mebibyte = Double(1 << 20)
        return .direct(
            DirectResult(
                decant: writer.rate, baseline: reader.rate, baselineName: "FileHandle, 64 KiB reads", rounds: 1,
                spread: nil, baselineSpread: nil,
                note: "multipart.upload.1gib: a \(bytes >> 20) MiB file part + 3 fields; peak RSS of the child "
                    + String(
                        format: "%.1f MiB (grew %.1f MiB) ", Double(writer.peak) / mebibyte,
                        Double(writer.growth) / mebibyte)
                    + "producing the body (target < 64 MiB), "
                    + String(format: "%.1f MiB reading the file alone; ", Double(reader.peak) / mebibyte)
                    + "uploaded through URLSession.upload to 127.0.0.1: "
                    + String(format: "%.0f MB/s, peak RSS %.1f MiB", upload.rate, Double(upload.peak) / mebibyte)))
    }

    /// What a probe printed: the growth of its peak RSS, its seconds, and `bytes=N,peak=N`.
    private static func report(_ probe: MemoryWorkloads.Probe) throws -> (rate: Double, peak: Int, growth: Int) {
        var values: [String: Int] = [:]
        for pair in probe.outcome.split(separator: ",") {
            let parts = pair.split(separator: "=")
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        guard let bytes = values["bytes"], let peak = values["peak"], probe.seconds > 0 else {
            throw BenchError(description: "multipart probe printed \(probe.outcome)")
        }
        return (Double(bytes) / probe.seconds / 1e6, peak, probe.growth)
    }

    /// Writes `bytes` of pseudo-random data to `file`, 1 MiB at a time.
    private static func writeFile(_ file: URL, bytes: Int) throws {
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw BenchError(description: "could not create \(file.path)")
        }
        let handle = try FileHandle(forWritingTo: file)
        defer { try? handle.close() }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        var block = [UInt8](repeating: 0, count: 1 << 20)
        var written = 0
        while written < bytes {
            for index in stride(from: 0, to: block.count, by: 8) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                withUnsafeBytes(of: state.bigEndian) { word in
                    for offset in 0..<8 { block[index + offset] = word[offset] }
                }
            }
            let count = min(block.count, bytes - written)
            try handle.write(contentsOf: block[0..<count])
            written += count
        }
    }

    /// The form the probes send: three fields and the file.
    static func form(file: String) throws -> MultipartUpload {
        var form = MultipartUpload.formData()
        try form.append("decant-bench", name: "client")
        try form.append("A 1 GiB upload, streamed.", name: "description")
        try form.append(JSONValue.object([("chunked", true)]), name: "meta", registry: .standard)
        try form.appendFile(at: URL(fileURLWithPath: file), name: "file", filename: "data.bin")
        return form
    }

    /// The child's side: `multipart-chunks` iterates the body's chunks, `multipart-read` reads the file alone in
    /// 64 KiB chunks, `multipart-loopback` uploads the body to a discarding server on 127.0.0.1. Prints
    /// `growth seconds bytes=N,peak=N`.
    static func probe(side: String, path: String) throws -> String {
        let before = MemoryWorkloads.peakResidentBytes()
        let start = ContinuousClock.now
        let bytes: Int
        switch side {
        case "multipart-chunks":
            let form = try form(file: path)
            bytes = try StreamingWorkloads.blocking {
                var total = 0
                for try await chunk in form.chunks() { total += chunk.count }
                return total
            }
            guard bytes == form.contentLength else { throw BenchError(description: "the body has another length") }
        case "multipart-read":
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            var total = 0
            while let chunk = try handle.read(upToCount: 65_536), !chunk.isEmpty { total += chunk.count }
            try handle.close()
            bytes = total
        default:
            let form = try form(file: path)
            let server = try DiscardingServer()
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(server.port)/upload")!)
            request.timeoutInterval = 600
            let sendable = request
            let received = try StreamingWorkloads.blocking {
                let response = try await URLSession.shared.upload(
                    form.chunks(), headerFields: form.headerFields, for: sendable)
                return Int(String(decoding: response.body, as: UTF8.self)) ?? -1
            }
            guard received == form.contentLength else {
                throw BenchError(description: "the server received \(received) bytes")
            }
            bytes = received
        }
        let elapsed = ContinuousClock.now - start
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let peak = MemoryWorkloads.peakResidentBytes()
        return "\(peak - before) \(seconds) bytes=\(bytes),peak=\(peak)"
    }
}

/// A one-request HTTP/1.1 server on 127.0.0.1 that reads a `Content-Length` body, discards it and answers with the
/// number of bytes it read.
private final class DiscardingServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                bind(listener, socketAddress, length) == 0 && listen(listener, 1) == 0
                    && getsockname(listener, socketAddress, &length) == 0
            }
        }
        guard bound else { throw BenchError(description: "the discarding server could not listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread.detachNewThread { Self.serve(listener) }
    }

    private static func serve(_ listener: Int32) {
        let client = accept(listener, nil, nil)
        defer {
            close(client)
            close(listener)
        }
        var reader = SocketReader(descriptor: client)
        var lengthField: Int?
        var chunked = false
        while let line = reader.line(), !line.isEmpty {
            let lowered = line.lowercased()
            if lowered.hasPrefix("content-length:") {
                lengthField = Int(lowered.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces))
            } else if lowered.hasPrefix("transfer-encoding:") {
                chunked = lowered.contains("chunked")
            }
        }
        var received = 0
        if chunked {
            while let line = reader.line(), let size = Int(line.split(separator: ";").first ?? "", radix: 16) {
                if size == 0 { break }
                received += reader.skip(size)
                _ = reader.line()
            }
        } else {
            received = reader.skip(lengthField ?? 0)
        }
        let answer = "\(received)"
        let response = "HTTP/1.1 200 OK\r\nContent-Length: \(answer.utf8.count)\r\nConnection: close\r\n\r\n\(answer)"
        _ = response.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }
}

/// Reads lines and skips bytes from a socket through a 64 KiB buffer (`Content-Length` and chunked bodies).
private struct SocketReader {
    let descriptor: Int32
    private var buffer = [UInt8](repeating: 0, count: 1 << 16)
    private var start = 0
    private var end = 0

    init(descriptor: Int32) { self.descriptor = descriptor }

    /// Fills the buffer when it is empty; `false` at the end of the stream.
    private mutating func fill() -> Bool {
        guard start == end else { return true }
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        guard count > 0 else { return false }
        start = 0
        end = count
        return true
    }

    /// The next line without its line break, or `nil` at the end of the stream.
    mutating func line() -> String? {
        var bytes: [UInt8] = []
        while fill() {
            let byte = buffer[start]
            start += 1
            if byte == 0x0A {
                return String(decoding: bytes.last == 0x0D ? bytes.dropLast() : bytes[...], as: UTF8.self)
            }
            bytes.append(byte)
        }
        return nil
    }

    /// Skips up to `count` bytes; returns how many there were.
    mutating func skip(_ count: Int) -> Int {
        var skipped = 0
        while skipped < count, fill() {
            let step = min(end - start, count - skipped)
            start += step
            skipped += step
        }
        return skipped
    }
}
