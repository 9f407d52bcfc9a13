import Foundation

/// Finds the shared corpora: `$DECANT_CORPORA`, else `<package root>/../shared/corpora`, where the package root is
/// the first directory above this source file that holds a `Package.swift`.
enum Corpora {
    /// The corpora directory, or `nil` when it does not exist.
    static let root: URL? = {
        if let override = ProcessInfo.processInfo.environment["DECANT_CORPORA"], !override.isEmpty {
            return isDirectory(override) ? URL(fileURLWithPath: override) : nil
        }
        var directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while directory.path != "/" {
            if FileManager.default.fileExists(atPath: directory.appendingPathComponent("Package.swift").path) {
                let corpora = directory.deletingLastPathComponent().appendingPathComponent("shared/corpora")
                return isDirectory(corpora.path) ? corpora.standardizedFileURL : nil
            }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }()

    /// How the corpora path is shown in skip reasons.
    static var displayRoot: String { root?.path ?? "../shared/corpora (not found; set DECANT_CORPORA)" }

    /// The bytes of the corpora file `relativePath`.
    ///
    /// - Throws: ``Skip`` when the corpora or the file are missing.
    static func data(_ relativePath: String) throws -> Data {
        guard let root else { throw Skip(reason: "corpora not found (../shared/corpora or $DECANT_CORPORA)") }
        let url = root.appendingPathComponent(relativePath)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw Skip(reason: "\(relativePath) not found in \(root.path)")
        }
        return data
    }

    /// The path of the corpora file `relativePath`.
    ///
    /// - Throws: ``Skip`` when the corpora or the file are missing.
    static func path(_ relativePath: String) throws -> String {
        guard let root else { throw Skip(reason: "corpora not found (../shared/corpora or $DECANT_CORPORA)") }
        let path = root.appendingPathComponent(relativePath).path
        guard FileManager.default.fileExists(atPath: path) else {
            throw Skip(reason: "\(relativePath) not found in \(root.path)")
        }
        return path
    }

    /// The files directly in the corpora folder `relativePath` whose names end in `suffix`, sorted by name.
    static func files(in relativePath: String, suffix: String) throws -> [URL] {
        guard let root else { throw Skip(reason: "corpora not found (../shared/corpora or $DECANT_CORPORA)") }
        let directory = root.appendingPathComponent(relativePath)
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            throw Skip(reason: "\(relativePath) not found in \(root.path)")
        }
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { directory.appendingPathComponent($0) }
    }

    private static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The standard JSON benchmark files.
    enum JSONFile: String {
        case twitter, citm = "citm_catalog", canada

        /// The path inside the corpora.
        var relativePath: String { "json/nativejson-benchmark/data/\(rawValue).json" }
    }
}
