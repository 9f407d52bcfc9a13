public import DecantCore

#if canImport(FoundationNetworking)
    public import Foundation
    public import FoundationNetworking
#else
    public import Foundation
#endif

/// How `URLSession.upload(_:headerFields:for:method:via:)` hands a streamed body to `URLSession`.
public enum UploadMethod: Sendable, Hashable {
    /// Through a pipe that is the request's `httpBodyStream`, each chunk written as `URLSession` reads: nothing
    /// touches the disk. FoundationNetworking (Linux) sends a body stream with `Transfer-Encoding: chunked` and
    /// would send a `Content-Length` beside it (a request RFC 9112 §6.3 lets a server reject), so there the
    /// `Content-Length` of the header fields is left out and the body goes chunked. Apple platforms send it with
    /// the `Content-Length` given (not checked here: no Apple machine builds this package).
    case stream
    /// Written to a temporary file first, then sent with `upload(for:fromFile:)` and a `Content-Length`, as
    /// Alamofire does for large multipart bodies: for servers that need the length (some object stores and
    /// proxies refuse chunked requests). Costs a write and a read of the body on disk; the file is removed after.
    case temporaryFile
}

extension URLSession {
    /// Sends `request` with a body that is produced while it is sent, such as a `MultipartUpload`'s chunks
    /// (DecantMultipart), and loads the response whole: the memory held does not grow with the body.
    ///
    /// ```swift
    /// var form = MultipartUpload.formData()
    /// try form.append("Ada", name: "author")
    /// try form.appendFile(at: videoURL, name: "video")
    /// let response = try await URLSession.shared.upload(
    ///     form.chunks(), headerFields: form.headerFields, for: URLRequest(url: uploadURL))
    /// let receipt = try registry.serialize(response, as: JSONValue.self)
    /// ```
    ///
    /// With ``UploadMethod/stream`` (the default) the chunks go through a pipe whose reading end is the request's
    /// `httpBodyStream`: a thread of its own writes each chunk into the pipe as `URLSession` reads from it, so at
    /// most one chunk and the pipe's buffer are in flight. Measured on Linux with a 256 MiB body, `httpBodyStream`
    /// and `upload(for:fromFile:)` both keep the peak resident size near 40 MB; `Stream.getBoundStreams` does not
    /// exist in FoundationNetworking, and a named pipe given to `upload(for:fromFile:)` never completes. See
    /// ``UploadMethod`` for how each method frames the body.
    ///
    /// - Parameters:
    ///   - body: The body's chunks, iterated once.
    ///   - headerFields: The fields that describe the body (`Content-Type`, and `Content-Length` when known), set on
    ///     the request.
    ///   - request: The request; its `httpBody` and `httpBodyStream` are replaced.
    ///   - method: The request method, `POST` unless given.
    ///   - uploadMethod: How the body reaches `URLSession`.
    /// - Returns: The response, as ``decantResponse(for:bodySizeLimit:)`` describes it.
    /// - Throws: The error `body` throws (the request is then cancelled, and the server sees a body cut short), the
    ///   session's error, or the error of making the pipe or the temporary file.
    public func upload<Body: AsyncSequence & Sendable>(
        _ body: Body, headerFields: HTTPHeaderFields, for request: URLRequest, method: String = "POST",
        via uploadMethod: UploadMethod = .stream
    ) async throws -> Response where Body.Element == Data {
        var prepared = request
        prepared.httpMethod = method
        prepared.httpBody = nil
        prepared.httpBodyStream = nil
        for field in headerFields { prepared.setValue(field.value, forHTTPHeaderField: field.name) }
        if uploadMethod == .temporaryFile { return try await uploadThroughFile(body, request: prepared) }
        #if canImport(FoundationNetworking)
            prepared.setValue(nil, forHTTPHeaderField: "Content-Length")
        #endif
        let pipe = try BodyPipe()
        // Closed only here, after the task group, which waits for the data task to end: `URLSession` opens the
        // reading end by its number, which must not belong to anything else before.
        defer { pipe.close() }
        prepared.httpBodyStream = InputStream(fileAtPath: "/dev/fd/\(pipe.readEnd)")
        let streamed = prepared
        let task = TaskBox()
        let failure = FailureBox()
        // FoundationNetworking reads a body stream on its own work queue, which every session shares, and a read of
        // the pipe blocks that queue until the next chunk is written. Any `URLSession` call made meanwhile (another
        // request starting) waits for the queue on a thread of the cooperative pool; on a small machine the whole
        // pool can end up waiting, and a producer that needs the pool to make the next chunk never runs: a
        // deadlock (seen with two cores). So the body is produced on a thread of its own there.
        @Sendable func produce() async throws -> Response? {
            do {
                for try await chunk in body {
                    guard await pipe.send(chunk) else { break }
                }
                pipe.finish()
            } catch {
                // End the body first: `URLSession` may be blocked in a read of the pipe on the queue that
                // `cancel()` waits for (FoundationNetworking), and only the end of the pipe frees it. The server
                // then sees a body cut short (a multipart body without its close delimiter) or a cancelled
                // request; the caller gets this error either way.
                failure.set(error)
                pipe.stopWriting()
                task.cancel()
                throw error
            }
            return nil
        }
        #if canImport(FoundationNetworking)
            let producer = ThreadExecutor()
            defer { producer.stop() }
        #endif
        return try await withThrowingTaskGroup(of: Response?.self) { group in
            #if canImport(FoundationNetworking)
                group.addTask(executorPreference: producer, operation: produce)
            #else
                group.addTask(operation: produce)
            #endif
            group.addTask {
                let (data, urlResponse) = try await self.loadCancellably(streamed, fromFile: nil, box: task)
                return try Response(data: data, response: urlResponse, request: streamed)
            }
            do {
                while let result = try await group.next() {
                    guard let response = result else { continue }
                    if let error = failure.error { throw error }
                    pipe.stopWriting()
                    group.cancelAll()
                    return response
                }
            } catch {
                // Ended before the task is cancelled, for the reason the body's failure ends it first.
                pipe.stopWriting()
                group.cancelAll()
                throw failure.error ?? error
            }
            throw URLError(.unknown)
        }
    }

