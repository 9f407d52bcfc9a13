import DecantConformance
public import Foundation

/// Runs `python3 -c`, the independent reference several tests compare with (its `zlib`, `json`, `plistlib`, Pillow),
/// through the conformance kit's ``PythonReference``.
public enum Python {
    /// Whether `python3` runs on this machine.
    public static var isAvailable: Bool { PythonReference.isAvailable }

    /// Whether `python3` can import `module` (Pillow is `PIL`).
    public static func has(_ module: String) -> Bool { PythonReference.has(module: module) }

    /// Runs `python3 -c script` with `arguments` and returns its standard output; throws when it fails.
    @discardableResult
    public static func run(_ script: String, _ arguments: [String] = []) throws -> Data {
        try PythonReference.run(["-c", script] + arguments)
    }
}
