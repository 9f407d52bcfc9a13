import Decant

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a command runs against: the tool's name and registry.
struct CommandContext: Sendable {
    /// The name printed in usage lines, such as `decant`.
    var toolName: String
    /// The registry the command uses.
    var registry: SerializerRegistry
    /// Reads reconnecting event streams for `get --stream`; `nil` without one (and under `--no-plugins`).
    var eventSource: EventSourceOpener? = nil

    /// `text` (a usage text written for `decant`) with the tool's own name in its usage line.
    func named(_ text: String) -> String {
        toolName == "decant" ? text : text.replacingOccurrences(of: "Usage: decant ", with: "Usage: \(toolName) ")
    }
}

/// One subcommand of the tool.
protocol Command {
    /// The name typed after `decant`.
    static var name: String { get }
    /// One line for `decant --help`.
    static var summary: String { get }
    /// The full `--help` text.
    static var usage: String { get }
    /// Runs the command and returns its exit status (0 success, 1 failure; usage errors throw).
    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32
}

/// Collects what a run prints, for ``DecantTool/capture(_:)``.
final class OutputCapture: Sendable {
    private let streams = Locked((Data(), ""))

    func appendOutput(_ text: String) { streams.withLock { $0.0.append(contentsOf: text.utf8) } }

    func appendOutput(bytes: UnsafeRawBufferPointer) { streams.withLock { $0.0.append(contentsOf: bytes) } }

    func appendError(_ text: String) { streams.withLock { $0.1 += text } }

    /// Standard output's bytes and standard error's text.
    var contents: (Data, String) { streams.withLock { $0 } }
}

/// Output helpers shared by the commands.
enum Output {
    /// Where output goes instead of the standard streams while ``DecantTool/capture(_:)`` runs.
    @TaskLocal static var capture: OutputCapture?

    /// Writes `text` and a newline to standard output (through ``BufferedOutput/standardOutput``).
    static func line(_ text: String) {
        if let capture {
            capture.appendOutput(text + "\n")
        } else {
            BufferedOutput.standardOutput.write(text, newline: true)
        }
    }

    /// Writes the UTF-8 `bytes` (JSON text, say) and a newline to standard output, without making a `String` of them.
    static func line(bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { buffer in
            if let capture {
                capture.appendOutput(String(decoding: buffer, as: UTF8.self) + "\n")
            } else {
                BufferedOutput.standardOutput.write(buffer, newline: true)
            }
        }
    }

    /// Writes `bytes` to standard output as they are (a body), without a newline.
    static func write(bytes: some ContiguousBytes) {
        bytes.withUnsafeBytes { buffer in
            if let capture {
                capture.appendOutput(bytes: buffer)
            } else {
                BufferedOutput.standardOutput.write(buffer)
            }
        }
    }

    /// Writes out what standard output holds: for lines that must reach a pipe now (`decode --stream` calls it before
    /// it waits for more input).
    static func flush() {
        if capture == nil { BufferedOutput.standardOutput.flush() }
    }

    /// Writes `text` and a newline to standard error, after what standard output holds (so the two keep their order).
    static func error(_ text: String) {
        if let capture {
            capture.appendError(text + "\n")
        } else {
            BufferedOutput.standardOutput.flush()
            FileHandleWriter.standardError.write(text + "\n")
        }
    }

    /// Whether standard output is a terminal (and output is not being captured): images are then drawn.
    static var isTerminal: Bool { capture == nil && isatty(1) != 0 }

    /// The terminal's size in character cells: its width (80 when output is captured or the size is unknown) and its
    /// height when known.
    static var terminalSize: (columns: Int, rows: Int?) {
        guard capture == nil else { return (80, nil) }
        var size = winsize()
        if isatty(1) != 0, ioctl(1, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return (Int(size.ws_col), size.ws_row > 0 ? Int(size.ws_row) : nil)
        }
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 {
            return (columns, nil)
        }
        return (80, nil)
    }

    /// Whether progress may be drawn on standard error: it is a terminal and output is not being captured.
    static var showsProgress: Bool { capture == nil && isatty(2) != 0 }

