public import Foundation

/// Locates the shared third-party test corpora for every test target (see `../shared/corpora/README.md`).
///
/// The corpora live next to the package, at `<package root>/../shared/corpora`; the package root is found by walking
/// up from this source file to the first directory that holds a `Package.swift`. Setting the environment variable
/// `DECANT_CORPORA` to a directory overrides the location. The corpora are optional: tests that need them gate on
/// ``isAvailable`` so that they are skipped, not failed, when the directory is absent:
///
/// ```swift
/// @Test(.enabled(if: Corpora.isAvailable, "needs ../shared/corpora"))
/// func sniffsEveryPNG() throws {
///     for url in Corpora.files(under: "images/pngsuite", extension: "png") { ... }
/// }
/// ```
public enum Corpora {
    /// The corpora directory, or `nil` when it does not exist.
    public static let root: URL? = locateRoot()

    /// Whether the corpora directory exists.
    public static var isAvailable: Bool { root != nil }

    /// The URL of `relativePath` inside the corpora, or `nil` when the corpora or that item are missing.
    public static func url(_ relativePath: String) -> URL? {
        guard let root else { return nil }
        let url = root.appendingPathComponent(relativePath)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    /// Every regular file below the corpora folder `relativePath` (recursively) whose name ends in `.extension`
    /// (ASCII case-insensitive, without the dot), sorted by path. Empty when the corpora or the folder are missing.
    public static func files(under relativePath: String, extension pathExtension: String) -> [URL] {
        files(under: relativePath, extensions: [pathExtension])
    }

    /// Every regular file below the corpora folder `relativePath` (recursively) whose extension is one of
    /// `extensions` (ASCII case-insensitive, without the dot), sorted by path.
    public static func files(under relativePath: String, extensions: Set<String>) -> [URL] {
        let wanted = Set(extensions.map { $0.lowercased() })
        return files(under: relativePath) { wanted.contains($0.pathExtension.lowercased()) }
    }

    /// Every regular file below the corpora folder `relativePath` (recursively) that `include` accepts, sorted by
    /// path. Empty when the corpora or the folder are missing.
    public static func files(under relativePath: String, where include: (URL) -> Bool) -> [URL] {
        guard let directory = url(relativePath),
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [])
        else { return [] }
        var found: [URL] = []
        for case let file as URL in enumerator {
            guard (try? file.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true, include(file)
            else { continue }
            found.append(file)
        }
        return found.sorted { $0.path < $1.path }
    }

    /// `url`'s path relative to the corpora root, for readable test output.
    public static func relativePath(of url: URL) -> String {
        guard let root else { return url.path }
        let prefix = root.standardizedFileURL.path + "/"
        let path = url.standardizedFileURL.path
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }

    /// `DECANT_CORPORA`, else `<package root>/../shared/corpora`, provided it is a directory.
    private static func locateRoot(filePath: String = #filePath) -> URL? {
        if let override = ProcessInfo.processInfo.environment["DECANT_CORPORA"], !override.isEmpty {
            let url = URL(fileURLWithPath: override, isDirectory: true)
            return isDirectory(url) ? url : nil
        }
        var directory = URL(fileURLWithPath: filePath).deletingLastPathComponent()
        while directory.path != "/" && !directory.path.isEmpty {
            let manifest = directory.appendingPathComponent("Package.swift")
            if FileManager.default.fileExists(atPath: manifest.path) {
                let corpora = directory.deletingLastPathComponent()
                    .appendingPathComponent("shared", isDirectory: true)
                    .appendingPathComponent("corpora", isDirectory: true)
                    .standardizedFileURL
                return isDirectory(corpora) ? corpora : nil
            }
            directory = directory.deletingLastPathComponent()
        }
        return nil
    }

    private static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }
}
