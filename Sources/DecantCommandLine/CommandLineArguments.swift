/// A small, dependency-free argument reader: flags (`--json`), options with values (`--content-type T` or
/// `--content-type=T`), and positional arguments, with `--` ending option parsing.
struct CommandLineArguments {
    /// A usage error: printed to stderr with the command's usage, exit status 2.
    struct UsageError: Error, CustomStringConvertible {
        let description: String
    }

    private(set) var positionals: [String] = []
    private var flags: Set<String> = []
    /// Every value of each option, in the order given (for options that may be repeated, such as `--header`).
    private var allValues: [String: [String]] = [:]

    /// Reads `arguments`; `flagNames` take no value, `optionNames` take one. With `unknownAsPositional`, an
    /// argument that looks like an option but is not one is kept as a positional argument (for commands whose
    /// inputs may start with `-`, such as media types under test).
    init(
        _ arguments: [String], flags flagNames: Set<String>, options optionNames: Set<String>,
        unknownAsPositional: Bool = false
    ) throws {
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            var name = argument
            var inlineValue: String?
            if let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                inlineValue = String(argument[argument.index(after: equals)...])
            }
            if flagNames.contains(name) {
                guard inlineValue == nil else { throw UsageError(description: "\(name) takes no value") }
                flags.insert(name)
            } else if optionNames.contains(name) {
                let value: String
                if let inlineValue {
                    value = inlineValue
                } else {
                    guard index < arguments.count else { throw UsageError(description: "\(name) needs a value") }
                    value = arguments[index]
                    index += 1
                }
                allValues[name, default: []].append(value)
            } else if unknownAsPositional {
                positionals.append(argument)
            } else {
                let known = (flagNames.union(optionNames)).sorted().joined(separator: ", ")
                throw UsageError(description: "unknown option \(name)" + (known.isEmpty ? "" : " (known: \(known))"))
            }
        }
    }

    /// Whether the flag was given.
    func has(_ flag: String) -> Bool { flags.contains(flag) }

    /// The value of an option, if given (the last one, when it was given more than once).
    func value(_ option: String) -> String? { allValues[option]?.last }

    /// Every value of an option, in the order given; empty when it was not given.
    func values(_ option: String) -> [String] { allValues[option] ?? [] }
}
