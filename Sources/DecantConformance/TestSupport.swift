public import Foundation

/// The shared third-party test corpora (JSONTestSuite, the CBOR test vectors, the MessagePack test suite, ...) as a
/// plugin's tests find them: optional, so that a test needing them is skipped, not failed, where they are absent.
///
/// The folder is the environment variable `DECANT_CORPORA` when it is set, else `../shared/corpora` beside the
/// package: the first folder at or above the test file that holds a `Package.swift`, then its sibling
/// `shared/corpora`. Create it from the test file, so that `#filePath` is that file's path:
///
/// ```swift
/// let corpora = TestCorpora()
///
/// @Test(.enabled(if: corpora.isAvailable, "needs ../shared/corpora"))
/// func appendixA() throws {
///     let file = try #require(corpora.url("cbor/test-vectors/appendix_a.json"))
///     ...
/// }
/// ```
public struct TestCorpora: Sendable {
    /// The corpora folder, or `nil` when it does not exist.
    public let root: URL?

    /// Finds the corpora from `filePath` (the calling test file by default).
    ///
    /// - Parameters:
    ///   - filePath: Where to start looking for the package's `Package.swift`.
    ///   - environment: Where `DECANT_CORPORA` is read: the process's environment by default.
    public init(
        searchingFrom filePath: String = #filePath,
        environment: [String: String] = ProcessInfo.processInfo.environment
    ) {
        if let override = environment["DECANT_CORPORA"], !override.isEmpty {
            let url = URL(fileURLWithPath: override, isDirectory: true)
            root = Self.isDirectory(url) ? url : nil
            return
        }
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                let corpora = directory.deletingLastPathComponent()
                    .appendingPathComponent("shared", isDirectory: true)
                    .appendingPathComponent("corpora", isDirectory: true).standardizedFileURL
                root = Self.isDirectory(corpora) ? corpora : nil
                return
            }
            directory.deleteLastPathComponent()
        }
        root = nil
    }

    /// Whether the corpora folder exists.
    public var isAvailable: Bool { root != nil }

    /// The URL of `relativePath` inside the corpora, or `nil` when the corpora or that file or folder are missing.
    public func url(_ relativePath: String) -> URL? {
        guard let url = root?.appendingPathComponent(relativePath),
            FileManager.default.fileExists(atPath: url.path)
        else { return nil }
        return url
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny seeded random number generator, so that a test's random inputs
/// are the same on every run and platform, and a failure can be replayed from its seed.
///
/// ```swift
/// var generator = SplitMix64(seed: 42)
/// let body = Data((0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) })
/// ```
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's state: the seed, advanced by each call.
    public var state: UInt64

    /// Creates a generator from a seed.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` bytes of output, eight per call of ``next()``, least significant byte first.
    public mutating func bytes(count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(max(0, count))
        while bytes.count < count {
            let word = next()
            for shift in stride(from: 0, to: 64, by: 8) where bytes.count < count {
                bytes.append(UInt8(truncatingIfNeeded: word >> UInt64(shift)))
            }
        }
        return bytes
    }
}

/// A body handed out in chunks, as a streaming serializer gets it from the network: the chunks given, or the bytes
/// cut at seeded random boundaries, so that a test exercises framing across chunk boundaries reproducibly.
///
/// ```swift
/// let chunks = ChunkedBody(body, seed: 7, maxChunk: 16)
/// let stream = try await registry.records(head, body: chunks, as: JSONValue.self)
/// ```
public struct ChunkedBody: AsyncSequence, Sendable {
    /// The chunks are `Data`.
    public typealias Element = Data

    /// The chunks, in order.
    public let chunks: [Data]

    /// A body of the chunks `chunks`, in order.
    public init(_ chunks: [Data]) { self.chunks = chunks }

    /// `bytes` cut into chunks of 1 to `maxChunk` bytes (at least 1) at boundaries drawn from `SplitMix64(seed:)`.
    public init(_ bytes: Data, seed: UInt64, maxChunk: Int) {
        var generator = SplitMix64(seed: seed)
        let largest = Swift.max(1, maxChunk)
        var chunks: [Data] = []
        var start = bytes.startIndex
        while start < bytes.endIndex {
            let end = Swift.min(bytes.endIndex, start + Int.random(in: 1...largest, using: &generator))
            chunks.append(Data(bytes[start..<end]))
            start = end
        }
        self.chunks = chunks
    }

    /// Hands out the chunks one by one.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var remaining: ArraySlice<Data>

        /// The next chunk, or `nil` after the last.
        public mutating func next() async throws -> Data? { remaining.popFirst() }
    }

    /// An iterator over the chunks.
    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(remaining: chunks[...]) }
}

/// Runs `python3`, for tests that check a format against an independent reader or writer written in Python (its
/// standard library, or a plugin's own `fixtures.py`). A test that needs it is skipped where `python3` is absent.
///
/// ```swift
/// /// The plugin's fixtures script, beside its Tests folder.
/// let fixturesScript = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
///     .deletingLastPathComponent().appendingPathComponent("fixtures.py")
///
/// @Test(.enabled(if: PythonReference.isAvailable)) func pythonReadsWhatWeWrite() throws {
///     let output = try PythonReference.run(script: fixturesScript, ["--read"], body: body)
///     ...
/// }
/// ```
public enum PythonReference {
    /// Whether `python3` runs on this machine.
    public static let isAvailable: Bool = (try? run(["-c", "pass"])) != nil

    /// Whether `python3` can import `module` (Pillow is `PIL`).
    public static func has(module: String) -> Bool { (try? run(["-c", "import \(module)"])) != nil }

    /// Runs `python3 arguments...` and returns its standard output.
    ///
    /// - Throws: ``ConformanceFailure`` when it exits with a status other than 0, or the error of starting it.
    @discardableResult
    public static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ConformanceFailure(
                "python3 \(arguments.prefix(3).joined(separator: " ")) exited with status \(process.terminationStatus)")
        }
        return data
    }

    /// Runs `python3 -B script arguments... FILE`, with FILE a temporary file holding `body`, and returns its standard
    /// output.
    ///
    /// - Throws: As ``run(_:)``, or the error of writing the temporary file.
    public static func run(script: URL, _ arguments: [String] = [], body: Data) throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-python-\(UUID().uuidString)")
        try body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try run(["-B", script.path] + arguments + [file.path])
    }
}
