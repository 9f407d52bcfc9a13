import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A POSIX file descriptor, for reading files part by part and writing a body to a file (FoundationEssentials has
/// no `FileHandle`).
final class FileDescriptor: @unchecked Sendable {
    /// The descriptor, or -1 once closed.
    private var descriptor: Int32

    private init(_ descriptor: Int32) { self.descriptor = descriptor }

    deinit { close() }

    /// Closes the descriptor (once).
    func close() {
        guard descriptor >= 0 else { return }
        #if canImport(Glibc)
            _ = Glibc.close(descriptor)
        #elseif canImport(Musl)
            _ = Musl.close(descriptor)
        #elseif canImport(Darwin)
            _ = Darwin.close(descriptor)
        #endif
        descriptor = -1
    }

    /// The length of the regular file at `path`.
    static func regularFileLength(_ path: String, codingPath: [String]) throws(SerializationError) -> Int {
        var status = stat()
        guard stat(path, &status) == 0 else { throw failure("read the attributes of", path, codingPath: codingPath) }
        guard status.st_mode & S_IFMT == S_IFREG else {
            throw SerializationError(
                code: .encodingFailed,
                message: "\(path) is not a regular file, so its length is not known. Append "
                    + "its bytes as a sequence of chunks instead.",
                codingPath: codingPath)
        }
        return Int(status.st_size)
    }

    /// Opens `path` for reading.
    static func open(_ path: String, codingPath: [String]) throws(SerializationError) -> FileDescriptor {
        let descriptor = path.withCString { openFile($0, O_RDONLY) }
        guard descriptor >= 0 else { throw failure("open", path, codingPath: codingPath) }
        return FileDescriptor(descriptor)
    }

    /// Creates (or truncates) `path` for writing.
    static func create(_ path: String) throws(SerializationError) -> FileDescriptor {
        let descriptor = path.withCString { openFile($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        guard descriptor >= 0 else { throw failure("create", path, codingPath: []) }
        return FileDescriptor(descriptor)
    }

    /// Removes the file at `path`, if it can.
    static func remove(_ path: String) { _ = unlink(path) }

    /// At most `count` bytes from the current position; empty at the end of the file.
    func read(upTo count: Int, path: String, codingPath: [String]) throws(SerializationError) -> Data? {
        guard count > 0 else { return Data() }
        var data = Data(count: count)
        var result = 0
        repeat {
            result = data.withUnsafeMutableBytes { buffer in
                #if canImport(Glibc)
                    Glibc.read(descriptor, buffer.baseAddress, count)
                #elseif canImport(Musl)
                    Musl.read(descriptor, buffer.baseAddress, count)
                #else
                    Darwin.read(descriptor, buffer.baseAddress, count)
                #endif
            }
        } while result < 0 && errno == EINTR
        guard result >= 0 else { throw Self.failure("read", path, codingPath: codingPath) }
        data.count = result
        return data
    }

    /// Writes all of `data`.
    func write(_ data: Data, path: String) throws(SerializationError) {
        var written = 0
        while written < data.count {
            let result = data.withUnsafeBytes { buffer in
                #if canImport(Glibc)
                    Glibc.write(descriptor, buffer.baseAddress! + written, data.count - written)
                #elseif canImport(Musl)
                    Musl.write(descriptor, buffer.baseAddress! + written, data.count - written)
                #else
                    Darwin.write(descriptor, buffer.baseAddress! + written, data.count - written)
                #endif
            }
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { throw Self.failure("write", path, codingPath: []) }
            written += result
        }
    }

    /// The error for a failed system call on `path`, with `errno`'s description.
    private static func failure(_ action: String, _ path: String, codingPath: [String]) -> SerializationError {
        let reason = String(cString: strerror(errno))
        return SerializationError(
            code: .encodingFailed, message: "Could not \(action) \(path): \(reason).", codingPath: codingPath)
    }
}

/// `open(2)`.
private func openFile(_ path: UnsafePointer<CChar>, _ flags: Int32, _ mode: mode_t = 0) -> Int32 {
    #if canImport(Glibc)
        Glibc.open(path, flags, mode)
    #elseif canImport(Musl)
        Musl.open(path, flags, mode)
    #else
        Darwin.open(path, flags, mode)
    #endif
}