    /// Reads at most `limit` bytes of a file, or of standard input for `-`, without reading further.
    ///
    /// - Returns: The bytes, and whether there was more (the input is larger than `limit`): one byte past the limit
    ///   is read to know, nothing beyond it. Any `limit` is safe, `Int.max` included (the arithmetic never passes it).
    static func read(_ path: String, atMost limit: Int) throws -> (data: Data, isComplete: Bool) {
        let limit = max(0, limit)
        let descriptor = try openInput(path)
        defer { if descriptor != 0 { _ = systemClose(descriptor) } }
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while data.count <= limit {
            // One byte past the limit at most; `limit - data.count` cannot overflow where `limit + 1` could.
            let remaining = limit - data.count
            let wanted = remaining < buffer.count ? remaining + 1 : buffer.count
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, wanted) }
            if count < 0 {
                if errno == EINTR { continue }
                throw readFailure(path, errno: errno)
            }
            if count == 0 { return (data, true) }
            data.append(contentsOf: buffer[0..<count])
        }
        data.removeLast(data.count - limit)
        return (data, false)
    }

    /// Opens `path` for reading, or standard input (0) for `-`.
    ///
    /// - Throws: A usage error when there is no such file or it cannot be opened; a ``CommandFailure`` when it is a
    ///   directory (reading one fails with a bare `EISDIR`).
    static func openInput(_ path: String) throws -> Int32 {
        guard path != "-" else { return 0 }
        let descriptor = systemOpen(path, O_RDONLY)
        guard descriptor >= 0 else {
            let reason = errno == ENOENT ? "there is no such file" : systemMessage(errno)
            throw CommandLineArguments.UsageError(description: "cannot read \(path): \(reason)")
        }
        var status = stat()
        if fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFDIR {
            _ = systemClose(descriptor)
            throw CommandFailure(
                "cannot read \(path): it is a directory, not a file. Give the path of a file, or - to read standard "
                    + "input.")
        }
        return descriptor
    }

    /// The failure of a `read` from `path` with `errno`.
    static func readFailure(_ path: String, errno code: Int32) -> CommandFailure {
        let source = path == "-" ? "standard input" : path
        if code == EISDIR {
            return CommandFailure(
                "cannot read \(source): it is a directory, not a file. Give the path of a file, or - to read standard "
                    + "input.")
        }
        return CommandFailure("cannot read \(source): \(systemMessage(code)) (errno \(code)).")
    }

    /// The system's description of `errno` `code`, such as "Permission denied".
    static func systemMessage(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }

    /// A JSON string literal for `text` (RFC 8259 escaping).
    static func jsonString(_ text: String) -> String { JSONStringEscaping.literal(text) }

    /// A JSON array of strings.
    static func jsonArray(_ values: [String]) -> String {
        "[" + values.map(jsonString).joined(separator: ",") + "]"
    }
}

/// A command's failure that is not a usage error (an input that cannot be read, an output that cannot be written):
/// printed as `decant COMMAND: MESSAGE` on standard error, exit status 1.
struct CommandFailure: Error, CustomStringConvertible {
    /// What failed and how to fix it.
    let description: String

    init(_ description: String) { self.description = description }
}

/// Unbuffered access to the standard streams without full Foundation.
enum FileHandleWriter {
    case standardError

    func write(_ text: String) {
        var bytes = Array(text.utf8)
        bytes.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = systemWrite(2, buffer.baseAddress! + offset, buffer.count - offset)
                if written <= 0 { break }
                offset += written
            }
        }
    }

}

/// A file or standard input read in chunks as they arrive (for `decode --stream`): each `next()` waits for the next
/// read of up to 64 KiB, so records are decoded while a pipe is still being written.
struct InputChunks: AsyncSequence, Sendable {
    typealias Element = Data
    /// The file descriptor (0 for standard input).
    let descriptor: Int32
    /// The bytes already read (the rest of a raw message's head read), handed out first.
    let prefix: Data

    /// Opens `path`, or standard input for `-` (see ``Output/openInput(_:)``).
    static func open(_ path: String) throws -> Int32 { try Output.openInput(path) }

    /// Reads up to 64 KiB; empty at the end of the input.
    ///
    /// Standard output is flushed first: the records of the input read so far have been printed (the record stream
    /// reads a chunk only when the records of the previous ones have been taken), and must reach a consumer before
    /// the read waits on a pipe that may stall.
    static func read(_ descriptor: Int32) throws -> Data {
        Output.flush()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { systemRead(descriptor, $0.baseAddress, $0.count) }
            if count >= 0 { return Data(buffer[0..<count]) }
            if errno != EINTR {
                throw Output.readFailure(descriptor == 0 ? "-" : "the input", errno: errno)
            }
        }
    }

    struct AsyncIterator: AsyncIteratorProtocol {
        let descriptor: Int32
        var prefix: Data?

        mutating func next() async throws -> Data? {
            if let pending = prefix {
                prefix = nil
                if !pending.isEmpty { return pending }
            }
            let chunk = try InputChunks.read(descriptor)
            return chunk.isEmpty ? nil : chunk
        }
    }

    func makeAsyncIterator() -> AsyncIterator { AsyncIterator(descriptor: descriptor, prefix: prefix) }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
    private let systemRead = Glibc.read
    private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { Glibc.open(path, flags) }
    private let systemClose = Glibc.close
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
    private let systemRead = Darwin.read
    private func systemOpen(_ path: String, _ flags: Int32) -> Int32 { Darwin.open(path, flags) }
    private let systemClose = Darwin.close
#endif