    /// ``UploadMethod/temporaryFile``: the body written to a temporary file, then sent from it with its length.
    private func uploadThroughFile<Body: AsyncSequence & Sendable>(
        _ body: Body, request: URLRequest
    ) async throws -> Response where Body.Element == Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: file.path])
        }
        defer { try? FileManager.default.removeItem(at: file) }
        let handle = try FileHandle(forWritingTo: file)
        var length = 0
        do {
            for try await chunk in body {
                try handle.write(contentsOf: chunk)
                length += chunk.count
            }
            try handle.close()
        } catch {
            try? handle.close()
            throw error
        }
        var request = request
        request.setValue(String(length), forHTTPHeaderField: "Content-Length")
        let (data, urlResponse) = try await loadCancellably(request, fromFile: file, box: TaskBox())
        return try Response(data: data, response: urlResponse, request: request)
    }

    /// `request` loaded by a data task that is cancelled when the calling task is.
    private func loadCancellably(
        _ request: URLRequest, fromFile file: URL?, box: TaskBox
    ) async throws -> (Data, URLResponse) {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
                    if let error {
                        continuation.resume(throwing: error)
                    } else if let response {
                        continuation.resume(returning: (data ?? Data(), response))
                    } else {
                        continuation.resume(throwing: URLError(.badServerResponse))
                    }
                }
                let task: URLSessionTask
                if let file {
                    task = uploadTask(with: request, fromFile: file, completionHandler: completion)
                } else {
                    task = dataTask(with: request, completionHandler: completion)
                }
                box.set(task)
                task.resume()
            }
        } onCancel: {
            box.cancel()
        }
    }
}

/// The first error of an upload's body.
private final class FailureBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?

    var error: (any Error)? { lock.withLock { stored } }

    func set(_ error: any Error) { lock.withLock { stored = stored ?? error } }
}

/// The task of an upload, for cancelling it from another task (also before it exists).
private final class TaskBox: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var cancelled = false

    func set(_ task: URLSessionTask) {
        let cancelNow = lock.withLock {
            self.task = task
            return cancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            cancelled = true
            return self.task
        }
        task?.cancel()
    }
}

/// A pipe that carries a streamed request body from async code to `URLSession`: `send` hands a chunk to a thread of
/// its own, which writes it into the pipe (non-blocking, waiting with `poll` in short slices so that a stop is seen
/// at once) and resumes the sender when the chunk is in the pipe.
///
/// The writing end belongs to that thread alone: it closes it when it ends, after the last chunk (``finish()``, the
/// end of the body) or when stopped (``stopWriting()``, ``close()``), and no other code touches it. A descriptor
/// closed under a thread that still writes to it is a write to whatever the process opens next with that number (a
/// socket, a file): the body's bytes went into another connection that way. For the same reason the reading end
/// stays open until ``close()``, which the caller makes only after `URLSession` is done with the request, because
/// `URLSession` opens it by number (`/dev/fd/N`).
final class BodyPipe: @unchecked Sendable {
    /// The reading end, given to `URLSession` as `/dev/fd/N`.
    let readEnd: Int32
    /// The writing end, owned by the writing thread.
    private let writeEnd: Int32
    private let condition = NSCondition()
    /// The chunk waiting to be written and its sender.
    private var pending: (Data, CheckedContinuation<Bool, Never>)?
    /// No more chunks will come: close the writing end (the end of the body).
    private var finished = false
    /// The upload is over: drop what is pending and stop writing.
    private var stopped = false
    /// Whether the writing thread has ended (and closed the writing end).
    private var writerEnded = false
    /// Whether the reading end was closed.
    private var readClosed = false

