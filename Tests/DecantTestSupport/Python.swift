public import Foundation

/// Runs `python3`, the independent reference several tests compare with (its `zlib`, `json`, `plistlib`, Pillow).
public enum Python {
    /// Whether `python3` runs on this machine.
    public static let isAvailable: Bool = (try? run("pass")) != nil

    /// Whether `python3` can import `module` (Pillow is `PIL`).
    public static func has(_ module: String) -> Bool { (try? run("import \(module)")) != nil }

    /// Runs `python3 -c script` with `arguments` and returns its standard output; throws when it fails.
    @discardableResult
    public static func run(_ script: String, _ arguments: [String] = []) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
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
