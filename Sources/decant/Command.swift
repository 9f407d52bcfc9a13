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

/// One `decant` subcommand.
protocol Command {
    /// The name typed after `decant`.
    static var name: String { get }
    /// One line for `decant --help`.
    static var summary: String { get }
    /// The full `--help` text.
    static var usage: String { get }
    /// Runs the command and returns its exit status (0 success, 1 failure; usage errors throw).
    static func run(_ arguments: [String]) throws -> Int32
}

/// Output helpers shared by the commands.
enum Output {
    /// Writes `text` and a newline to standard output.
    static func line(_ text: String) { print(text) }

    /// Writes `text` and a newline to standard error.
    static func error(_ text: String) {
        FileHandleWriter.standardError.write(text + "\n")
    }

    /// Reads a file, or standard input for `-`.
    static func read(_ path: String) throws -> Data {
        if path == "-" { return FileHandleWriter.readStandardInput() }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CommandLineArguments.UsageError(description: "cannot read \(path): no such file or not readable")
        }
        return data
    }

    /// A JSON string literal for `text` (RFC 8259 escaping).
    static func jsonString(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    /// A JSON array of strings.
    static func jsonArray(_ values: [String]) -> String {
        "[" + values.map(jsonString).joined(separator: ",") + "]"
    }
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

    static func readStandardInput() -> Data {
        var data = Data()
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = systemRead(0, &buffer, buffer.count)
            if count <= 0 { break }
            data.append(contentsOf: buffer[0..<count])
        }
        return data
    }
}

#if canImport(Glibc)
    private let systemWrite = Glibc.write
    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    private let systemWrite = Darwin.write
    private let systemRead = Darwin.read
#endif
