#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The tool's standard output: one buffer that every command writes through, written to the file descriptor in
/// blocks of up to ``capacity`` bytes rather than once per line or record.
///
/// It is flushed when the buffer fills, before anything is written to standard error (so the two keep their order on
/// a terminal), before `decode --stream` waits for more input (so a streaming consumer sees each record once the
/// chunk that held it is decoded), and when a command ends. On a terminal it is flushed after every line, as stdio's
/// line buffering does. A write larger than the buffer goes to the descriptor directly, without a copy.
final class BufferedOutput: @unchecked Sendable {
    /// Standard output.
    static let standardOutput = BufferedOutput(descriptor: 1)

    /// The most bytes held before they are written.
    static let capacity = 64 * 1024

    private let descriptor: Int32
    /// Whether the descriptor is a terminal: then every line is flushed.
    let isTerminal: Bool
    private let lock = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    /// The bytes not yet written (guarded by `lock`).
    private var buffer: [UInt8] = []
    /// Set once a write fails (a closed pipe without SIGPIPE, a full disk): later output is dropped rather than
    /// retried for every line.
    private var failed = false

    init(descriptor: Int32) {
        self.descriptor = descriptor
        isTerminal = isatty(descriptor) != 0
        lock.initialize(to: pthread_mutex_t())
        pthread_mutex_init(lock, nil)
        buffer.reserveCapacity(Self.capacity)
    }

    deinit {
        pthread_mutex_destroy(lock)
        lock.deallocate()
    }

    /// Appends `bytes`, then a newline when `newline` is set; writes the buffer out when it is full (or at the newline
    /// on a terminal).
    func write(_ bytes: UnsafeRawBufferPointer, newline: Bool = false) {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        if buffer.count + bytes.count > Self.capacity {
            writeBuffer()
            if bytes.count >= Self.capacity {
                writeAll(bytes)
            } else {
                buffer.append(contentsOf: bytes)
            }
        } else {
            buffer.append(contentsOf: bytes)
        }
        if newline {
            buffer.append(0x0A)
            if isTerminal || buffer.count >= Self.capacity { writeBuffer() }
        }
    }

    /// Appends the UTF-8 of `text` (and a newline when `newline` is set).
    func write(_ text: String, newline: Bool = false) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0), newline: newline) }
    }

    /// Writes out what the buffer holds.
    func flush() {
        pthread_mutex_lock(lock)
        defer { pthread_mutex_unlock(lock) }
        writeBuffer()
    }

    /// Writes the buffer to the descriptor and empties it. Call with `lock` held.
    private func writeBuffer() {
        guard !buffer.isEmpty else { return }
        buffer.withUnsafeBytes { writeAll($0) }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Writes all of `bytes` to the descriptor, retrying short and interrupted writes. Call with `lock` held.
    private func writeAll(_ bytes: UnsafeRawBufferPointer) {
        guard !failed, let base = bytes.baseAddress else { return }
        var offset = 0
        while offset < bytes.count {
            let written = systemWrite(descriptor, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                failed = true
                return
            }
        }
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
#endif
