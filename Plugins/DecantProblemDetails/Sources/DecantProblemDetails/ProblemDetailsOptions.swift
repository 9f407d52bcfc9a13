import DecantJSON
public import DecantXMLParser

/// How ``ProblemDetails`` reads a body, and the limits that keep untrusted bodies bounded.
///
/// | Option | Default | What it bounds | Error |
/// |---|---|---|---|
/// | ``maxBytes`` | 1 MiB | the body, checked before parsing (either form) | `bodyTooLarge` |
/// | ``maxDepth`` | 64 | JSON arrays and objects nested, XML elements nested (the `problem` root counts) | `limitExceeded` |
/// | ``xml`` | `XMLParsingOptions()` | every other XML limit (entity expansion, text length, nodes, output) | `limitExceeded` |
///
/// A problem document is small: the defaults accept any realistic one. Parsing is linear in the body size in both
/// forms; extension members are kept as slices of the parsed JSON document, and XML extension elements are turned
/// into one JSON text that is parsed once.
public struct ProblemDetailsOptions: Sendable, Hashable {
    /// The default of ``maxBytes``: 1 MiB.
    public static let defaultMaxBytes = 1 << 20
    /// The default of ``maxDepth``: 64.
    public static let defaultMaxDepth = 64

    /// The largest body parsed, in bytes; a larger one fails with `SerializationError.Code.bodyTooLarge` before any
    /// parsing. Default 1 MiB (``defaultMaxBytes``).
    public var maxBytes: Int
    /// The deepest nesting accepted: of arrays and objects in JSON (the problem object counts one), of elements in XML
    /// (the `problem` root counts one). A deeper document fails with `SerializationError.Code.limitExceeded`. Default
    /// 64 (``defaultMaxDepth``).
    public var maxDepth: Int
    /// The XML parser's other limits (see `XMLParsingOptions`). Its `maxDepth` is replaced by ``maxDepth`` and it is
    /// always namespace-aware, because the root is recognised by its namespace.
    public var xml: XMLParsingOptions

    /// Options with the defaults; every parameter has the default described on its property.
    public init(
        maxBytes: Int = ProblemDetailsOptions.defaultMaxBytes, maxDepth: Int = ProblemDetailsOptions.defaultMaxDepth,
        xml: XMLParsingOptions = XMLParsingOptions()
    ) {
        self.maxBytes = maxBytes
        self.maxDepth = maxDepth
        self.xml = xml
    }

    /// The JSON parser's options: fragments parsed (so that a scalar body gets this plugin's own error), the last of
    /// duplicate keys wins (as in JavaScript and Python), ``maxDepth`` and ``maxBytes``.
    var jsonParsing: JSONParsingOptions {
        JSONParsingOptions(
            allowsFragments: true, maxDepth: max(1, maxDepth), duplicateKeys: .lastWins, maxBytes: max(0, maxBytes))
    }

    /// The XML parser's options: ``xml`` with ``maxDepth`` and namespaces on.
    var xmlParsing: XMLParsingOptions {
        var options = xml
        options.namespaceAware = true
        options.maxDepth = max(1, maxDepth)
        return options
    }
}
