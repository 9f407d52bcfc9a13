/// Where an event or an error is in the document.
public struct XMLPosition: Sendable, Hashable, CustomStringConvertible {
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, counted in Unicode scalars.
    public var column: Int
    /// The byte offset into the body.
    public var offset: Int

    /// A position with the given parts.
    public init(line: Int, column: Int, offset: Int) {
        self.line = line
        self.column = column
        self.offset = offset
    }

    /// `line L, column C`.
    public var description: String { "line \(line), column \(column)" }
}
