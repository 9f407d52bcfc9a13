/// Everything wrong with a chain configuration document, found at once: each problem names the file, the key path
/// and what is allowed. A configuration with any problem does not load at all.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// One problem at one place in the document.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// Where, as a key path such as `chains[0].serializers[1].options.maxDepth` (empty for the document).
        public let keyPath: String
        /// What is wrong and what is allowed.
        public let message: String

        /// Creates a problem.
        public init(keyPath: String, message: String) {
            self.keyPath = keyPath
            self.message = message
        }

        /// `keyPath: message`.
        public var description: String { (keyPath.isEmpty ? "(document)" : keyPath) + ": " + message }
    }

    /// The file the document came from, when it came from one.
    public let file: String?
    /// Every problem, in document order.
    public let problems: [Problem]

    /// Creates an error.
    public init(file: String?, problems: [Problem]) {
        self.file = file
        self.problems = problems
    }

    /// A heading naming the file and the number of problems, then one line per problem.
    public var description: String {
        let source = file ?? "the configuration"
        let count = problems.count == 1 ? "1 problem" : "\(problems.count) problems"
        return "\(source) has \(count) and was not loaded:\n"
            + problems.map { "  \(file.map { $0 + ": " } ?? "")\($0)" }.joined(separator: "\n")
    }
}
