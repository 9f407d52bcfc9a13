import Foundation

/// Runs this plugin's `fixtures.py` (its Python readers, independent of Decant) on a body, when `python3` exists.
enum PythonReference {
    /// Whether `python3` runs on this machine.
    static let isAvailable: Bool = (try? run(["-c", "pass"])) != nil

    /// The plugin's `fixtures.py`, found from this file.
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("fixtures.py")

    /// The standard output of `python3 -B fixtures.py arguments... FILE`, FILE holding `body`.
    static func fixturesScript(_ arguments: [String], body: Data) throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("decant-writer-\(UUID().uuidString)")
        try body.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return try run(["-B", script.path] + arguments + [file.path])
    }

    /// Runs `python3 arguments` and returns its standard output; throws when it fails.
    static func run(_ arguments: [String]) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw CocoaError(.fileReadUnknown) }
        return data
    }
}
