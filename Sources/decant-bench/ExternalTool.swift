import Foundation

/// A reference program run as a subprocess for a baseline (imgbench, xmlbench, jsonbench): found through an
/// environment variable, run to completion, its standard output returned.
struct ExternalTool {
    /// The tool's name in errors, such as `imgbench`.
    let name: String
    /// The executable.
    let path: String

    /// The tool whose binary `$variable` names, when it is set and executable.
    static func named(_ name: String, by variable: String) -> ExternalTool? {
        guard let path = ProcessInfo.processInfo.environment[variable], !path.isEmpty,
            FileManager.default.isExecutableFile(atPath: path)
        else { return nil }
        return ExternalTool(name: name, path: path)
    }

    /// Which of a tool's outputs ``output(_:environment:from:)`` returns (the other is discarded).
    enum Stream {
        case standardOutput, standardError
    }

    /// Runs the tool with `arguments` (and `environment` added to this process's) and returns what it printed on
    /// `stream`.
    ///
    /// - Throws: ``BenchError`` when it exits with another status than 0.
    func output(
        _ arguments: [String], environment: [String: String] = [:], from stream: Stream = .standardOutput
    ) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, added in added }
        }
        let output = Pipe()
        process.standardOutput = stream == .standardOutput ? output : FileHandle.nullDevice
        process.standardError = stream == .standardError ? output : FileHandle.nullDevice
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchError(description: "\(name) exited with status \(process.terminationStatus)")
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