    /// How long the writing thread waits in `poll` for room in the pipe before it looks for a stop again.
    static let pollMilliseconds: Int32 = 10

    init() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        readEnd = ends[0]
        writeEnd = ends[1]
        _ = fcntl(writeEnd, F_SETFL, fcntl(writeEnd, F_GETFL) | O_NONBLOCK)
        _ = fcntl(readEnd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(writeEnd, F_SETFD, FD_CLOEXEC)
        let thread = Thread { [self] in run() }
        thread.name = "Decant upload body"
        thread.start()
    }

    /// Hands `chunk` to the writing thread; `true` once it is in the pipe, `false` when the upload is over.
    func send(_ chunk: Data) async -> Bool {
        await withCheckedContinuation { continuation in
            condition.lock()
            if stopped || finished {
                condition.unlock()
                continuation.resume(returning: false)
                return
            }
            pending = (chunk, continuation)
            condition.signal()
            condition.unlock()
        }
    }

    /// The body is complete: the writing end is closed after the last chunk.
    func finish() {
        condition.lock()
        finished = true
        condition.broadcast()
        condition.unlock()
    }

    /// The upload is over: the writing thread drops what is pending, closes the writing end and ends; returns once
    /// it has (at most about ``pollMilliseconds`` later), so that `URLSession` reads the end of the body from here on.
    func stopWriting() {
        condition.lock()
        defer { condition.unlock() }
        stopped = true
        condition.broadcast()
        while !writerEnded { condition.wait() }
    }

    /// Stops the writing thread (``stopWriting()``) and closes the reading end: call it once `URLSession` is done
    /// with the request (it opens the reading end by number, so the number must not be given to anything else
    /// before).
    func close() {
        stopWriting()
        condition.lock()
        defer { condition.unlock() }
        guard !readClosed else { return }
        readClosed = true
        _ = systemClose(readEnd)
    }

    /// The writing thread: takes chunks until the body is finished or the upload stopped, then closes the writing
    /// end, which nothing else uses.
    private func run() {
        // A reader that went away makes write(2) raise SIGPIPE; blocked in this thread, it only fails the write.
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        while true {
            condition.lock()
            while pending == nil && !finished && !stopped { condition.wait() }
            let next = pending
            pending = nil
            let stop = stopped
            condition.unlock()
            if let (chunk, sender) = next {
                sender.resume(returning: !stop && write(chunk))
                continue
            }
            break
        }
        _ = systemClose(writeEnd)
        condition.lock()
        writerEnded = true
        condition.broadcast()
        condition.unlock()
    }

    /// Writes all of `chunk`, waiting for room; `false` when the reader went away or the upload stopped.
    private func write(_ chunk: Data) -> Bool {
        var offset = 0
        while offset < chunk.count {
            if isStopped { return false }
            let written = chunk.withUnsafeBytes { buffer in
                systemWrite(writeEnd, buffer.baseAddress! + offset, chunk.count - offset)
            }
            if written > 0 {
                offset += written
                continue
            }
            guard written < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else { return false }
            var descriptor = pollfd(fd: writeEnd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&descriptor, 1, Self.pollMilliseconds)
        }
        return true
    }

    private var isStopped: Bool { condition.withLock { stopped } }
}

/// `close(2)`.
private func systemClose(_ descriptor: Int32) -> Int32 {
    #if canImport(Glibc)
        Glibc.close(descriptor)
    #elseif canImport(Musl)
        Musl.close(descriptor)
    #else
        Darwin.close(descriptor)
    #endif
}

/// `write(2)`.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Glibc)
        Glibc.write(descriptor, bytes, count)
    #elseif canImport(Musl)
        Musl.write(descriptor, bytes, count)
    #else
        Darwin.write(descriptor, bytes, count)
    #endif
}

#if canImport(FoundationNetworking)
    /// A task executor that runs its jobs one at a time on one thread, until stopped (after the last job it was given).
    final class ThreadExecutor: TaskExecutor, @unchecked Sendable {
        private let condition = NSCondition()
        private var jobs: [UnownedJob] = []
        private var stopped = false

        init() {
            let thread = Thread { [self] in run() }
            thread.name = "decant.upload-body"
            thread.start()
        }

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            condition.lock()
            jobs.append(job)
            condition.signal()
            condition.unlock()
        }

        /// Ends the thread once the jobs already given have run.
        func stop() {
            condition.lock()
            stopped = true
            condition.signal()
            condition.unlock()
        }

        private func run() {
            while true {
                condition.lock()
                while jobs.isEmpty && !stopped { condition.wait() }
                if jobs.isEmpty {
                    condition.unlock()
                    return
                }
                let job = jobs.removeFirst()
                condition.unlock()
                job.runSynchronously(on: asUnownedTaskExecutor())
            }
        }
    }
#endif
