import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension MultipartUpload {
    /// The bytes of a ``MultipartUpload`` as chunks, read while they are iterated (``MultipartUpload/chunks(size:)``).
    public struct Chunks: AsyncSequence, Sendable {
        /// A chunk of the body.
        public typealias Element = Data

        /// The body.
        let upload: MultipartUpload
        /// The largest chunk.
        let size: Int

        /// An iterator that reads the parts from the start.
        public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(upload: upload, size: size) }

        /// Reads the parts, one chunk at a time.
        public struct AsyncIterator: AsyncIteratorProtocol {
            /// The body.
            private let upload: MultipartUpload
            /// The largest chunk.
            private let size: Int
            /// The part being written, and where in it.
            private var stage: Stage = .delimiter(0)
            /// Bytes already produced that did not fit the last chunk.
            private var pending = Data()

            /// Where the iteration is.
            private enum Stage {
                /// The delimiter and header block of part `index` (or the close delimiter after the last part).
                case delimiter(Int)
                /// The content of part `index`.
                case content(Int, PartReader)
                /// Everything was produced.
                case finished
            }

            init(upload: MultipartUpload, size: Int) {
                self.upload = upload
                self.size = size
            }

            /// The next chunk of at most the chunk size, or `nil` after the close delimiter.
            public mutating func next() async throws -> Data? {
                var chunk = Data()
                chunk.reserveCapacity(size)
                if !pending.isEmpty { take(&pending, into: &chunk) }
                while chunk.count < size {
                    switch stage {
                    case .finished:
                        return chunk.isEmpty ? nil : chunk
                    case .delimiter(let index):
                        var bytes: Data
                        if index == upload.parts.count {
                            bytes = MultipartWriter.closeDelimiter(upload.boundary, afterParts: index > 0)
                            stage = .finished
                        } else {
                            bytes = MultipartWriter.delimiter(upload.boundary, first: index == 0)
                            bytes.append(upload.parts[index].head)
                            stage = .content(
                                index,
                                try PartReader(upload.parts[index].source, index: index, boundary: upload.boundary))
                        }
                        take(&bytes, into: &chunk)
                        pending = bytes
                        if !pending.isEmpty { return chunk }
                    case .content(let index, let reader):
                        if let bytes = try await reader.read(upTo: size - chunk.count) {
                            chunk.append(bytes)
                        } else {
                            stage = .delimiter(index + 1)
                        }
                    }
                }
                return chunk
            }

            /// Moves from the front of `bytes` into `chunk` what fits.
            private func take(_ bytes: inout Data, into chunk: inout Data) {
                let room = size - chunk.count
                if bytes.count <= room {
                    chunk.append(bytes)
                    bytes = Data()
                } else {
                    chunk.append(bytes.prefix(room))
                    bytes = Data(bytes.dropFirst(room))
                }
            }
        }
    }
}

/// Reads one part's content in pieces, checking its length and that `--boundary` does not occur in streamed bytes.
final class PartReader {
    /// Where the bytes come from.
    private enum Input {
        case bytes(Data, offset: Int)
        case file(FileDescriptor, path: String)
        case stream(any ChunkIterator, leftover: Data)
    }

    private var input: Input
    /// The part's index, for errors.
    private let index: Int
    /// The length the part must have, when known.
    private let expected: Int?
    /// The bytes produced so far.
    private var produced = 0
    /// Finds the boundary in streamed content.
    private var scanner: BoundaryScanner?

    init(_ source: MultipartUpload.Source, index: Int, boundary: String) throws(SerializationError) {
        self.index = index
        self.expected = source.length
        switch source {
        case .bytes(let data):
            input = .bytes(data, offset: data.startIndex)
        case .file(let path, _):
            input = .file(try FileDescriptor.open(path, codingPath: ["parts", String(index)]), path: path)
            scanner = BoundaryScanner(boundary: boundary)
        case .stream(_, let makeIterator):
            input = .stream(makeIterator(), leftover: Data())
            scanner = BoundaryScanner(boundary: boundary)
        }
    }

    deinit {
        if case .file(let descriptor, _) = input { descriptor.close() }
    }

    /// The next at most `limit` bytes (`limit` > 0), or `nil` at the end of the part.
    func read(upTo limit: Int) async throws -> Data? {
        let bytes: Data?
        switch input {
        case .bytes(let data, let offset):
            guard offset < data.endIndex else { return nil }
            let end = min(offset + limit, data.endIndex)
            input = .bytes(data, offset: end)
            return data[offset..<end]
        case .file(let descriptor, let path):
            let wanted = min(limit, (expected ?? 0) - produced)
            bytes = try descriptor.read(upTo: wanted, path: path, codingPath: codingPath)
            if bytes == nil || bytes?.isEmpty == true {
                let extra = try descriptor.read(upTo: 1, path: path, codingPath: codingPath)
                descriptor.close()
                input = .bytes(Data(), offset: 0)
                if produced < expected ?? 0 {
                    throw changed(
                        path, "shrank: it had \(expected ?? 0) bytes when it was appended, and ended after \(produced)")
                }
                if extra?.isEmpty == false {
                    throw changed(path, "grew: it had \(expected ?? 0) bytes when it was appended, and has more now")
                }
                return nil
            }
        case .stream(var iterator, var leftover):
            if leftover.isEmpty {
                guard let next = try await iterator.nextChunk() else {
                    input = .bytes(Data(), offset: 0)
                    if let expected, produced != expected {
                        throw lengthMismatch(expected: expected, actual: produced)
                    }
                    return nil
                }
                leftover = next
            }
            let piece = leftover.prefix(limit)
            leftover = Data(leftover.dropFirst(piece.count))
            input = .stream(iterator, leftover: leftover)
            bytes = Data(piece)
        }
        guard let bytes else { return nil }
        produced += bytes.count
        if let expected, produced > expected { throw lengthMismatch(expected: expected, actual: produced) }
        if scanner?.scan(bytes) == true {
            throw SerializationError(
                code: .encodingFailed,
                message: "Part \(index + 1) contains the boundary of its body, so it would end the part early. Send "
                    + "it again: a new upload draws a new boundary.",
                codingPath: codingPath)
        }
        return bytes
    }

    /// The part's coding path.
    private var codingPath: [String] { ["parts", String(index)] }

    /// The error for a file whose length changed while it was sent.
    private func changed(_ path: String, _ what: String) -> SerializationError {
        SerializationError(
            code: .encodingFailed,
            message: "The file \(path) of part \(index + 1) \(what). Do not change a file while it is being sent.",
            codingPath: codingPath)
    }

    /// The error for a sequence that yielded another number of bytes than it was appended with.
    private func lengthMismatch(expected: Int, actual: Int) -> SerializationError {
        SerializationError(
            code: .encodingFailed,
            message: "Part \(index + 1) was appended with a length of \(expected) bytes but yielded "
                + "\(actual > expected ? "more" : "\(actual)"). Give the exact length, or none.",
            codingPath: codingPath)
    }
}
