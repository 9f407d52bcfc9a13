import Decant
import DecantConformance
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `decant conformance [DIR]`: run a fixture tree against the tool's registry.
enum ConformanceCommand: Command {
    static let name = "conformance"
    static let summary = "Run a conformance fixture tree (default Fixtures/) and print a per-module table."
    static let usage = """
        Usage: decant conformance [--format text|json|junit] [--no-perturb] [DIR]

        Runs every fixture below DIR (default: Fixtures/ in the current directory): each `<case>.http` raw response
        with its `<case>.expect.json` expectation, against the tool's registry, and again on perturbed copies
        (header name case, Content-Type spacing and parameter order, an added charset, trailing whitespace, a
        chunked body), and each value a format writes back through that format (the round trip); then every
        writing case `<case>.encode.json` (a value in its canonical form, the media type or Accept header, and the
        exact body expected). Prints a table per module and the closing line `N passed, N failed`; exits 1 if any
        failed.

        Options:
          --format F    text (default), json (one object with per-module counts and every result) or junit (XML).
          --no-perturb  Run only the original messages.
          --help        Show this help.
        """

    static func run(_ arguments: [String], _ context: CommandContext) throws -> Int32 {
        let parsed = try CommandLineArguments(arguments, flags: ["--no-perturb"], options: ["--format"])
        guard parsed.positionals.count <= 1 else {
            throw CommandLineArguments.UsageError(description: "conformance takes at most one DIR")
        }
        let format = parsed.value("--format") ?? "text"
        guard ["text", "json", "junit"].contains(format) else {
            throw CommandLineArguments.UsageError(description: "--format must be text, json or junit, not '\(format)'")
        }
        let path = parsed.positionals.first ?? "Fixtures"
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw CommandLineArguments.UsageError(
                description: "no fixture folder at \(path); run from the package root or pass DIR")
        }
        let fixtures: [Fixture]
        let encodingFixtures: [EncodingFixture]
        do {
            fixtures = try FixtureLoader.fixtures(in: URL(fileURLWithPath: path))
            encodingFixtures = try FixtureLoader.encodingFixtures(in: URL(fileURLWithPath: path))
        } catch {
            Output.error("decant conformance: \(error)")
            return 1
        }
        let runner = ConformanceRunner(registry: context.registry, perturbs: !parsed.has("--no-perturb"))
        let showsProgress = Output.showsProgress && fixtures.count > 20
        var results: [ConformanceResult] = []
        for (index, fixture) in fixtures.enumerated() {
            if showsProgress {
                FileHandleWriter.standardError.write("\r[\(index + 1)/\(fixtures.count)] \(fixture)\u{1B}[K")
            }
            results += runner.run(fixture)
        }
        if showsProgress { FileHandleWriter.standardError.write("\r\u{1B}[K") }
        results += encodingFixtures.map { runner.run(writing: $0) }
        let report = ConformanceReport(results: results)
        switch format {
        case "json": Output.line(report.json())
        case "junit": Output.line(report.junitXML())
        default: Output.line(report.textTable())
        }
        return report.failed == 0 ? 0 : 1
    }
}
